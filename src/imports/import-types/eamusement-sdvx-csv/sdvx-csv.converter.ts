import type { ChartInfo } from '../../../game-support/types.js';
import type { ConvertedItem } from '../types.js';
import { HEADER_CELLS, type SdvxCsvRow } from './sdvx-csv.parser.js';

/** The export's difficulty names → this service's. */
export const DIFFICULTIES: Readonly<Record<string, string>> = {
  NOVICE: 'NOV',
  ADVANCED: 'ADV',
  EXHAUST: 'EXH',
  MAXIMUM: 'MXM',
  INFINITE: 'INF',
  GRAVITY: 'GRV',
  HEAVENLY: 'HVN',
  VIVID: 'VVD',
  EXCEED: 'XCD',
};

/** The export's clear ranks → lamps. */
export const LAMPS: Readonly<Record<string, string>> = {
  PLAYED: 'FAILED',
  COMPLETE: 'CLEAR',
  'EXCESSIVE COMPLETE': 'EXCESSIVE CLEAR',
  'MAXXIVE COMPLETE': 'MAXXIVE CLEAR',
  'ULTIMATE CHAIN': 'ULTIMATE CHAIN',
  PERFECT: 'PERFECT ULTIMATE CHAIN',
};

const MAX_SCORE = 10_000_000;

/** A non-negative integer written as optional '-' and digits (so "-0" passes), or undefined. */
function integerCell(cell: string): number | undefined {
  if (!/^-?\d+$/.test(cell)) return undefined;
  const n = Number(cell);
  // `+ 0` turns -0 into 0.
  return Number.isSafeInteger(n) && n >= 0 ? n + 0 : undefined;
}

type Fields = { difficulty: string; lamp: string; score: number; exScore: number };

/** Reads the ten cells after the title, in the reference's order of checks; a string is the problem. */
function readFields(cells: string[]): Fields | string {
  const [difficultyCell, level, lampCell, , scoreCell, exCell] = cells.map((c) => c.trim());
  const difficulty = Object.hasOwn(DIFFICULTIES, difficultyCell) ? DIFFICULTIES[difficultyCell] : undefined;
  if (!difficulty) return `unknown difficulty '${difficultyCell}': expected one of ${Object.keys(DIFFICULTIES).join(', ')}.`;
  if (!/^\d{1,2}$/.test(level)) return `invalid level '${level}': expected a whole number.`;
  const score = integerCell(scoreCell);
  if (score === undefined) return `invalid score '${scoreCell}': expected a non-negative whole number.`;
  if (score > MAX_SCORE) return `score ${score} is greater than 10,000,000.`;
  const exScore = integerCell(exCell);
  if (exScore === undefined) return `invalid EX score '${exCell}': expected a non-negative whole number.`;
  const lamp = Object.hasOwn(LAMPS, lampCell) ? LAMPS[lampCell] : undefined;
  if (!lamp) return `unknown clear rank '${lampCell}': expected one of ${Object.keys(LAMPS).join(', ')}.`;
  return { difficulty, lamp, score, exScore };
}

/**
 * One CSV row → a score element matched by title. The title is the only free-text column and the
 * export quotes nothing, so a row with k cells too many is read with its first k+1 cells joined
 * by commas as the title, provided the ten cells after it are then valid; otherwise only that row
 * is refused. The export has no play times, so timeAchieved is null.
 */
export function convertSdvxCsvRow({ line, cells }: SdvxCsvRow): ConvertedItem {
  const extra = cells.length - HEADER_CELLS;
  const title = cells.slice(0, extra + 1).join(',');
  const fields = readFields(cells.slice(extra + 1));
  if (typeof fields === 'string') {
    const message =
      extra > 0
        ? `Row ${line} has ${cells.length} cells where the header has ${HEADER_CELLS}, and read with the extra commas in its title ('${title}') it is still not valid: ${fields}`
        : `Row ${line}: ${fields}`;
    return { kind: 'error', message };
  }
  if (title === '') return { kind: 'error', message: `Row ${line} has no title.` };
  return {
    kind: 'score',
    element: {
      matchType: 'songTitle',
      identifier: title,
      difficulty: fields.difficulty,
      score: fields.score,
      lamp: fields.lamp,
      judgements: {},
      // The export writes 0 for an EX score it did not record.
      optional: fields.exScore > 0 ? { exScore: fields.exScore } : {},
      timeAchieved: null,
    },
  };
}

/**
 * After chart matching: the row's level (its cell after the difficulty, read as the converter read
 * the row) must be the matched chart's level, exactly as written; otherwise the score is refused
 * (as Tachi: a CSV of another game version, or a chart whose level the seeds changed).
 */
export function checkSdvxCsvLevel({ line, cells }: SdvxCsvRow, chart: ChartInfo): string | undefined {
  const extra = cells.length - HEADER_CELLS;
  const level = cells[extra + 2].trim();
  return level === chart.level ? undefined : `Row ${line}: the CSV says level ${level}, but the matched ${chart.difficulty} chart is level ${chart.level}.`;
}
