import type { ConvertedItem } from '../types.js';
import type { S3Song } from './s3.parser.js';
import { DIFFS, FIVE_KEY, versionOfStyles } from './s3.tables.js';

/** S3's clear types → lamps; `cleared` depends on the gauge (mods.hardeasy). */
export function lampOf(cleartype: S3Song['cleartype'], hardeasy: 'H' | 'E' | undefined): string {
  switch (cleartype) {
    case 'played':
      return 'FAILED';
    case 'cleared':
      return hardeasy === 'H' ? 'HARD CLEAR' : hardeasy === 'E' ? 'EASY CLEAR' : 'CLEAR';
    default:
      return 'FULL COMBO';
  }
}

const NAIVE_TIME = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?$/;

/** An S3 date ('2010-10-19 04:54:22', no zone, read as UTC): ms, null when empty, undefined when unreadable. */
export function timeOf(date: string): number | null | undefined {
  if (date === '') return null;
  const m = NAIVE_TIME.exec(date);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = m.slice(1).map((part) => Number(part ?? 0));
  const ms = Date.UTC(year, month - 1, day, hour, minute, second);
  const back = new Date(ms);
  // Date.UTC rolls 2010-02-30 over into March: such a date is refused instead.
  if (back.getUTCMonth() !== month - 1 || back.getUTCDate() !== day || hour > 23 || minute > 59 || second > 59) return undefined;
  return ms;
}

/**
 * One S3 score → a score element of its own playtype and version (its last style), matched by
 * title (case-insensitively, as S3 titles are often cased differently). 5KEY scores are skipped.
 */
export function convertS3Song(song: S3Song): ConvertedItem {
  if (song.diff === FIVE_KEY) return { kind: 'skip' };
  const { playtype, difficulty } = DIFFS[song.diff];
  const { style, version } = versionOfStyles(song.styles);
  if (!version) return { kind: 'error', message: `'${song.songname}': unknown style '${style}' (the last of its styles).` };
  if (song.songname === '') return { kind: 'error', message: 'A score has an empty songname.' };
  const timeAchieved = timeOf(song.date);
  if (timeAchieved === undefined) return { kind: 'error', message: `'${song.songname}': Invalid/Unparsable score timestamp '${song.date}'.` };
  const breakdown = song.scorebreakdown;
  return {
    kind: 'score',
    playtype,
    version,
    element: {
      matchType: 'songTitle',
      identifier: song.songname,
      difficulty,
      score: song.exscore,
      lamp: lampOf(song.cleartype, song.mods === '' ? undefined : song.mods.hardeasy),
      judgements: breakdown ? { pgreat: breakdown.justgreats, great: breakdown.greats, good: breakdown.good, bad: breakdown.bad, poor: breakdown.poor } : {},
      optional: {},
      timeAchieved,
      comment: song.comment ? song.comment : null,
    },
  };
}
