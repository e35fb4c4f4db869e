import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Equals, IsString, Length, Matches, MaxLength } from 'class-validator';
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

  @ApiPropertyOptional({
    description:
      'PKCE (RFC 7636): required when the authorization carried a code_challenge, refused when it did not. 43 to 128 characters of A-Z a-z 0-9 - . _ ~',
  })
  @OptionalNotNull()
  @IsString()
  @Matches(/^[A-Za-z0-9\-._~]{43,128}$/, { message: 'code_verifier must be 43 to 128 characters of A-Z, a-z, 0-9, -, ., _ and ~ (RFC 7636)' })
  code_verifier?: string;

  @ApiProperty({ enum: ['authorization_code'] })
  @IsString()
  @Equals('authorization_code', { message: "grant_type must be 'authorization_code', the only supported grant" })
  grant_type!: string;
}
