import type { ConvertedItem } from '../types.js';
import { PLAYTYPES, type MerScore } from './mer.parser.js';

/** MER's clear types → lamps: the same names, but for the full combo. */
export function lampOf(clearType: MerScore['clear_type']): string {
  return clearType === 'FULLCOMBO CLEAR' ? 'FULL COMBO' : clearType;
}

/** MER's update_time is Japan time (UTC+9) with no zone written: ms, or undefined for an impossible date. */
export function timeOf(updateTime: string): number | undefined {
  const [date, time] = updateTime.split(' ');
  const ms = Date.parse(`${date}T${time}+09:00`);
  // Date.parse accepts 2022-02-30 and rolls it over; such a date is refused instead.
  return Number.isNaN(ms) || new Date(ms + 9 * 3_600_000).toISOString().slice(0, 19) !== `${date}T${time}` ? undefined : ms;
}

/**
 * One MER score → a score element of its own playtype, matched by in-game id. BEGINNER charts are
 * not tracked for iidx.
 */
export function convertMerScore(score: MerScore): ConvertedItem {
  if (score.diff_type === 'BEGINNER') return { kind: 'error', message: `music_id ${score.music_id}: BEGINNER charts are not tracked for iidx.` };
  const timeAchieved = timeOf(score.update_time);
  if (timeAchieved === undefined) return { kind: 'error', message: `music_id ${score.music_id}: update_time '${score.update_time}' is not a real date.` };
  return {
    kind: 'score',
    playtype: PLAYTYPES[score.play_type],
    element: {
      matchType: 'inGameID',
      identifier: String(score.music_id),
      difficulty: score.diff_type,
      score: score.score,
      lamp: lampOf(score.clear_type),
      judgements: {},
      // -1 is MER's "no miss count recorded".
      optional: score.miss_count === -1 ? {} : { bp: score.miss_count },
      timeAchieved,
    },
  };
}
