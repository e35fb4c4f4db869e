import { StringDecoder } from 'node:string_decoder';
import { z } from 'zod';
import { ImportRejectedError } from '../../import-errors.js';
import type { ImportRequest } from '../types.js';
import { CsvReader, CsvSyntaxError, type CsvTable } from './csv.js';

/** How much of the file is decoded at a time. */
const CHUNK_BYTES = 64 * 1024;

/**
 * The file's table, read as a stream: the upload is decoded a chunk at a time (a character cut
 * between two chunks is completed by the decoder) and each chunk parsed at once, so the file is
 * never decoded whole into one string beside its buffer.
 */
export function readCsvBuffer(file: Buffer, chunkBytes = CHUNK_BYTES): CsvTable {
  const reader = new CsvReader();
  const decoder = new StringDecoder('utf8');
  let first = true;
  for (let at = 0; at < file.length; at += chunkBytes) {
    let text = decoder.write(file.subarray(at, at + chunkBytes));
    // Excel and Windows editors often save UTF-8 with a byte order mark.
    if (first && text.length > 0) {
      text = text.replace(/^\uFEFF/, '');
      first = false;
    }
    reader.push(text);
  }
  reader.push(decoder.end());
  return reader.end();
}

/** WaccaMyPageScraper's CSV exports, uploaded as the `scoreData` file: the table is the input the import keeps. */
export function readCsvFile({ file }: ImportRequest): CsvTable {
  if (!file) throw new ImportRejectedError("Expected the CSV file in the multipart field 'scoreData'.");
  let table: CsvTable;
  try {
    table = readCsvBuffer(file);
  } catch (err) {
    if (err instanceof CsvSyntaxError) throw new ImportRejectedError(`Failed to parse CSV: ${err.message}`);
    throw err;
  }
  if (table.columns.length === 0) throw new ImportRejectedError('The CSV file is empty: it has no header row.');
  return table;
}

const storedTable = z.object({ columns: z.array(z.string()), rows: z.array(z.array(z.string())) });

/** The kept table, checked again (a queued import is parsed from what was stored). */
export function tableOf(input: unknown): CsvTable {
  const table = storedTable.safeParse(input);
  if (!table.success || table.data.rows.some((r) => r.length !== table.data.columns.length)) {
    throw new ImportRejectedError('The stored CSV table is malformed.');
  }
  return table.data;
}

/** Column positions by name; a missing one rejects the import, naming every one missing. */
export function columnsOf<const Names extends readonly string[]>(table: CsvTable, names: Names): Record<Names[number], number> {
  const missing = names.filter((name) => !table.columns.includes(name));
  if (missing.length) {
    throw new ImportRejectedError(
      `Malformed CSV, invalid column(s): missing ${missing.join(', ')}. The header has: ${table.columns.join(', ').slice(0, 500) || '(nothing)'}.`,
    );
  }
  return Object.fromEntries(names.map((name) => [name, table.columns.indexOf(name)])) as Record<Names[number], number>;
}
