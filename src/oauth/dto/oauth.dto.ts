import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Equals, IsString, Length, MaxLength } from 'class-validator';
import { OptionalNotNull } from '../../common/validation/validators.js';

export class CreateCodeDto {
  @ApiPropertyOptional({ description: 'Binds the code to this client, so that no other client can redeem it.' })
  @OptionalNotNull()
  @IsString()
  @Length(1, 100)
  clientID?: string;
}

/** The token request. Accepted as JSON or as application/x-www-form-urlencoded (RFC 6749 clients). */
export class TokenRequestDto {
  @ApiProperty() @IsString() @Length(1, 100) client_id!: string;
  @ApiProperty() @IsString() @Length(1, 200) client_secret!: string;
  @ApiProperty() @IsString() @MaxLength(2000) redirect_uri!: string;
  @ApiProperty() @IsString() @Length(1, 200) code!: string;

  @ApiProperty({ enum: ['authorization_code'] })
  @IsString()
  @Equals('authorization_code', { message: "grant_type must be 'authorization_code', the only supported grant" })
  grant_type!: string;
}
