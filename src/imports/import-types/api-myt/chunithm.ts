import { z } from 'zod';
import { CHUNITHM } from '../../../game-support/chunithm/index.js';
import type { ConvertedItem } from '../types.js';
import { count, isError, mapEnum, playTime, problem, readItem, SKIP, wireEnum } from './common.js';

export const CHUNITHM_SINGLE = CHUNITHM.gpts.Single;

const ITEM = z.looseObject({
  playlog_api_id: z.string(),
  info: z.looseObject({
    music_id: count(),
    level: wireEnum(),
    score: count(),
    combo_status: wireEnum(),
    clear_status: wireEnum(),
    user_play_date: z.string(),
  }),
  judge: z.looseObject({
    judge_heaven: count(),
    judge_critical: count(),
    judge_justice: count(),
    judge_attack: count(),
    judge_miss: count(),
    max_combo: count(),
  }),
});

const LEVELS = { BASIC: 'BASIC', ADVANCED: 'ADVANCED', EXPERT: 'EXPERT', MASTER: 'MASTER', ULTIMA: 'ULTIMA', WORLDS_END: SKIP } as const;
/** MYT's ABSOLUTE is the BRAVE gauge and its ABSOLUTE_PLUS the ABSOLUTE gauge (tachi-common's clearLamp names). */
const CLEAR_LAMPS = { FAILED: 'FAILED', CLEAR: 'CLEAR', HARD: 'HARD', ABSOLUTE: 'BRAVE', ABSOLUTE_PLUS: 'ABSOLUTE', CATASTROPHY: 'CATASTROPHY' } as const;
const NOTE_LAMPS = { NONE: 'NONE', FULL_COMBO: 'FULL COMBO', ALL_JUSTICE: 'ALL JUSTICE', ALL_JUSTICE_CRITICAL: 'ALL JUSTICE CRITICAL' } as const;

/**
 * A CHUNITHM playlog → a score element in tachi-common's names: noteLamp (the combo) and clearLamp (the gauge), from
 * which the game's single lamp is derived (game-support/chunithm); JUSTICE CRITICAL counts heaven and critical.
 * WORLD'S END is skipped.
 */
export function convertChunithm(raw: unknown): ConvertedItem {
  const read = readItem(ITEM, raw);
  if (!read.ok) return read.error;
  const { info, judge } = read.value;
  const difficulty = mapEnum('level', info.level, 'CHUNITHM_LEVEL_', LEVELS);
  if (difficulty === SKIP) return { kind: 'skip' };
  if (isError(difficulty)) return problem(raw, difficulty.error);
  const clearLamp = mapEnum('clear_status', info.clear_status, 'CHUNITHM_CLEAR_STATUS_', CLEAR_LAMPS);
  if (isError(clearLamp) || clearLamp === SKIP) return problem(raw, isError(clearLamp) ? clearLamp.error : 'clear_status is unusable.');
  const noteLamp = mapEnum('combo_status', info.combo_status, 'CHUNITHM_COMBO_STATUS_', NOTE_LAMPS);
  if (isError(noteLamp) || noteLamp === SKIP) return problem(raw, isError(noteLamp) ? noteLamp.error : 'combo_status is unusable.');
  const time = playTime(info.user_play_date);
  if (isError(time)) return problem(raw, time.error);
  return {
    kind: 'score',
    element: {
      score: info.score,
      noteLamp,
      clearLamp,
      matchType: 'inGameID',
      identifier: String(info.music_id),
      difficulty,
      timeAchieved: time,
      judgements: { jcrit: judge.judge_heaven + judge.judge_critical, justice: judge.judge_justice, attack: judge.judge_attack, miss: judge.judge_miss },
      optional: { maxCombo: judge.max_combo },
    },
  };
}
