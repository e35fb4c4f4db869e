import { z } from 'zod';
import { ONGEKI } from '../../../game-support/ongeki/index.js';
import type { ConvertedItem } from '../types.js';
import { count, isError, mapEnum, playTime, problem, readItem, SKIP, wireEnum } from './common.js';

export const ONGEKI_SINGLE = ONGEKI.gpts.Single;

const ITEM = z.looseObject({
  playlog_api_id: z.string(),
  info: z.looseObject({
    music_id: count(),
    level: wireEnum(),
    tech_score: count(),
    platinum_score: count(),
    combo_status: wireEnum(),
    clear_status: wireEnum(),
    is_full_bell: z.boolean(),
    user_play_date: z.string(),
  }),
  judge: z.looseObject({
    judge_critical_break: count(),
    judge_break: count(),
    judge_hit: count(),
    judge_miss: count(),
    max_combo: count(),
    bell_count: count(),
    total_bell_count: count(),
    damage_count: count(),
  }),
});

const LEVELS = { BASIC: 'BASIC', ADVANCED: 'ADVANCED', EXPERT: 'EXPERT', MASTER: 'MASTER', LUNATIC: 'LUNATIC' } as const;
const COMBOS = { NONE: null, FULL_COMBO: 'FULL COMBO', ALL_BREAK: 'ALL BREAK' } as const;
/** A play without a full combo: cleared (or cleared by over-damage) or lost. */
const CLEARS = { FAILED: 'LOSS', CLEARED: 'CLEAR', OVER_DAMAGE: 'CLEAR' } as const;
const MAX_SCORE = 1_010_000;

/**
 * An O.N.G.E.K.I. playlog → a score element in tachi-common's names: noteLamp (ALL BREAK+ for a technical score of
 * 1,010,000, else the combo, else CLEAR or LOSS), bellLamp (FULL BELL or NONE) and platinumScore; damage and bells
 * as optional metrics.
 */
export function convertOngeki(raw: unknown): ConvertedItem {
  const read = readItem(ITEM, raw);
  if (!read.ok) return read.error;
  const { info, judge } = read.value;
  const difficulty = mapEnum('level', info.level, 'ONGEKI_LEVEL_', LEVELS);
  if (isError(difficulty) || difficulty === SKIP) return problem(raw, isError(difficulty) ? difficulty.error : 'level is unusable.');
  const combo = mapEnum('combo_status', info.combo_status, 'ONGEKI_COMBO_STATUS_', COMBOS);
  if (isError(combo) || combo === SKIP) return problem(raw, isError(combo) ? combo.error : 'combo_status is unusable.');
  const clear = mapEnum('clear_status', info.clear_status, 'ONGEKI_CLEAR_STATUS_', CLEARS);
  if (isError(clear) || clear === SKIP) return problem(raw, isError(clear) ? clear.error : 'clear_status is unusable.');
  const time = playTime(info.user_play_date);
  if (isError(time)) return problem(raw, time.error);
  return {
    kind: 'score',
    element: {
      score: info.tech_score,
      noteLamp: info.tech_score === MAX_SCORE ? 'ALL BREAK+' : (combo ?? clear),
      bellLamp: info.is_full_bell ? 'FULL BELL' : 'NONE',
      platinumScore: info.platinum_score,
      matchType: 'inGameID',
      identifier: String(info.music_id),
      difficulty,
      timeAchieved: time,
      judgements: { cbreak: judge.judge_critical_break, break: judge.judge_break, hit: judge.judge_hit, miss: judge.judge_miss },
      optional: { damage: judge.damage_count, bellCount: judge.bell_count, totalBellCount: judge.total_bell_count, maxCombo: judge.max_combo },
    },
  };
}
