import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsString, Length } from 'class-validator';
import { NullableOptional, OptionalNotNull } from '../../common/validation/validators.js';

export class GetScoreQuery {
  @ApiPropertyOptional({ description: "Presence parameter: also return the score's song and chart." })
  @OptionalNotNull()
  @IsString()
  getRelated?: string;
}

/** PATCH /scores/:scoreID. Both optional, but at least one must be given (checked by the service). */
export class PatchScoreDto {
  @ApiPropertyOptional({ type: String, nullable: true, description: '1 to 120 characters; null unsets it.' })
  @NullableOptional()
  @IsString()
  @Length(1, 120)
  comment?: string | null;

  @ApiPropertyOptional({ description: 'Highlight the score (a highlighted score also highlights the PB it is part of).' })
  @OptionalNotNull()
  @IsBoolean()
  highlight?: boolean;
}
