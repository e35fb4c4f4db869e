import { z } from 'zod';
import { EX_LAMPS } from '../../../game-support/common/ex-score.js';
import type { ConvertedItem } from '../types.js';
import { badTime, cgPlayTime, count, readItem, unknownValue } from './cg-common.js';

const DIFFICULTY = /^(SP|DP)([BNHAL])$/;
const DIFFICULTY_LETTERS: Readonly<Record<string, string>> = { N: 'NORMAL', H: 'HYPER', A: 'ANOTHER', L: 'LEGGENDARIA' };

/**
 * Songs whose LEGGENDARIA was a song of its own (a "†" entry) before HEROIC VERSE made it a
 * difficulty: CG still names old plays by the † entry's music id. Old id → the base song's id; the
 * chart is then that song's LEGGENDARIA.
 */
export const LEGACY_LEGGENDARIA_IDS: Readonly<Record<number, number>> = {
  1100: 1017,
  4100: 4005,
  4101: 4001,
  5100: 5014,
  11100: 11032,
  11101: 11012,
  12100: 12002,
  13100: 13010,
  14100: 14009,
  14101: 14046,
  15101: 15023,
  15102: 15007,
  15104: 15004,
  15105: 15045,
  16101: 16050,
  16102: 16045,
  16103: 16031,
  16104: 16015,
  17101: 17060,
  18100: 18025,
  18103: 18011,
  19100: 19063,
  20103: 20100,
  20104: 20039,
  20105: 20068,
  20106: 20024,
  20107: 20019,
  21100: 21012,
  21101: 21059,
  21102: 21069,
  21103: 21073,
  21104: 21052,
  21105: 21048,
  21106: 21050,
  21107: 21029,
  22101: 22008,
  22102: 22013,
  22103: 22024,
  22104: 22027,
  22105: 22031,
  22106: 22089,
  22107: 22006,
  23100: 23054,
  23101: 23031,
  24100: 24041,
  24101: 24011,
};

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
  const legacy = Object.hasOwn(LEGACY_LEGGENDARIA_IDS, s.internalId) ? LEGACY_LEGGENDARIA_IDS[s.internalId] : undefined;
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
