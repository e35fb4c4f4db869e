import { HttpStatus } from '@nestjs/common';
import { WACCA } from '../../../game-support/wacca/index.js';
import type { ChartInfo } from '../../../game-support/types.js';
import { ImportRejectedError } from '../../import-errors.js';
import type { ConvertedItem, ParsedImport } from '../types.js';
import { columnsOf, tableOf } from './csv-file.js';

export const SERVICE = 'mypage-scraper';
export const WACCA_SINGLE = WACCA.gpts.Single;

/** List position → difficulty. */
export const DIFFICULTIES = ['NORMAL', 'HARD', 'EXPERT', 'INFERNO'] as const;

/** `music_achieves` codes → lamps. */
export const LAMPS: Readonly<Record<string, string>> = { '0': 'FAILED', '1': 'CLEAR', '2': 'MISSLESS', '3': 'FULL COMBO', '4': 'ALL MARVELOUS' };

const REQUIRED = ['music_id', 'music_title', 'music_levels', 'music_scores', 'music_achieves'] as const;

/** One played chart of a row: its difficulty, level and the score and achievement code as written. */
export interface RecordItem {
  /** The row's position after the header, from 1. */
  row: number;
  title: string;
  artist: string | null;
  difficulty: (typeof DIFFICULTIES)[number];
  level: string;
  score: string;
  achieve: string | null;
}

/**
 * A bracketed list cell such as `[3,9+,12,0]`: its 3 or 4 elements. Any other cell reads as no
 * list, and its row gives no score (as the scraper's Tachi importer does).
 */
export function listCell(cell: string): string[] {
  const m = /^\[(.*)\]$/s.exec(cell.trim());
  if (!m) return [];
  const parts = m[1].split(',').map((p) => p.trim());
  return parts.length >= 3 && parts.length <= 4 && parts.every((p) => p.length > 0) ? parts : [];
}

const isZero = (value: string) => /^-?0+$/.test(value);

/**
 * One item per chart a row says was played: a level of "0" (no such chart) and a score of 0
 * (unplayed) give none.
 */
export function parseRecords(input: unknown, maxScores: number): ParsedImport<RecordItem> {
  const table = tableOf(input);
  const at = columnsOf(table, REQUIRED);
  const artistAt = table.columns.indexOf('music_artist');
  const items: RecordItem[] = [];
  table.rows.forEach((cells, r) => {
    const levels = listCell(cells[at.music_levels]);
    const scores = listCell(cells[at.music_scores]);
    const achieves = listCell(cells[at.music_achieves]);
    if (scores.length === 0 || achieves.length === 0) return;
    levels.forEach((level, i) => {
      const score = scores.at(i);
      if (level === '0' || score === undefined || isZero(score)) return;
      const artist = artistAt < 0 ? '' : cells[artistAt];
      items.push({
        row: r + 1,
        title: cells[at.music_title],
        artist: artist === '' ? null : artist,
        difficulty: DIFFICULTIES[i],
        level,
        score,
        achieve: achieves.at(i) ?? null,
      });
    });
  });
  if (items.length > maxScores) {
    throw new ImportRejectedError(
      `This file has ${items.length} played charts; the limit is ${maxScores} per import. Split it into several files.`,
      HttpStatus.PAYLOAD_TOO_LARGE,
    );
  }
  return { gpt: WACCA_SINGLE, context: { service: SERVICE, version: null }, classes: {}, items };
}

/** A row's chart → a score element matched by title (the artist tells apart songs sharing one). Bests carry no time. */
export function convertRecord(item: RecordItem): ConvertedItem {
  const where = `row ${item.row} ('${item.title}' ${item.difficulty})`;
  if (!/^\d+$/.test(item.score) || !Number.isSafeInteger(Number(item.score))) {
    return { kind: 'error', message: `${where}: the score '${item.score}' is not a non-negative integer.` };
  }
  const lamp = item.achieve !== null && Object.hasOwn(LAMPS, item.achieve) ? LAMPS[item.achieve] : undefined;
  if (lamp === undefined) {
    return { kind: 'error', message: `${where}: invalid achievement code '${item.achieve ?? '(none)'}': expected 0 to 4.` };
  }
  return {
    kind: 'score',
    element: {
      score: Number(item.score),
      lamp,
      matchType: 'songTitle',
      identifier: item.title,
      artist: item.artist,
      difficulty: item.difficulty,
      timeAchieved: null,
      judgements: {},
    },
  };
}

/** After chart matching: the row's level for this difficulty (e.g. `9+`) must be the matched chart's level, else the score is refused (as Tachi). */
export function checkRecordLevel(item: RecordItem, chart: ChartInfo): string | undefined {
  return item.level === chart.level
    ? undefined
    : `row ${item.row} ('${item.title}' ${item.difficulty}): the file says level ${item.level}, but the chart is level ${chart.level}.`;
}
