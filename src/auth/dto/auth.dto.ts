import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsEmail, IsString, Length, Matches, MaxLength, MinLength } from 'class-validator';
import { OptionalNotNull, USERNAME_PATTERN } from '../../common/validation/validators.js';

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 1024;

const password = () => ApiProperty({ name: '!password', minLength: PASSWORD_MIN, maxLength: PASSWORD_MAX, description: 'Never logged.' });
const captcha = () => ApiPropertyOptional({ description: 'The captcha response token. Required when the server checks captchas (CAPTCHA_VERIFY_URL).' });

export class LoginDto {
  @ApiProperty({ description: 'Compared case-insensitively.' })
  @IsString()
  @Length(1, 100)
  username!: string;

  @password()
  @IsString()
  @Length(1, PASSWORD_MAX)
  '!password'!: string;

  @captcha()
  @OptionalNotNull()
  @IsString()
  @MaxLength(4096)
  captcha?: string;
}

export class RegisterDto {
  @ApiProperty({ pattern: USERNAME_PATTERN.source })
  @IsString()
  @Matches(USERNAME_PATTERN, {
    message: 'username must be 3 to 20 characters: the first a letter, _ or -, the others letters, digits, _ or -',
  })
  username!: string;

  @password()
  @IsString()
  @MinLength(PASSWORD_MIN, { message: `!password must be ${PASSWORD_MIN} characters or longer` })
  @MaxLength(PASSWORD_MAX)
  '!password'!: string;

  @ApiProperty()
  @IsString()
  @MaxLength(254)
  @IsEmail({}, { message: 'email must be a valid email address' })
  email!: string;

  @ApiPropertyOptional({ description: 'Required when the deployment is invite-only (INVITE_ONLY=true).' })
  @OptionalNotNull()
  @IsString()
  @MaxLength(100)
  inviteCode?: string;

  @captcha()
  @OptionalNotNull()
  @IsString()
  @MaxLength(4096)
  captcha?: string;
}

export class CodeDto {
  @ApiProperty()
  @IsString()
  @Length(1, 200)
  code!: string;
}

export class ForgotPasswordDto {
  @ApiProperty()
  @IsString()
  @MaxLength(254)
  @IsEmail({}, { message: 'email must be a valid email address' })
  email!: string;
}

export class ResetPasswordDto {
  @ApiProperty()
  @IsString()
  @Length(1, 200)
  code!: string;

  @password()
  @IsString()
  @MinLength(PASSWORD_MIN, { message: `!password must be ${PASSWORD_MIN} characters or longer` })
  @MaxLength(PASSWORD_MAX)
  '!password'!: string;
}

/** The account's current password, confirming a destructive request made through a session. */
export class PasswordConfirmationDto {
  @ApiProperty({ name: '!password', maxLength: PASSWORD_MAX, description: 'The current password. Never logged.' })
  @IsString()
  @Length(1, PASSWORD_MAX)
  '!password'!: string;
}
