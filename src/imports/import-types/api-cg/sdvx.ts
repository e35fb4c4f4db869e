import { z } from 'zod';
import { EAMUSEMENT_SDVX_DIFFICULTIES, EAMUSEMENT_SDVX_LAMPS, EAMUSEMENT_SDVX_VERSIONS } from '../../../game-support/sdvx/e-amusement.js';
import type { ConvertedItem } from '../types.js';
import { badTime, cgPlayTime, count, readItem, unknownValue } from './cg-common.js';

const schema = z.object({
  internalId: count(),
  difficulty: z.number().int(),
  version: z.number().int(),
  score: z.number().int().min(0).max(10_000_000),
  exScore: count(),
  clearType: z.number().int(),
  maxChain: count(),
  critical: count(),
  near: count(),
  error: count(),
  dateTime: z.string(),
});

/** One CG SDVX play → an sdvx Single element of its version, matched by in-game id. An exScore of 0 is "not recorded". */
export function convertCgSdvx(raw: unknown): ConvertedItem {
  const read = readItem(schema, raw, 'SDVX');
  if (!read.ok) return read.error;
  const s = read.item;
  const difficulty = EAMUSEMENT_SDVX_DIFFICULTIES[s.difficulty] as string | undefined;
  if (difficulty === undefined) return unknownValue('difficulty', s.difficulty, '0 (NOV) to 5 (ULT)');
  const version = EAMUSEMENT_SDVX_VERSIONS[s.version];
  if (version === undefined) return unknownValue('version', s.version, '1 (BOOTH) to 6 (EXCEED GEAR)');
  const lamp = EAMUSEMENT_SDVX_LAMPS[s.clearType];
  if (lamp === undefined) return unknownValue('clearType', s.clearType, '1 (FAILED) to 6 (MAXXIVE CLEAR)');
  const timeAchieved = cgPlayTime(s.dateTime);
  if (timeAchieved === undefined) return badTime(s.dateTime);
  return {
    kind: 'score',
    version,
    element: {
      matchType: 'sdvxInGameID',
      identifier: String(s.internalId),
      difficulty,
      score: s.score,
      lamp,
      timeAchieved,
      judgements: { critical: s.critical, near: s.near, miss: s.error },
      optional: { maxCombo: s.maxChain, exScore: s.exScore === 0 ? null : s.exScore },
    },
  };
}
