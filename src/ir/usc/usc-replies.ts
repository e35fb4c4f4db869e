import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { ErrorShape } from '../../http/response-shapes.js';
import type { RankedPb } from '../../repositories/chart-records.repository.js';
import type { PbReadRow, ScoreRow } from '../../database/schema.js';

/** USC-IR's two-digit status codes, carried in the body of an HTTP 200. */
export const USC_STATUS = {
  success: 20,
  accepted: 22,
  badRequest: 40,
  unauthorised: 41,
  chartRefused: 42,
  forbidden: 43,
  notFound: 44,
  serverError: 50,
} as const;

/** Every USC-IR answer, errors included, is an HTTP 200 with this body. */
export class UscReply {
  @ApiProperty({
    enum: Object.values(USC_STATUS),
    description: 'USC-IR status: 20 success, 22 accepted, 40 bad request, 41 unauthorised, 42 chart refused, 43 forbidden, 44 not found, 50 server error.',
  })
  statusCode!: number;
  @ApiProperty() description!: string;
  @ApiPropertyOptional({ description: "The route's data (a ServerScore, a list of them, the heartbeat, a submission result)." }) body?: unknown;
}

export const reply = (statusCode: number, description: string, body?: unknown): UscReply =>
  body === undefined ? { statusCode, description } : { statusCode, description, body };

/** A score as USC's client shows it. */
export interface ServerScore {
  score: number;
  /** Unix seconds. */
  timestamp: number;
  crit: number;
  near: number;
  error: number;
  ranking: number;
  /** USC's clear mark: 1 played (failed), 2 clear, 3 hard clear, 4 full combo, 5 perfect. */
  lamp: number;
  username: string;
  noteMod: string;
  gaugeMod: string;
}

const LAMP_MARK: Record<string, number> = { FAILED: 1, CLEAR: 2, 'EXCESSIVE CLEAR': 3, 'ULTIMATE CHAIN': 4, 'PERFECT ULTIMATE CHAIN': 5 };

type Played = Pick<PbReadRow, 'scoreData'> & { time: number | null; scoreMeta: Record<string, unknown> };

function serverScore(played: Played, ranking: number, username: string): ServerScore {
  const { scoreData, scoreMeta } = played;
  const judged = (name: string) => scoreData.judgements[name] ?? 0;
  return {
    score: scoreData.score,
    timestamp: played.time === null ? 0 : Math.floor(played.time / 1000),
    crit: judged('critical'),
    near: judged('near'),
    error: judged('miss'),
    ranking,
    lamp: LAMP_MARK[scoreData.lamp] ?? 1,
    username,
    // Scores from other sources (batch-manual) may lack the modifiers: an unmodified play is the likeliest.
    noteMod: typeof scoreMeta.noteMod === 'string' ? scoreMeta.noteMod : 'NORMAL',
    gaugeMod: typeof scoreMeta.gaugeMod === 'string' ? scoreMeta.gaugeMod : 'NORMAL',
  };
}

/** A PB on a chart leaderboard; its time is that of the play that set its score. */
export function pbServerScore({ pb, username, scoreMeta }: RankedPb): ServerScore {
  return serverScore({ scoreData: pb.scoreData, scoreMeta, time: pb.rankTime ?? pb.timeAchieved }, pb.rank, username);
}

/** One play, ranked where the player's PB on the chart stands. */
export function playServerScore(score: ScoreRow, ranking: number, username: string): ServerScore {
  return serverScore({ scoreData: score.scoreData, scoreMeta: score.scoreMeta, time: score.timeAchieved }, ranking, username);
}

/** The platform's 401s without a usable token: USC calls a missing or malformed Authorization header a bad request. */
const BAD_AUTHORIZATION = /^(Malformed Authorization header|Authentication is required)/;

/** HTTP errors as USC codes; the client reads no body unless the HTTP status is 200. */
export function uscStatusOf(status: number, message: string): number {
  if (status === 401) return BAD_AUTHORIZATION.test(message) ? USC_STATUS.badRequest : USC_STATUS.unauthorised;
  if (status === 403) return USC_STATUS.forbidden;
  if (status === 404) return USC_STATUS.notFound;
  if (status >= 500) return USC_STATUS.serverError;
  return USC_STATUS.badRequest;
}

export const uscErrorShape: ErrorShape = {
  pathPrefix: '/ir/usc/',
  render: (status, message) => ({ status: 200, body: reply(uscStatusOf(status, message), message) }),
};
