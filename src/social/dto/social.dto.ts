import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsIn, IsInt, IsOptional, IsPositive, Max, Min } from 'class-validator';
import { AlgName, QueryInt } from '../../http/query-params.js';

export class PutRivalsDto {
  @ApiProperty({ type: 'integer', isArray: true, description: 'The new set of rivals (replaces the old).' })
  @IsArray({ message: 'rivalIDs must be an array of user IDs' })
  @ArrayMaxSize(1000)
  @IsInt({ each: true, message: 'rivalIDs must contain only integer user IDs' })
  @IsPositive({ each: true, message: 'rivalIDs must contain only positive user IDs' })
  rivalIDs!: number[];
}

export class FollowDto {
  @ApiProperty({ type: 'integer' })
  @IsInt({ message: 'userID must be an integer user ID' })
  @IsPositive({ message: 'userID must be a positive user ID' })
  userID!: number;
}

/** Paging of the activity feeds: `startTime` (exclusive upper bound on a session's start, ms) and how many sessions. */
export class ActivityQuery {
  @ApiPropertyOptional({ type: 'integer', description: "Unix ms: only sessions started before it (the next page: the last session's timeStarted)." })
  @IsOptional()
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' && /^[0-9]{1,15}$/.test(value) ? Number(value) : value))
  @IsInt({ message: 'startTime must be a non-negative integer (unix ms)' })
  @Min(0, { message: 'startTime must be a non-negative integer (unix ms)' })
  @Max(Number.MAX_SAFE_INTEGER, { message: 'startTime must be a non-negative integer (unix ms)' })
  startTime?: number;

  @QueryInt(10, 100, 'How many sessions (10–100).', 30)
  sessions?: number;
}

/** The user feed's options: also the user's rivals' (on every GPT) and followed users' activity. */
export class UserActivityQuery extends ActivityQuery {
  @ApiPropertyOptional({ enum: ['true', 'false'] })
  @IsOptional()
  @IsIn(['true', 'false'], { message: 'includeRivals must be true or false' })
  includeRivals?: string;

  @ApiPropertyOptional({ enum: ['true', 'false'] })
  @IsOptional()
  @IsIn(['true', 'false'], { message: 'includeFollowers must be true or false' })
  includeFollowers?: string;

  @ApiPropertyOptional({ enum: ['true', 'false'] })
  @IsOptional()
  @IsIn(['true', 'false'], { message: 'includeFollowing must be true or false' })
  includeFollowing?: string;
}

/** The rivals' PB leaderboard: which score rating algorithm, how many PBs. */
export class RivalPbLeaderboardQuery {
  @AlgName("A score rating algorithm of the GPT; default the GPT's default score algorithm.")
  alg?: string;

  @QueryInt(1, 100, 'How many PBs (1–100).', 100)
  limit?: number;
}
