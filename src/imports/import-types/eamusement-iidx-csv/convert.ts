import type { ConvertedItem } from '../types.js';
import type { IidxCsvItem } from './parse.js';
import { shown } from './read.js';
import { LAMPS } from './tables.js';

const JST_OFFSET_MS = 9 * 60 * 60 * 1000;
const MAX_BP = 9999;

/** A non-negative integer written as digits (an optional minus sign is read, then refused), or undefined. */
function countOf(cell: string): number | undefined {
  const text = cell.trim();
  if (!/^-?\d+$/.test(text)) return undefined;
  const n = Number(text);
  return Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}

/**
 * Konami's last-played time, `YYYY-MM-DD HH:MM` (seconds optional), in Japan time → Unix
 * milliseconds; null for an empty cell, undefined when unreadable.
 */
export function jstTime(cell: string): number | null | undefined {
  const text = cell.trim();
  if (text === '') return null;
  const m = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})[ T](\d{1,2}):(\d{2})(?::(\d{2}))?$/.exec(text);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = m.slice(1).map((v) => Number(v ?? 0));
  const utc = Date.UTC(year, month - 1, day, hour, minute, second);
  const d = new Date(utc);
  // Date.UTC rolls 2021-02-30 over into March: such a date is no date.
  if (d.getUTCMonth() !== month - 1 || d.getUTCDate() !== day || hour > 23 || minute > 59 || second > 59) return undefined;
  return utc - JST_OFFSET_MS;
}

/** ミスカウント: `---`, nothing or other text is no BP; a number must be a whole count up to 9999. */
function missCountOf(cell: string): { bp: number | null } | { error: string } {
  const text = cell.trim();
  if (!/^[-+]?[\d.]+$/.test(text)) return { bp: null };
  const n = Number(text);
  return /^\d+$/.test(text) && n <= MAX_BP ? { bp: n } : { error: `miss count ${shown(text)} must be a whole number from 0 to ${MAX_BP}.` };
}

/**
 * One difficulty block → a score element matched by title, difficulty and the import's version.
 * Silently skipped: a block with EX score 0 (unplayed, or reset), a chart the song lacks (level
 * empty or 0) and BEGINNER (not a difficulty of this service's iidx). PGREAT × 2 + GREAT must be
 * the EX score, checked here so that an unknown song's bad block is no orphan; the check against
 * the chart (EX score at most notecount × 2) is the shared pipeline's.
 */
export function convertIidxCsvItem(item: IidxCsvItem): ConvertedItem {
  if (item.kind === 'badRow') return { kind: 'error', message: item.message };
  if (item.exScore.trim() === '0') return { kind: 'skip' };
  const level = item.level.trim();
  if (level === '' || level === '0') return { kind: 'skip' };
  if (item.difficulty === 'BEGINNER') return { kind: 'skip' };

  const error = (message: string): ConvertedItem => ({ kind: 'error', message: `Row ${item.line} ${item.difficulty}: ${message}` });
  if (typeof item.title !== 'string') return { kind: 'error', message: item.title.problem };
  const score = countOf(item.exScore);
  if (score === undefined) return error(`EX score ${shown(item.exScore)} is not a non-negative integer.`);
  const pgreat = countOf(item.pgreat);
  if (pgreat === undefined) return error(`PGreat ${shown(item.pgreat)} is not a non-negative integer.`);
  const great = countOf(item.great);
  if (great === undefined) return error(`Great ${shown(item.great)} is not a non-negative integer.`);
  if (pgreat * 2 + great !== score) return error(`PGreat × 2 + Great is ${pgreat * 2 + great}, but the EX score is ${score}: they must be equal.`);
  const clearType = item.clearType.trim();
  const lamp = Object.hasOwn(LAMPS, clearType) ? LAMPS[clearType] : undefined;
  if (lamp === undefined) return error(`unknown clear type ${shown(clearType)}: expected one of ${Object.keys(LAMPS).join(', ')}.`);
  const timeAchieved = jstTime(item.lastPlayed);
  if (timeAchieved === undefined) return error(`Invalid/Unparsable score timestamp ${shown(item.lastPlayed)}: expected YYYY-MM-DD HH:MM (Japan time).`);
  const missCount = missCountOf(item.missCount);
  if ('error' in missCount) return error(missCount.error);

  return {
    kind: 'score',
    element: {
      score,
      lamp,
      matchType: 'songTitle',
      identifier: item.title,
      difficulty: item.difficulty,
      timeAchieved,
      judgements: { pgreat, great },
      optional: missCount.bp === null ? {} : { bp: missCount.bp },
      ...(item.artist === null ? {} : { artist: item.artist }),
    },
  };
}
