import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { ArrayMaxSize, IsBoolean, IsIn, IsInt, IsNumber, IsObject, IsPositive, IsString, Length, Max, Min, ValidateNested } from 'class-validator';
import { OptionalNotNull } from '../../common/validation/validators.js';
import { INT32_MAX, QueryInt } from '../../http/query-params.js';

/** The spec's log level names (and Tachi's `error`), mildest last. */
export const ADMIN_LOG_LEVELS = ['crit', 'severe', 'error', 'warn', 'info', 'verbose', 'debug'] as const;
export type AdminLogLevel = (typeof ADMIN_LOG_LEVELS)[number];

export class ChangeLogLevelDto {
  @ApiProperty({ enum: ADMIN_LOG_LEVELS })
  @IsIn(ADMIN_LOG_LEVELS)
  logLevel!: AdminLogLevel;

  @ApiPropertyOptional({ description: 'Minutes until the configured level is restored (at most 35000, about 24 days).', default: 60 })
  @OptionalNotNull()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @IsPositive()
  @Max(35_000)
  duration?: number;

  @ApiPropertyOptional({ description: 'Keep the level until the next change or restart.' })
  @OptionalNotNull()
  @IsBoolean()
  noReset?: boolean;
}

export class DeleteScoreDto {
  @ApiProperty()
  @IsString()
  @Length(1, 100)
  scoreID!: string;
}

/** The PB keys a resync may filter on; any other key is a 400. */
export class PbFilterDto {
  @ApiPropertyOptional()
  @OptionalNotNull()
  @IsString()
  @Length(1, 40)
  game?: string;

  @ApiPropertyOptional()
  @OptionalNotNull()
  @IsString()
  @Length(1, 40)
  playtype?: string;

  @ApiPropertyOptional()
  @OptionalNotNull()
  @IsString()
  @Length(1, 100)
  chartID?: string;

  @ApiPropertyOptional({ type: 'integer' })
  @OptionalNotNull()
  @IsInt()
  @Min(1)
  @Max(INT32_MAX)
  userID?: number;
}

export class ResyncPbsDto {
  @ApiPropertyOptional({ type: [Number], description: 'Only these users (default: every user).' })
  @OptionalNotNull()
  @ArrayMaxSize(10_000)
  @IsInt({ each: true })
  @Min(1, { each: true })
  @Max(INT32_MAX, { each: true })
  userIDs?: number[];

  @ApiPropertyOptional({ type: PbFilterDto })
  @OptionalNotNull()
  @IsObject()
  @ValidateNested()
  @Type(() => PbFilterDto)
  filters?: PbFilterDto;

  @ApiPropertyOptional({ type: PbFilterDto, description: 'Another name of filters (as a Tachi sample spells it).' })
  @OptionalNotNull()
  @IsObject()
  @ValidateNested()
  @Type(() => PbFilterDto)
  filter?: PbFilterDto;
}

export class DeleteUserDto {
  @ApiProperty({ type: 'integer' })
  @IsInt()
  @Min(1)
  @Max(INT32_MAX)
  userID!: number;
}

export class DestroyUgptDto {
  @ApiProperty({ type: 'integer' })
  @IsInt()
  @Min(1)
  @Max(INT32_MAX)
  userID!: number;

  @ApiProperty()
  @IsString()
  @Length(1, 40)
  game!: string;

  @ApiProperty()
  @IsString()
  @Length(1, 40)
  playtype!: string;
}

export class DestroyChartDto {
  @ApiProperty()
  @IsString()
  @Length(1, 100)
  chartID!: string;

  @ApiProperty()
  @IsString()
  @Length(1, 40)
  game!: string;
}

/** The score filter of a recalc; empty means every score. Any other key is a 400. */
export class RecalcDto extends PbFilterDto {
  @ApiPropertyOptional()
  @OptionalNotNull()
  @IsString()
  @Length(1, 100)
  importType?: string;

  @ApiPropertyOptional()
  @OptionalNotNull()
  @IsString()
  @Length(1, 100)
  service?: string;

  @ApiPropertyOptional({ type: 'integer', description: 'timeAdded at or after this (Unix ms).' })
  @OptionalNotNull()
  @IsInt()
  @Min(0)
  timeAddedFrom?: number;

  @ApiPropertyOptional({ type: 'integer', description: 'timeAdded at or before this (Unix ms).' })
  @OptionalNotNull()
  @IsInt()
  @Min(0)
  timeAddedTo?: number;
}

export class AuditQuery {
  @QueryInt(1, 500, 'Entries per page.', 100)
  limit?: number;

  @QueryInt(1, Number.MAX_SAFE_INTEGER, 'Only entries older than this entry id (the next page).')
  before?: number;
}

/** Longest announcement title (as the CLI's `announce`). */
export const ANNOUNCEMENT_TITLE_MAX = 500;

export class AnnouncementDto {
  @ApiProperty({ description: `The announcement, 1 to ${ANNOUNCEMENT_TITLE_MAX} characters (surrounding blanks are dropped).` })
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value))
  @IsString()
  @Length(1, ANNOUNCEMENT_TITLE_MAX)
  title!: string;
}
