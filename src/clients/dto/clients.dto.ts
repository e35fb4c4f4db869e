import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMinSize, ArrayUnique, Contains, IsArray, IsIn, IsString, IsUrl, Length, MaxLength, ValidateIf } from 'class-validator';
import { PERMISSIONS, type Permission } from '../../common/permissions.js';
import { HTTP_URL_OPTIONS, NullableOptional } from '../../common/validation/validators.js';
import { INT32_MAX, QueryInt } from '../../http/query-params.js';
import { TachiName } from '../../http/profile-names.js';

export const SERVICE_KEY_PLACEHOLDER = '%%SERVICE_KEY%%';

const urlMessage = (field: string) => ({ message: `${field} must be a valid http:// or https:// URL` });

export class CreateClientDto {
  @ApiProperty({ minLength: 3, maxLength: 80 })
  @IsString()
  @Length(3, 80)
  name!: string;

  @ApiPropertyOptional({ type: String, nullable: true, description: 'Where the OAuth2 flow returns the user (http or https).' })
  @NullableOptional()
  @IsUrl(HTTP_URL_OPTIONS, urlMessage('redirectUri'))
  @MaxLength(2000)
  redirectUri?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, description: 'Where webhook events are posted (http or https).' })
  @NullableOptional()
  @IsUrl(HTTP_URL_OPTIONS, urlMessage('webhookUri'))
  @MaxLength(2000)
  webhookUri?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, description: `Template of the client file; must contain ${SERVICE_KEY_PLACEHOLDER}.` })
  @NullableOptional()
  @IsString()
  @MaxLength(10000)
  @Contains(SERVICE_KEY_PLACEHOLDER, { message: `apiKeyFormat must contain ${SERVICE_KEY_PLACEHOLDER}` })
  @TachiName('apiKeyTemplate')
  apiKeyFormat?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 80 })
  @NullableOptional()
  @IsString()
  @Length(1, 80)
  apiKeyFilename?: string | null;

  @ApiProperty({ enum: PERMISSIONS, isArray: true })
  @IsArray()
  @ArrayMinSize(1, { message: 'permissions must name at least one permission' })
  @ArrayUnique()
  @IsIn(PERMISSIONS, { each: true, message: `each permission must be one of: ${PERMISSIONS.join(', ')}` })
  permissions!: Permission[];
}

export class PatchClientDto {
  @ApiPropertyOptional({ minLength: 3, maxLength: 80 })
  @ValidateIf((_o: unknown, v: unknown) => v !== undefined)
  @IsString()
  @Length(3, 80)
  name?: string;

  @ApiPropertyOptional({ type: String, nullable: true })
  @NullableOptional()
  @IsUrl(HTTP_URL_OPTIONS, urlMessage('redirectUri'))
  @MaxLength(2000)
  redirectUri?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true })
  @NullableOptional()
  @IsUrl(HTTP_URL_OPTIONS, urlMessage('webhookUri'))
  @MaxLength(2000)
  webhookUri?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true })
  @NullableOptional()
  @IsString()
  @MaxLength(10000)
  @Contains(SERVICE_KEY_PLACEHOLDER, { message: `apiKeyFormat must contain ${SERVICE_KEY_PLACEHOLDER}` })
  @TachiName('apiKeyTemplate')
  apiKeyFormat?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 80 })
  @NullableOptional()
  @IsString()
  @Length(1, 80)
  apiKeyFilename?: string | null;

  /** Declared only to answer with a clear message: permissions are fixed at creation. */
  @ValidateIf((_o: unknown, v: unknown) => v !== undefined)
  @IsIn([], { message: 'permissions cannot be changed after a client is created' })
  permissions?: never;
}

export class WebhookDeliveriesQueryDto {
  @QueryInt(1, 100, 'Deliveries to return, newest first.', 50)
  limit?: number;

  @QueryInt(1, INT32_MAX, 'Only deliveries with a smaller deliveryID (the last one of the previous page).')
  before?: number;
}
