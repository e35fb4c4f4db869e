import { z } from 'zod';
import { ANY_INF } from '../../../game-support/sdvx/match-types.js';
import type { ConvertedItem } from '../types.js';

// What kshook-sv6c and kshook-sv6c-static share: the SOUND VOLTEX Konaste hook's headers, enums and answers.

/** The game version of every kshook score. */
export const KSHOOK_VERSION = 'konaste';

export const KSHOOK_LAMPS: Readonly<Record<string, string>> = {
  CLEAR_PLAYED: 'FAILED',
  CLEAR_EFFECTIVE: 'CLEAR',
  CLEAR_EXCESSIVE: 'EXCESSIVE CLEAR',
  CLEAR_MAXXIVE: 'MAXXIVE CLEAR',
  CLEAR_ULTIMATE_CHAIN: 'ULTIMATE CHAIN',
  CLEAR_PERFECT: 'PERFECT ULTIMATE CHAIN',
};

export const KSHOOK_DIFFICULTIES = {
  DIFFICULTY_NOVICE: 'NOV',
  DIFFICULTY_ADVANCED: 'ADV',
  DIFFICULTY_EXHAUST: 'EXH',
  DIFFICULTY_INFINITE: ANY_INF,
  DIFFICULTY_MAXIMUM: 'MXM',
} as const;

const GRADES = ['GRADE_D', 'GRADE_C', 'GRADE_B', 'GRADE_A', 'GRADE_A_PLUS', 'GRADE_AA', 'GRADE_AA_PLUS', 'GRADE_AAA', 'GRADE_AAA_PLUS', 'GRADE_S'] as const;

const count = () => z.number().int().nonnegative();

/** The fields both kshook bodies carry for a score. `clear` is any string: an unknown one rejects only that score. */
export const kshookScoreFields = {
  score: z.number().int().min(0).max(10_000_000),
  ex_score: count(),
  clear: z.string(),
  difficulty: z.enum(Object.keys(KSHOOK_DIFFICULTIES) as [keyof typeof KSHOOK_DIFFICULTIES]),
  grade: z.enum(GRADES),
  max_chain: count(),
  music_id: count(),
};

type KshookScore = { [K in keyof typeof kshookScoreFields]: z.infer<(typeof kshookScoreFields)[K]> };

/** One kshook score as a batch-manual element; `extra` adds what only one of the two routes sends. */
export function kshookElement(
  s: KshookScore,
  timeAchieved: number | null,
  extra: { judgements?: Record<string, number>; optional?: Record<string, number> } = {},
): ConvertedItem {
  const lamp = Object.hasOwn(KSHOOK_LAMPS, s.clear) ? KSHOOK_LAMPS[s.clear] : undefined;
  if (!lamp) return { kind: 'error', message: `Unknown clear '${s.clear}': expected one of ${Object.keys(KSHOOK_LAMPS).join(', ')}.` };
  return {
    kind: 'score',
    element: {
      matchType: 'sdvxInGameID',
      identifier: String(s.music_id),
      difficulty: KSHOOK_DIFFICULTIES[s.difficulty],
      score: s.score,
      lamp,
      timeAchieved,
      ...(extra.judgements ? { judgements: extra.judgements } : {}),
      optional: { maxCombo: s.max_chain, exScore: s.ex_score, ...extra.optional },
    },
  };
}

export function zodMessage(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.length ? i.path.join('.') : 'body'}: ${i.message}`).join('; ');
}
