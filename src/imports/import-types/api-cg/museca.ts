import { z } from 'zod';
import type { ConvertedItem } from '../types.js';
import { badTime, cgPlayTime, count, readItem, unknownValue } from './cg-common.js';

const DIFFICULTIES = ['Green', 'Yellow', 'Red'] as const;
/** CG serves MÚSECA 1+1/2 Rev. B only, as version 2. */
const VERSIONS: Readonly<Record<number, string>> = { 2: '1.5-b' };

const schema = z.object({
  internalId: count(),
  difficulty: z.number().int(),
  version: z.number().int(),
  score: z.number().int().min(0).max(1_000_000),
  maxChain: count(),
  critical: count(),
  near: count(),
  error: count(),
  dateTime: z.string(),
});

/** The lamp, which CG does not send usably: 1,000,000 is PERFECT CONNECT ALL, no error CONNECT ALL, 800,000 or more CLEAR. */
export function musecaLampOf(score: number, error: number): string {
  if (score === 1_000_000) return 'PERFECT CONNECT ALL';
  if (error === 0) return 'CONNECT ALL';
  if (score >= 800_000) return 'CLEAR';
  return 'FAILED';
}

/** One CG MÚSECA play → a museca Single element of version 1.5-b. */
export function convertCgMuseca(raw: unknown): ConvertedItem {
  const read = readItem(schema, raw, 'MÚSECA');
  if (!read.ok) return read.error;
  const s = read.item;
  const difficulty = DIFFICULTIES[s.difficulty] as string | undefined;
  if (difficulty === undefined) return unknownValue('difficulty', s.difficulty, '0 (Green), 1 (Yellow) or 2 (Red)');
  const version = VERSIONS[s.version];
  if (version === undefined) return unknownValue('version', s.version, '2 (1 + 1/2 Rev. B)');
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
      lamp: musecaLampOf(s.score, s.error),
      timeAchieved,
      judgements: { critical: s.critical, near: s.near, miss: s.error },
      optional: { maxCombo: s.maxChain },
    },
  };
}
