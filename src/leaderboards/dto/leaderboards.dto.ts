import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsString, Max, Min } from 'class-validator';
import { OptionalNotNull } from '../../common/validation/validators.js';
import { SearchText } from '../../ugpt/dto/search-text.js';

export const LEADERBOARD_LIMIT = { max: 500, default: 100 };
export const PB_LEADERBOARD_LIMIT = { max: 50, default: 50 };
export const RECENT_CLASSES_LIMIT = { max: 50, default: 10 };
export const HIGHLIGHTED_SCORES_LIMIT = { max: 100, default: 100 };
const INT32_MAX = 2147483647;

/**
 * An optional integer query parameter in [min, max]. Only plain digits convert: a sign, an
 * exponent, a fraction, spaces or hex stay strings and fail, so every bad value is a 400.
 */
function QueryInt(min: number, max: number, description: string, defaultValue?: number) {
  const message = `$property must be an integer from ${min} to ${max}`;
  return applyDecorators(
    ApiPropertyOptional({ type: 'integer', minimum: min, maximum: max, default: defaultValue, description }),
    OptionalNotNull(),
    Transform(({ value }: { value: unknown }) => (typeof value === 'string' && /^[0-9]{1,10}$/.test(value) ? Number(value) : value)),
    IsInt({ message }),
    Min(min, { message }),
    Max(max, { message }),
  );
}

function AlgName(description: string) {
  return applyDecorators(ApiPropertyOptional({ description }), OptionalNotNull(), IsString());
}

export class LeaderboardQuery {
  @AlgName("A profile rating algorithm of the GPT; default the GPT's default profile algorithm.")
  alg?: string;

  @QueryInt(1, LEADERBOARD_LIMIT.max, 'How many players.', LEADERBOARD_LIMIT.default)
  limit?: number;
}

export class ChartPbsQuery {
  @QueryInt(1, INT32_MAX, 'First rank returned (inclusive).', 1)
  startRanking?: number;
}

export class UsernameSearchQuery {
  @SearchText('Case-insensitive substring of the username.')
  search!: string;
}

export class PbLeaderboardQuery {
  @AlgName("A score rating algorithm of the GPT; default the GPT's default score algorithm.")
  alg?: string;

  @QueryInt(1, PB_LEADERBOARD_LIMIT.max, 'How many PBs.', PB_LEADERBOARD_LIMIT.default)
  limit?: number;
}

/** The two operations of /player-distribution: `class` (a distribution) or `limit` (recent class updates), never both. */
export class PlayerDistributionQuery {
  @ApiPropertyOptional({ description: 'A class set of the GPT: count the players per value.' })
  @OptionalNotNull()
  @IsString()
  class?: string;

  @QueryInt(1, RECENT_CLASSES_LIMIT.max, 'Without class: how many recent class updates.', RECENT_CLASSES_LIMIT.default)
  limit?: number;
}

export class HighlightedScoresQuery {
  @QueryInt(1, HIGHLIGHTED_SCORES_LIMIT.max, 'How many scores.', HIGHLIGHTED_SCORES_LIMIT.default)
  limit?: number;
}

export class SongSearchQuery {
  @SearchText('Song title, alternate title or search term.')
  search!: string;
}

export class BestPbsQuery {
  @AlgName("A score rating algorithm of the GPT; default the GPT's default score algorithm.")
  alg?: string;
}

export class PbQuery {
  @ApiPropertyOptional({ description: 'Presence parameter: also return the scores the PB is composed from.' })
  @OptionalNotNull()
  @IsString()
  getComposition?: string;
}
