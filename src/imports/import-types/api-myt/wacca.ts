import { z } from 'zod';
import { WACCA } from '../../../game-support/wacca/index.js';
import type { ConvertedItem } from '../types.js';
import { count, isError, mapEnum, playTime, problem, readItem, SKIP, wireEnum } from './common.js';

export const WACCA_SINGLE = WACCA.gpts.Single;

const ITEM = z.looseObject({
  playlog_api_id: z.string(),
  info: z.looseObject({
    music_id: count(),
    music_difficulty: wireEnum(),
    score: count(),
    judge: z.looseObject({ marvelous: count(), great: count(), good: count(), miss: count() }),
    clear_status: z.looseObject({ is_clear: z.boolean(), is_missless: z.boolean(), is_full_combo: z.boolean(), is_all_marvelous: z.boolean() }),
    combo: count(),
    fast: count(),
    late: count(),
    user_play_date: z.string(),
  }),
});

const DIFFICULTIES = { NORMAL: 'NORMAL', HARD: 'HARD', EXPERT: 'EXPERT', INFERNO: 'INFERNO' } as const;

/** The lamp of WACCA's clear flags: the best that is set, else FAILED. */
function lampOf(flags: { is_clear: boolean; is_missless: boolean; is_full_combo: boolean; is_all_marvelous: boolean }): string {
  if (flags.is_all_marvelous) return 'ALL MARVELOUS';
  if (flags.is_full_combo) return 'FULL COMBO';
  if (flags.is_missless) return 'MISSLESS';
  return flags.is_clear ? 'CLEAR' : 'FAILED';
}

/** A WACCA playlog → a score element: the lamp from the clear flags, slow from `late`, maxCombo from `combo`. */
export function convertWacca(raw: unknown): ConvertedItem {
  const read = readItem(ITEM, raw);
  if (!read.ok) return read.error;
  const { info } = read.value;
  const difficulty = mapEnum('music_difficulty', info.music_difficulty, 'WACCA_MUSIC_DIFFICULTY_', DIFFICULTIES);
  if (isError(difficulty) || difficulty === SKIP) return problem(raw, isError(difficulty) ? difficulty.error : 'music_difficulty is unusable.');
  const time = playTime(info.user_play_date);
  if (isError(time)) return problem(raw, time.error);
  return {
    kind: 'score',
    element: {
      score: info.score,
      lamp: lampOf(info.clear_status),
      matchType: 'inGameID',
      identifier: String(info.music_id),
      difficulty,
      timeAchieved: time,
      judgements: { marvelous: info.judge.marvelous, great: info.judge.great, good: info.judge.good, miss: info.judge.miss },
      optional: { fast: info.fast, slow: info.late, maxCombo: info.combo },
    },
  };
}
