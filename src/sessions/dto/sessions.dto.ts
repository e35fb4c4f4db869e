import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsString, Length } from 'class-validator';
import { NullableOptional, OptionalNotNull } from '../../common/validation/validators.js';

/** PATCH /sessions/:sessionID. All optional, but at least one must be given (checked by the service). */
export class PatchSessionDto {
  @ApiPropertyOptional({ description: '3 to 80 characters.' })
  @OptionalNotNull()
  @IsString()
  @Length(3, 80)
  name?: string;

  @ApiPropertyOptional({ type: String, nullable: true, description: '3 to 120 characters; null clears it (a new session has none).' })
  @NullableOptional()
  @IsString()
  @Length(3, 120)
  desc?: string | null;

  @ApiPropertyOptional()
  @OptionalNotNull()
  @IsBoolean()
  highlight?: boolean;
}
