import { z } from 'zod';
import { CLEAR_MEDALS, lampOfMedal } from '../../../game-support/popn/head-names.js';
import type { ConvertedItem } from '../types.js';
import { badTime, cgPlayTime, count, readItem, unknownValue } from './cg-common.js';

/** CG's pop'n difficulty index; 4 and 5 are battle mode, which is not tracked. */
export const CG_POPN_DIFFICULTIES = ['Easy', 'Normal', 'Hyper', 'EX'] as const;
const BATTLE_DIFFICULTIES = [4, 5];
/** CG's pop'n version number → the GPT's version. */
export const CG_POPN_VERSIONS: Readonly<Record<number, string>> = { 25: 'peace', 26: 'kaimei', 27: 'unilab' };

const schema = z.object({
  internalId: count(),
  difficulty: z.number().int(),
  version: z.number().int(),
  clearFlag: z.number().int(),
  // A battle play's score can pass 100,000; it is skipped, so the bound is checked after the difficulty.
  score: count(),
  coolCount: count(),
  greatCount: count(),
  goodCount: count(),
  badCount: count(),
  dateTime: z.string(),
});

/**
 * One CG pop'n play → a popn 9B element of its version: clearFlag 1–11 is the clear medal (failedCircle …
 * perfect), which gives the lamp. Battle mode plays are skipped.
 */
export function convertCgPopn(raw: unknown): ConvertedItem {
  const read = readItem(schema, raw, "pop'n");
  if (!read.ok) return read.error;
  const s = read.item;
  if (BATTLE_DIFFICULTIES.includes(s.difficulty)) return { kind: 'skip' };
  const difficulty = CG_POPN_DIFFICULTIES[s.difficulty] as string | undefined;
  if (difficulty === undefined) return unknownValue('difficulty', s.difficulty, '0 (Easy) to 3 (EX), or 4 and 5 (battle)');
  if (s.score > 100_000) return { kind: 'error', message: `Invalid score ${s.score}: a pop'n score is at most 100,000.` };
  const version = CG_POPN_VERSIONS[s.version];
  if (version === undefined) return unknownValue('version', s.version, '25 (peace), 26 (Kaimei Riddles) or 27 (UniLab)');
  const clearMedal = CLEAR_MEDALS[s.clearFlag - 1] as string | undefined;
  if (clearMedal === undefined || s.clearFlag < 1) return unknownValue('clearFlag', s.clearFlag, '1 (failedCircle) to 11 (perfect)');
  const timeAchieved = cgPlayTime(s.dateTime);
  if (timeAchieved === undefined) return badTime(s.dateTime);
  return {
    kind: 'score',
    version,
    element: {
      matchType: 'inGameID',
      identifier: String(s.internalId),
      difficulty,
      score: s.score,
      lamp: lampOfMedal(clearMedal),
      timeAchieved,
      judgements: { cool: s.coolCount, great: s.greatCount, good: s.goodCount, bad: s.badCount },
      optional: { clearMedal },
    },
  };
}
