import { z } from 'zod';
import { EX_LAMPS } from '../../../game-support/common/ex-score.js';
import { legacyLeggendaria } from '../../../game-support/iidx/legacy-leggendaria.js';
import type { ConvertedItem } from '../types.js';
import { badTime, cgPlayTime, count, readItem, unknownValue } from './cg-common.js';

const DIFFICULTY = /^(SP|DP)([BNHAL])$/;
const DIFFICULTY_LETTERS: Readonly<Record<string, string>> = { N: 'NORMAL', H: 'HYPER', A: 'ANOTHER', L: 'LEGGENDARIA' };

/** CG's IIDX version number → the GPT's version: CG runs HEROIC VERSE to Pinky Crush with Omnimix. */
export function cgIidxVersion(version: number): string | undefined {
  if (version >= 20 && version <= 26) return String(version);
  if (version >= 27 && version <= 32) return `${version}-omni`;
  if (version === 33) return '33';
  return undefined;
}

const schema = z.object({
  internalId: count(),
  difficulty: z.string(),
  version: z.number().int(),
  exScore: count(),
  clearType: z.number().int(),
  perfectCount: count(),
  greatCount: count(),
  // -1 when the game did not record it.
  missCount: z.union([count(), z.literal(-1)]),
  dateTime: z.string(),
});

/**
 * One CG IIDX play → an iidx SP or DP element of its version, matched by in-game id. BEGINNER is not
 * tracked (skipped). The option bit fields (option1/option2: random, gauge, assist) are not decoded: the
 * score keeps no scoreMeta rather than a guessed one.
 */
export function convertCgIidx(raw: unknown): ConvertedItem {
  const read = readItem(schema, raw, 'IIDX');
  if (!read.ok) return read.error;
  const s = read.item;
  const code = DIFFICULTY.exec(s.difficulty);
  if (!code) return unknownValue('difficulty', s.difficulty, 'SP or DP followed by B, N, H, A or L (e.g. SPA)');
  const playtype = code[1] as 'SP' | 'DP';
  if (code[2] === 'B') return { kind: 'skip' };
  const version = cgIidxVersion(s.version);
  if (version === undefined) return unknownValue('version', s.version, '20 (tricoro) to 33 (Sparkle Shower)');
  const lamp = EX_LAMPS[s.clearType] as string | undefined;
  if (lamp === undefined || s.clearType < 0) return unknownValue('clearType', s.clearType, '0 (NO PLAY) to 7 (FULL COMBO)');
  const timeAchieved = cgPlayTime(s.dateTime);
  if (timeAchieved === undefined) return badTime(s.dateTime);
  const legacy = legacyLeggendaria(s.internalId);
  return {
    kind: 'score',
    playtype,
    version,
    element: {
      matchType: 'inGameID',
      identifier: String(legacy ?? s.internalId),
      difficulty: legacy === undefined ? DIFFICULTY_LETTERS[code[2]] : 'LEGGENDARIA',
      score: s.exScore,
      lamp,
      timeAchieved,
      judgements: { pgreat: s.perfectCount, great: s.greatCount },
      optional: { bp: s.missCount === -1 ? null : s.missCount },
    },
  };
}
