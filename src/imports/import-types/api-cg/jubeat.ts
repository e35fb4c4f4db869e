import { z } from 'zod';
import type { ConvertedItem } from '../types.js';
import { badTime, cgPlayTime, count, readItem, unknownValue } from './cg-common.js';

const DIFFICULTIES = ['BSC', 'ADV', 'EXT'] as const;
/** CG's jubeat version number → the game's version (9 and 10 are both festo). Charts are matched without it, as Tachi does. */
export const CG_JUBEAT_VERSIONS: Readonly<Record<number, string>> = {
  1: 'jubeat',
  2: 'ripples',
  3: 'knit',
  4: 'copious',
  5: 'saucer',
  6: 'prop',
  7: 'qubell',
  8: 'clan',
  9: 'festo',
  10: 'festo',
  11: 'ave',
};

const schema = z.object({
  internalId: count(),
  difficulty: z.number().int(),
  version: z.number().int(),
  clearFlag: z.number().int(),
  score: z.number().int().min(0).max(1_000_000),
  hardMode: z.boolean(),
  perfectCount: count(),
  greatCount: count(),
  goodCount: count(),
  poorCount: count(),
  missCount: count(),
  musicRate: z.number().int().min(0).max(1200),
  dateTime: z.string(),
});

/** clearFlag is a bit field: the highest bit set is the lamp (bit 3 EXCELLENT, 2 FULL COMBO, 1 CLEAR, 0 FAILED). */
export function jubeatLampOf(clearFlag: number): string | undefined {
  if (clearFlag & 0b1000) return 'EXCELLENT';
  if (clearFlag & 0b0100) return 'FULL COMBO';
  if (clearFlag & 0b0010) return 'CLEAR';
  if (clearFlag & 0b0001) return 'FAILED';
  return undefined;
}

/**
 * One CG jubeat play → a jubeat Single element: difficulty 0–2 with hardMode gives BSC/ADV/EXT or
 * HARD BSC/ADV/EXT; musicRate is in tenths (955 → 95.5), sent as the element's percent.
 */
export function convertCgJubeat(raw: unknown): ConvertedItem {
  const read = readItem(schema, raw, 'jubeat');
  if (!read.ok) return read.error;
  const s = read.item;
  const base = DIFFICULTIES[s.difficulty] as string | undefined;
  if (base === undefined) return unknownValue('difficulty', s.difficulty, '0 (BSC), 1 (ADV) or 2 (EXT)');
  if (CG_JUBEAT_VERSIONS[s.version] === undefined) return unknownValue('version', s.version, '1 (jubeat) to 11 (Ave.)');
  const lamp = s.clearFlag < 0 ? undefined : jubeatLampOf(s.clearFlag);
  if (lamp === undefined) return unknownValue('clearFlag', s.clearFlag, 'a bit field with one of bits 0 (FAILED) to 3 (EXCELLENT) set');
  const timeAchieved = cgPlayTime(s.dateTime);
  if (timeAchieved === undefined) return badTime(s.dateTime);
  return {
    kind: 'score',
    version: null,
    element: {
      matchType: 'inGameID',
      identifier: String(s.internalId),
      difficulty: s.hardMode ? `HARD ${base}` : base,
      score: s.score,
      percent: s.musicRate / 10,
      lamp,
      timeAchieved,
      judgements: { perfect: s.perfectCount, great: s.greatCount, good: s.goodCount, poor: s.poorCount, miss: s.missCount },
    },
  };
}
