import { z } from 'zod';
import { chartNameProblem } from '../game-support/chart-names.js';
import { headNamesOf } from '../game-support/common/head-names.js';
import { canonicalMatchType, MATCH_TYPES } from '../game-support/match-types.js';
import type { GptSupport, ScoreInput } from '../game-support/types.js';
import type { ChartMatchCandidate } from '../repositories/chart-match.repository.js';

/** One score element that passed validation, ready for chart matching. */
export interface ScoreCandidate extends ChartMatchCandidate {
  index: number;
  /** The element as sent, kept for orphans. */
  raw: unknown;
  input: ScoreInput;
  timeAchieved: number | null;
  comment: string | null;
  scoreMeta: Record<string, unknown>;
}

export type ValidatedElement = { ok: true; candidate: ScoreCandidate } | { ok: false; message: string };

const EARLIEST_MS = 1_000_000_000_000;
const FUTURE_TOLERANCE_MS = 24 * 60 * 60 * 1000;

const element = z.strictObject({
  score: z.number().finite(),
  lamp: z.string(),
  percent: z.number().finite().optional(),
  matchType: z.enum(MATCH_TYPES),
  identifier: z.string().min(1).max(500),
  difficulty: z.string().nullable().optional(),
  timeAchieved: z.number().int().nullable().optional(),
  comment: z.string().nullable().optional(),
  judgements: z.record(z.string(), z.number().int().nonnegative().nullable()).nullable().optional(),
  optional: z.record(z.string(), z.unknown()).nullable().optional(),
  hitMeta: z.record(z.string(), z.unknown()).nullable().optional(),
  scoreMeta: z.record(z.string(), z.unknown()).nullable().optional(),
  artist: z.string().nullable().optional(),
});

/** Whether a string anywhere in the value (keys included) holds a NUL, which PostgreSQL cannot store. */
function containsNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (Array.isArray(value)) return value.some(containsNul);
  if (typeof value === 'object' && value !== null) return Object.entries(value).some(([k, v]) => k.includes('\u0000') || containsNul(v));
  return false;
}

function zodMessage(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.length ? i.path.join('.') : 'value'}: ${i.message}`).join('; ');
}

/**
 * Validates one score element against its GPT: shape, lamp, percent rules, judgements, optional
 * metrics, scoreMeta, timestamp, comment, match type and difficulty (the identifier's shape and
 * whether a difficulty is needed come from the match-type registry). Problems here reject only
 * this score.
 */
export function validateScoreElement(raw: unknown, index: number, gpt: GptSupport, now: number): ValidatedElement {
  const fail = (message: string): ValidatedElement => ({ ok: false, message });
  if (containsNul(raw)) return fail('The score contains a NUL character, which is not allowed.');
  // Tachi's (HEAD) names for this GPT's metrics (CHUNITHM's noteLamp and clearLamp, ...) and match types, in this service's.
  let named: unknown = raw;
  if (typeof raw === 'object' && raw !== null && !Array.isArray(raw)) {
    const fromHead = headNamesOf(gpt).fromHead(raw as Record<string, unknown>);
    if (typeof fromHead === 'string') return fail(fromHead);
    named = { ...fromHead, ...('matchType' in fromHead ? { matchType: canonicalMatchType(fromHead.matchType) } : {}) };
  }
  const parsed = element.safeParse(named);
  if (!parsed.success) return fail(zodMessage(parsed.error));
  const e = parsed.data;
  const gptName = `${gpt.game} ${gpt.playtype}`;

  if (!gpt.lamps.includes(e.lamp)) return fail(`Invalid lamp '${e.lamp}' for ${gptName}: expected one of ${gpt.lamps.join(', ')}.`);
  if (gpt.percentInput === 'required' && e.percent === undefined) return fail(`percent is required for ${gpt.game}: it carries the music rate.`);
  if (gpt.percentInput === 'forbidden' && e.percent !== undefined) return fail(`percent must not be sent for ${gpt.game}: it is derived from the score.`);

  const judgements = e.judgements ?? {};
  const badJudgement = Object.keys(judgements).find((j) => !gpt.judgements.includes(j));
  if (badJudgement) return fail(`Unknown judgement '${badJudgement}' for ${gptName}: expected ${gpt.judgements.join(', ')}.`);

  if (e.optional && e.hitMeta) return fail("Give 'optional' or its older name 'hitMeta', not both.");
  const optional = gpt.optionalMetrics.safeParse(e.optional ?? e.hitMeta ?? {});
  if (!optional.success) return fail(`Invalid optional metrics: ${zodMessage(optional.error)}.`);
  const scoreMeta = gpt.scoreMeta.safeParse(e.scoreMeta ?? {});
  if (!scoreMeta.success) return fail(`Invalid scoreMeta: ${zodMessage(scoreMeta.error)}.`);

  let timeAchieved: number | null = e.timeAchieved ?? null;
  if (timeAchieved === 0) timeAchieved = null;
  if (timeAchieved !== null) {
    if (timeAchieved < EARLIEST_MS) return fail(`timeAchieved ${timeAchieved} is too small: it must be Unix milliseconds (was it sent in seconds?).`);
    if (timeAchieved > now + FUTURE_TOLERANCE_MS) return fail(`timeAchieved ${timeAchieved} is in the future.`);
  }
  const comment = e.comment ?? null;
  if (comment !== null && (comment.length < 1 || comment.length > 120)) return fail('comment must be 1 to 120 characters, or null.');

  const difficulty = e.difficulty ?? null;
  const badChartName = chartNameProblem(gpt, e.matchType, e.identifier, difficulty);
  if (badChartName) return fail(badChartName);

  return {
    ok: true,
    candidate: {
      index,
      raw,
      matchType: e.matchType,
      identifier: e.identifier,
      difficulty,
      artist: e.artist ?? null,
      input: { score: e.score, lamp: e.lamp, percent: e.percent, judgements, optional: optional.data },
      timeAchieved,
      comment,
      scoreMeta: scoreMeta.data,
    },
  };
}
