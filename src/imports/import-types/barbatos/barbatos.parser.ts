import { z } from 'zod';
import { SDVX } from '../../../game-support/sdvx/index.js';
import { ANY_INF } from '../../../game-support/sdvx/match-types.js';
import { ImportRejectedError } from '../../import-errors.js';
import type { ConvertedItem, ParsedImport } from '../types.js';

/** Barbatos's difficulty index. Tachi's first schema refused 0 although it maps NOV; it is accepted here. */
export const BARBATOS_DIFFICULTIES = ['NOV', 'ADV', 'EXH', ANY_INF, 'MXM'] as const;

/** Barbatos's clear_type, from 1. */
export const BARBATOS_LAMPS: Record<number, string> = {
  1: 'FAILED',
  2: 'CLEAR',
  3: 'EXCESSIVE CLEAR',
  4: 'ULTIMATE CHAIN',
  5: 'PERFECT ULTIMATE CHAIN',
};

const count = () => z.number().int().nonnegative();

const common = {
  difficulty: z.number().int().min(0).max(4),
  level: z.number().int().min(1).max(20),
  song_id: count(),
  score: z.number().int().min(0).max(10_000_000),
  max_chain: count(),
  percent: z.number().min(0).max(100),
  clear_type: z.number().int().min(1).max(5),
  gauge_type: z.number().int().min(0).max(3),
};

/** VIVID WAVE (SDVX5) payload. Both payloads are closed: Barbatos sends exactly these keys. */
const sdvx5 = z.strictObject({
  ...common,
  critical: count(),
  near_total: count(),
  near_fast: count(),
  near_slow: count(),
  error: count(),
  did_fail: z.boolean(),
  is_skill_analyzer: z.boolean(),
});

/** EXCEED GEAR (SDVX6) payload, told apart from SDVX5 by its ex_score key. */
const sdvx6 = z.strictObject({
  ...common,
  ex_score: z.number().int(),
  grade: z.unknown(),
  early_crit: count(),
  s_crit: count(),
  late_crit: count(),
  early_near: count(),
  late_near: count(),
  early_error: count(),
  late_error: count(),
  chip_s_crit: count(),
  chip_crit: count(),
  chip_near: count(),
  chip_error: count(),
  long_crit: count(),
  long_error: count(),
  vol_crit: count(),
  vol_error: count(),
});

/** What read() keeps: the body and when it arrived, which is when the song was played. */
export interface BarbatosInput {
  timeReceived: number;
  body: unknown;
}

function zodMessage(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.length ? i.path.join('.') : 'body'}: ${i.message}`).join('; ');
}

type Payload = { kind: 'sdvx5'; score: z.infer<typeof sdvx5> } | { kind: 'sdvx6'; score: z.infer<typeof sdvx6> };

export type BarbatosItem = Payload & { timeReceived: number };

function readPayload(body: unknown): Payload {
  const reject = (what: string, error: z.ZodError) => new ImportRejectedError(`Invalid Barbatos ${what} score: ${zodMessage(error)}.`);
  if (typeof body === 'object' && body !== null && !Array.isArray(body) && 'ex_score' in body) {
    const parsed = sdvx6.safeParse(body);
    if (!parsed.success) throw reject('SDVX6 (EXCEED GEAR)', parsed.error);
    return { kind: 'sdvx6', score: parsed.data };
  }
  const parsed = sdvx5.safeParse(body);
  if (!parsed.success) throw reject('SDVX5 (VIVID WAVE)', parsed.error);
  return { kind: 'sdvx5', score: parsed.data };
}

export function parseBarbatos(input: BarbatosInput): ParsedImport<BarbatosItem> {
  const payload = readPayload(input.body);
  const version = payload.kind === 'sdvx6' ? 'exceed' : 'vivid';
  return {
    gpt: SDVX.gpts.Single,
    context: { service: `Barbatos (${version})`, version },
    classes: {},
    items: [{ ...payload, timeReceived: input.timeReceived }],
  };
}

export function convertBarbatos(item: BarbatosItem): ConvertedItem {
  const s = item.score;
  const base = {
    matchType: 'sdvxInGameID',
    identifier: String(s.song_id),
    difficulty: BARBATOS_DIFFICULTIES[s.difficulty],
    score: s.score,
    lamp: BARBATOS_LAMPS[s.clear_type],
    timeAchieved: item.timeReceived,
  };
  if (item.kind === 'sdvx5') {
    const v = item.score;
    return {
      kind: 'score',
      element: {
        ...base,
        judgements: { critical: v.critical, near: v.near_total, miss: v.error },
        optional: { fast: v.near_fast, slow: v.near_slow, maxCombo: v.max_chain, gauge: v.percent, exScore: null },
        scoreMeta: { inSkillAnalyser: v.is_skill_analyzer },
      },
    };
  }
  const e = item.score;
  return {
    kind: 'score',
    element: {
      ...base,
      // Only chip notes can be judged near, so chip_near is the whole near count.
      judgements: { critical: e.early_crit + e.s_crit + e.late_crit, near: e.chip_near, miss: e.early_error + e.late_error },
      optional: { fast: e.early_near, slow: e.late_near, maxCombo: e.max_chain, gauge: e.percent, exScore: e.ex_score },
      scoreMeta: { inSkillAnalyser: null },
    },
  };
}
