import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, Length, MaxLength } from 'class-validator';
import { NullableOptional, OptionalNotNull } from '../../common/validation/validators.js';

export class ListUsersQuery {
  @ApiPropertyOptional({ description: 'Presence parameter: only users seen in the last 5 minutes.' })
  @OptionalNotNull()
  @IsString()
  online?: string;

  @ApiPropertyOptional({ description: 'Case-insensitive substring of the username.' })
  @OptionalNotNull()
  @IsString()
  @MaxLength(100)
  search?: string;
}

const social = (name: string) =>
  ApiPropertyOptional({ type: String, nullable: true, description: `${name} handle or profile URL, 3 to 140 characters; null unsets it.` });

export class PatchUserDto {
  @ApiPropertyOptional({ description: 'Markdown, up to 2000 characters.' })
  @OptionalNotNull()
  @IsString()
  @MaxLength(2000)
  about?: string;

  @ApiPropertyOptional({ type: String, nullable: true, description: '3 to 140 characters; null unsets it.' })
  @NullableOptional()
  @IsString()
  @Length(3, 140)
  status?: string | null;

  @social('Discord') @NullableOptional() @IsString() @Length(3, 140) discord?: string | null;
  @social('Twitter') @NullableOptional() @IsString() @Length(3, 140) twitter?: string | null;
  @social('GitHub') @NullableOptional() @IsString() @Length(3, 140) github?: string | null;
  @social('Steam') @NullableOptional() @IsString() @Length(3, 140) steam?: string | null;
  @social('YouTube') @NullableOptional() @IsString() @Length(3, 140) youtube?: string | null;
  @social('Twitch') @NullableOptional() @IsString() @Length(3, 140) twitch?: string | null;
}
