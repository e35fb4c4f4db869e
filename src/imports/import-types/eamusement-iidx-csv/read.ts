import { ImportRejectedError } from '../../import-errors.js';
import type { ImportRequest } from '../types.js';

export type IidxPlaytype = 'SP' | 'DP';

/** What an IIDX CSV import keeps: the playtype and the CSV's cells, row by row. */
export interface IidxCsvInput {
  playtype: IidxPlaytype;
  /** The header's cell count, which says the layout (its names are never read). */
  headerCells: number;
  /** Every later line of more than one cell, with its line number (the header is line 1). */
  rows: { line: number; cells: string[] }[];
}

const MAX_HEADER_CHARS = 1000;
const MAX_HEADER_CELLS = 50;

/** A user's text echoed in a message: control characters replaced (NUL cannot be stored), at most 80 characters. */
export function shown(value: string): string {
  const chars = Array.from(value.replace(/\p{Cc}/gu, '\uFFFD'));
  return `'${chars.slice(0, 80).join('')}${chars.length > 80 ? '…' : ''}'`;
}

/**
 * The file's lines, decoded one at a time from the buffer (UTF-8 never has a 0x0A byte inside a
 * character, so splitting bytes is safe), so no decoded copy of the whole file is ever held.
 * A trailing CR is dropped; the first line loses its byte order mark.
 */
function* linesOf(file: Buffer, maxFirstLineBytes: number): Generator<string> {
  let start = 0;
  while (start <= file.length) {
    const newline = file.indexOf(0x0a, start);
    const end = newline === -1 ? file.length : newline;
    if (start === 0 && end > maxFirstLineBytes)
      throw new ImportRejectedError(`Invalid CSV provided: its header line is longer than ${MAX_HEADER_CHARS} characters.`);
    const stop = end > start && file[end - 1] === 0x0d ? end - 1 : end;
    const line = file.toString('utf8', start, stop);
    yield start === 0 ? line.replace(/^\uFEFF/, '') : line;
    start = end + 1;
  }
}

/**
 * Whether the file name says the other playtype: 'sp' or 'dp' standing apart from letters (as in
 * e-amusement's `..._dp_score.csv`), so that a name such as display.csv is no false alarm.
 */
function otherPlaytypeInName(filename: string, playtype: IidxPlaytype): boolean {
  const other = playtype === 'SP' ? 'dp' : 'sp';
  return new RegExp(`(?<![a-z])${other}(?![a-z])`).test(filename.toLowerCase());
}

/**
 * Reads the upload: the `playtype` form field (SP or DP), the file name safety check (skipped
 * when `assertPlaytypeCorrect` is sent), the header, and each row's cells. Konami's CSV quotes
 * nothing, so a cell is whatever lies between two commas.
 */
export function readIidxCsv({ file, filename, fields }: ImportRequest): IidxCsvInput {
  if (!file) throw new ImportRejectedError("Expected the CSV as a file in the multipart field 'scoreData'.");
  const playtype = fields.playtype;
  if (playtype !== 'SP' && playtype !== 'DP') {
    throw new ImportRejectedError(
      playtype === undefined ? 'The form field playtype is required: SP or DP.' : `Invalid playtype of ${shown(String(playtype))} given: expected SP or DP.`,
    );
  }
  const asserted = typeof fields.assertPlaytypeCorrect === 'string' && fields.assertPlaytypeCorrect !== '';
  if (!asserted && filename && otherPlaytypeInName(filename, playtype)) {
    throw new ImportRejectedError(
      `Safety Triggered: the file name ${shown(filename)} says ${playtype === 'SP' ? 'DP' : 'SP'}, but playtype is ${playtype}. ` +
        `If ${playtype} is right, send the form field assertPlaytypeCorrect=true as well.`,
    );
  }

  // 4 bytes per character at most (a BOM aside), so longer lines are refused before decoding.
  const lines = linesOf(file, MAX_HEADER_CHARS * 4 + 3);
  const header = lines.next().value ?? '';
  if (header.trim() === '') throw new ImportRejectedError('Invalid CSV provided: the file is empty, or its first line (the header) is.');
  if (header.length > MAX_HEADER_CHARS) throw new ImportRejectedError(`Invalid CSV provided: its header line is longer than ${MAX_HEADER_CHARS} characters.`);
  const headerCells = header.split(',').length;
  if (headerCells > MAX_HEADER_CELLS) throw new ImportRejectedError(`Invalid CSV provided: its header has more than ${MAX_HEADER_CELLS} cells.`);

  // A row needs no more cells than twice the header's to be read; the limit keeps a line of commas from making millions.
  const cellLimit = headerCells * 2 + 1;
  const rows: IidxCsvInput['rows'] = [];
  let line = 1;
  for (const text of lines) {
    line += 1;
    const cells = text.split(',', cellLimit);
    if (cells.length > 1) rows.push({ line, cells });
  }
  return { playtype, headerCells, rows };
}
