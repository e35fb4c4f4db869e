import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Equals, IsIn, IsObject, IsString, Length, Matches, MaxLength } from 'class-validator';
import { NullableOptional, OptionalNotNull } from '../../common/validation/validators.js';
import { CHART_STAT_PROPERTIES, STAT_MODES } from '../showcase-stats.js';
import { TachiName } from '../../http/profile-names.js';
import { SearchText } from '../../http/query-params.js';

export class SessionSearchQuery {
  @SearchText('Text to find in session names (substring or close word match).')
  search!: string;
}

export class SessionAlgQuery {
  @ApiPropertyOptional({ description: "A session rating algorithm of the GPT; default the GPT's default session algorithm." })
  @OptionalNotNull()
  @IsString()
  @MaxLength(100)
  alg?: string;
}

export class ProfileAlgQuery {
  @ApiPropertyOptional({ description: "A profile rating algorithm of the GPT; default the GPT's default profile algorithm." })
  @OptionalNotNull()
  @IsString()
  @MaxLength(100)
  alg?: string;
}

/** PATCH /settings: every property optional; null unsets a preference. */
export class PatchUgptSettingsDto {
  @ApiPropertyOptional({ type: String, nullable: true, description: 'A score rating algorithm of the GPT, or null.' })
  @NullableOptional()
  @IsString()
  @MaxLength(100)
  preferredScoreAlg?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, description: 'A session rating algorithm of the GPT, or null.' })
  @NullableOptional()
  @IsString()
  @MaxLength(100)
  preferredSessionAlg?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, description: 'A profile rating algorithm of the GPT, or null.' })
  @NullableOptional()
  @IsString()
  @MaxLength(100)
  preferredProfileAlg?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, enum: ['grade', 'lamp'], description: 'The enum metric shown by default, or null.' })
  @NullableOptional()
  @IsString()
  @MaxLength(100)
  preferredDefaultEnum?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, description: 'A tableID of this GPT, or null.' })
  @NullableOptional()
  @IsString()
  @Length(1, 100)
  defaultTable?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, enum: ['global', 'rival'] })
  @NullableOptional()
  @IsIn(['global', 'rival'])
  preferredRanking?: 'global' | 'rival' | null;

  @ApiPropertyOptional({
    type: 'object',
    nullable: true,
    additionalProperties: true,
    description:
      "The GPT's own preferences to change, key by key (others keep their values): iidx {display2DXTra: boolean, bpiTarget: integer 0–100}, sdvx and usc {vf6Target: 0–0.5}, bms {displayTables: string[] (≤ 50)}, jubeat {jubilityTarget: 0–165.1}; other GPTs have none. null puts every key back to its default.",
  })
  @NullableOptional()
  @IsObject()
  gameSpecific?: Record<string, unknown> | null;

  /** Declared only to refuse it with a message that says where stats are set. */
  @Equals(undefined, { message: 'stats cannot be changed here: use PATCH .../showcase.' })
  stats?: never;
}

export class ShowcaseQuery {
  @ApiPropertyOptional({ description: "A user (id, username or 'me') whose showcase stats are evaluated against this user's scores." })
  @OptionalNotNull()
  @IsString()
  @Length(1, 100)
  projectUser?: string;
}

/** GET /showcase/custom: one stat given in the query (gte is a number written in decimal). */
export class CustomStatQuery {
  @ApiProperty({ enum: STAT_MODES })
  @IsIn(STAT_MODES)
  mode!: (typeof STAT_MODES)[number];

  @ApiProperty({ enum: CHART_STAT_PROPERTIES, description: 'What is measured (playcount only in chart mode).' })
  @TachiName('metric')
  @IsIn(CHART_STAT_PROPERTIES)
  property!: (typeof CHART_STAT_PROPERTIES)[number];

  @ApiPropertyOptional({ description: 'Mode chart: the chart.' })
  @OptionalNotNull()
  @IsString()
  @Length(1, 100)
  chartID?: string;

  @ApiPropertyOptional({ description: 'Mode folder: the folder.' })
  @OptionalNotNull()
  @IsString()
  @Length(1, 100)
  folderID?: string;

  @ApiPropertyOptional({ description: 'Mode folder: the threshold the property must reach (grade and lamp as indexes).' })
  @OptionalNotNull()
  @IsString()
  @Matches(/^-?[0-9]{1,12}(\.[0-9]{1,12})?$/, { message: 'gte must be a decimal number' })
  gte?: string;
}
