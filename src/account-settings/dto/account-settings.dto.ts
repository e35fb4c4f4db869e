import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsEmail, IsString, Length, Matches, MaxLength, MinLength } from 'class-validator';
import { PASSWORD_MAX, PASSWORD_MIN } from '../../auth/dto/auth.dto.js';
import { TachiName } from '../../http/profile-names.js';
import { OptionalNotNull, USERNAME_PATTERN } from '../../common/validation/validators.js';

const preference = (description: string) => ApiPropertyOptional({ type: Boolean, description });

/** The preferences to change; absent ones keep their values. */
export class PatchUserSettingsDto {
  @preference('Hide from GET /users (lists, online, search); lastSeen stops moving.') @OptionalNotNull() @IsBoolean() invisible?: boolean;
  @preference('Client preference.') @OptionalNotNull() @IsBoolean() developerMode?: boolean;
  @preference('Client preference.') @OptionalNotNull() @IsBoolean() advancedMode?: boolean;
  @preference('Client preference.') @OptionalNotNull() @IsBoolean() contentiousContent?: boolean;
  @preference('Client preference; the server does not enforce it.') @OptionalNotNull() @IsBoolean() deletableScores?: boolean;
}

const currentPassword = () => ApiProperty({ name: '!password', maxLength: PASSWORD_MAX, description: 'The current password. Never logged.' });

export class ChangePasswordDto {
  @ApiProperty({ name: '!oldPassword', maxLength: PASSWORD_MAX, description: 'The current password. Never logged.' })
  @IsString()
  @Length(1, PASSWORD_MAX)
  '!oldPassword'!: string;

  @ApiProperty({ name: '!password', minLength: PASSWORD_MIN, maxLength: PASSWORD_MAX, description: 'The new password (the rules of register). Never logged.' })
  @IsString()
  @MinLength(PASSWORD_MIN, { message: `!password must be ${PASSWORD_MIN} characters or longer` })
  @MaxLength(PASSWORD_MAX)
  '!password'!: string;
}

export class ChangeUsernameDto {
  @currentPassword()
  @IsString()
  @Length(1, PASSWORD_MAX)
  '!password'!: string;

  @ApiProperty({ pattern: USERNAME_PATTERN.source, description: 'The new username (the rules of register). Tachi names it newUsername.' })
  @TachiName('newUsername')
  @IsString()
  @Matches(USERNAME_PATTERN, {
    message: 'username must be 3 to 20 characters: the first a letter, _ or -, the others letters, digits, _ or -',
  })
  username!: string;
}

export class ChangeEmailDto {
  @currentPassword()
  @IsString()
  @Length(1, PASSWORD_MAX)
  '!password'!: string;

  @ApiProperty({ description: 'The new address; it is unverified until the code mailed to it is used.' })
  @IsString()
  @MaxLength(254)
  @IsEmail({}, { message: 'email must be a valid email address' })
  email!: string;
}
