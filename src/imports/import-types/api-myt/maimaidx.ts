import { z } from 'zod';
import { MAIMAIDX } from '../../../game-support/maimaidx/index.js';
import type { ConvertedItem } from '../types.js';
import { count, isError, mapEnum, playTime, problem, readItem, SKIP, wireEnum } from './common.js';

export const MAIMAIDX_SINGLE = MAIMAIDX.gpts.Single;

const ITEM = z.looseObject({
  playlog_api_id: z.string(),
  info: z.looseObject({
    music_id: count(),
    level: wireEnum(),
    achievement: count(),
    combo_status: wireEnum(),
    is_clear: z.boolean(),
    user_play_date: z.string(),
  }),
  judge: z.looseObject({
    judge_critical_perfect: count(),
    judge_perfect: count(),
    judge_great: count(),
    judge_good: count(),
    judge_miss: count(),
    max_combo: count(),
    fast_count: count(),
    late_count: count(),
  }),
});

const LEVELS = { BASIC: 'Basic', ADVANCED: 'Advanced', EXPERT: 'Expert', MASTER: 'Master', REMASTER: 'Re:Master', UTAGE: SKIP } as const;
const LAMPS = {
  NONE: 'CLEAR',
  FULL_COMBO: 'FULL COMBO',
  FULL_COMBO_PLUS: 'FULL COMBO+',
  ALL_PERFECT: 'ALL PERFECT',
  ALL_PERFECT_PLUS: 'ALL PERFECT+',
} as const;
/** Music ids from here on are the DX charts of a song. */
const FIRST_DX_MUSIC_ID = 10_000;

/**
 * A maimai DX playlog → a score element: the percent is the achievement / 10,000; a music id of 10,000 or more is a DX
 * chart ("DX " before the difficulty); a play that did not clear is FAILED whatever its combo; Utage is skipped.
 */
export function convertMaimaiDx(raw: unknown): ConvertedItem {
  const read = readItem(ITEM, raw);
  if (!read.ok) return read.error;
  const { info, judge } = read.value;
  const level = mapEnum('level', info.level, 'MAIMAI_LEVEL_', LEVELS);
  if (level === SKIP) return { kind: 'skip' };
  if (isError(level)) return problem(raw, level.error);
  const combo = mapEnum('combo_status', info.combo_status, 'MAIMAI_COMBO_STATUS_', LAMPS);
  if (isError(combo) || combo === SKIP) return problem(raw, isError(combo) ? combo.error : 'combo_status is unusable.');
  const time = playTime(info.user_play_date);
  if (isError(time)) return problem(raw, time.error);
  return {
    kind: 'score',
    element: {
      score: info.achievement / 10_000,
      lamp: info.is_clear ? combo : 'FAILED',
      matchType: 'inGameID',
      identifier: String(info.music_id),
      difficulty: info.music_id >= FIRST_DX_MUSIC_ID ? `DX ${level}` : level,
      timeAchieved: time,
      judgements: {
        pcrit: judge.judge_critical_perfect,
        perfect: judge.judge_perfect,
        great: judge.judge_great,
        good: judge.judge_good,
        miss: judge.judge_miss,
      },
      optional: { fast: judge.fast_count, slow: judge.late_count, maxCombo: judge.max_combo },
    },
  };
}
