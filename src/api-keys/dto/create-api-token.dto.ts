import { ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayUnique, IsArray, IsIn, IsString, Length } from 'class-validator';
import { PERMISSIONS, type Permission } from '../../common/permissions.js';
import { OptionalNotNull } from '../../common/validation/validators.js';

export class CreateApiTokenDto {
  @ApiPropertyOptional({ enum: PERMISSIONS, isArray: true, description: 'For a custom token. Not allowed together with clientID.' })
  @OptionalNotNull()
  @IsArray()
  @ArrayUnique()
  @IsIn(PERMISSIONS, { each: true, message: `each permission must be one of: ${PERMISSIONS.join(', ')}` })
  permissions?: Permission[];

  @ApiPropertyOptional({ description: '1 to 80 characters. Defaults to "Custom Token", or the client name with clientID.' })
  @OptionalNotNull()
  @IsString()
  @Length(1, 80)
  identifier?: string;

  @ApiPropertyOptional({ description: 'Issue a key for this API client (the client-file flow).' })
  @OptionalNotNull()
  @IsString()
  @Length(1, 100)
  clientID?: string;
}
