import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsString } from 'class-validator';
import { OptionalNotNull } from '../../common/validation/validators.js';
import { AlgName, INT32_MAX, QueryInt, SearchText } from '../../http/query-params.js';

export const LEADERBOARD_LIMIT = { max: 500, default: 100 };
export const PB_LEADERBOARD_LIMIT = { max: 50, default: 50 };
export const RECENT_CLASSES_LIMIT = { max: 50, default: 10 };
export const HIGHLIGHTED_SCORES_LIMIT = { max: 100, default: 100 };
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
