import { HttpStatus } from '@nestjs/common';
import { SDVX } from '../../../game-support/sdvx/index.js';
import { ImportRejectedError } from '../../import-errors.js';
import type { ParsedImport } from '../types.js';

/** The export's columns: title, difficulty, level, clear rank, grade, score, EX score, and four counters. */
export const HEADER_CELLS = 11;
const MAX_HEADER_LENGTH = 1000;
const MAX_HEADER_CELLS = 50;

/** One data line of the CSV, split on every comma (Konami's export quotes nothing). */
export interface SdvxCsvRow {
  /** The line's number in the file, the header being line 1. */
  line: number;
  cells: string[];
}

/**
 * Checks an e-amusement SOUND VOLTEX CSV as a whole: a header of exactly 11 cells (only the count
 * is read, so any header language works) and no data line shorter than it. Lines of one cell
 * (blank lines) are skipped. Lines with more cells are left to the converter, which reads the
 * extra commas as part of the title when it can.
 */
export function parseSdvxCsv(input: unknown, maxScores: number): ParsedImport<SdvxCsvRow> {
  if (typeof input !== 'string') throw new ImportRejectedError('An e-amusement SDVX CSV import is kept as the text of its file.');
  const text = input.replace(/^\uFEFF/, '');
  const rows: SdvxCsvRow[] = [];
  let headerCells = 0;
  let line = 0;
  // Walks the text line by line rather than splitting it, so no second copy of the file is held.
  for (let start = 0; start <= text.length;) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    const content = text.slice(start, end).replace(/\r$/, '');
    start = end + 1;
    line += 1;
    if (line === 1) {
      headerCells = checkHeader(content);
      continue;
    }
    const cells = content.split(',');
    if (cells.length === 1) continue;
    if (cells.length < headerCells)
      throw new ImportRejectedError(`Row ${line} has ${cells.length} cells, fewer than the header's ${headerCells}: is this an e-amusement SDVX CSV export?`);
    rows.push({ line, cells });
    if (rows.length > maxScores)
      throw new ImportRejectedError(
        `This CSV has more than ${maxScores} rows; the limit is ${maxScores} scores per import. Split it into several files.`,
        HttpStatus.PAYLOAD_TOO_LARGE,
      );
  }
  return { gpt: SDVX.gpts.Single, context: { service: 'e-amusement', version: null }, classes: {}, items: rows };
}

function checkHeader(header: string): number {
  if (header.trim() === '') throw new ImportRejectedError('Invalid CSV provided: the header line is empty.');
  if (header.length > MAX_HEADER_LENGTH) throw new ImportRejectedError(`Invalid CSV provided: the header line is longer than ${MAX_HEADER_LENGTH} characters.`);
  const cells = header.split(',').length;
  if (cells > MAX_HEADER_CELLS) throw new ImportRejectedError(`Invalid CSV provided: the header has more than ${MAX_HEADER_CELLS} cells.`);
  if (cells !== HEADER_CELLS)
    throw new ImportRejectedError(
      `Invalid CSV provided. CSV does not have the correct number of headers: an e-amusement SDVX export has ${HEADER_CELLS}, this one ${cells}.`,
    );
  return cells;
}
