const DELIMITERS = new Set([',', '"', '\n', '\r']);

/** A CSV syntax error; its message says where. */
export class CsvSyntaxError extends Error {}

/** A CSV file read as a header and rows of cells, every row as long as the header. */
export interface CsvTable {
  columns: string[];
  rows: string[][];
}

/**
 * Reads RFC 4180 CSV (quoted cells may hold commas, doubled quotes and line breaks; lines end in
 * CRLF or LF). The first record is the header; blank lines are skipped. A stray quote, an
 * unclosed quote or a record whose cell count differs from the header's throws CsvSyntaxError.
 * One pass over the text, no intermediate copies of it.
 */
export function parseCsv(text: string): CsvTable {
  const records: string[][] = [];
  let record: string[] = [];
  let cell = '';
  let line = 1;
  let i = 0;
  const n = text.length;
  // Whether the current record has any content yet (a blank line is skipped, not a record of one empty cell).
  let started = false;

  const endRecord = () => {
    record.push(cell);
    if (started) records.push(record);
    record = [];
    cell = '';
    started = false;
  };

  while (i < n) {
    const c = text[i];
    if (c === '"') {
      if (cell.length > 0) throw new CsvSyntaxError(`a quote inside an unquoted cell on line ${line}.`);
      started = true;
      const opened = line;
      i += 1;
      for (;;) {
        const close = text.indexOf('"', i);
        if (close < 0) throw new CsvSyntaxError(`the quoted cell opened on line ${opened} is never closed.`);
        for (let k = text.indexOf('\n', i); k >= 0 && k < close; k = text.indexOf('\n', k + 1)) line += 1;
        cell += text.slice(i, close);
        if (text[close + 1] === '"') {
          cell += '"';
          i = close + 2;
          continue;
        }
        i = close + 1;
        break;
      }
      const next = text[i];
      if (i < n && next !== ',' && next !== '\n' && next !== '\r') throw new CsvSyntaxError(`text after the closing quote of a cell on line ${line}.`);
      continue;
    }
    if (c === ',') {
      started = true;
      record.push(cell);
      cell = '';
      i += 1;
      continue;
    }
    if (c === '\r' && text[i + 1] === '\n') {
      i += 1;
      continue;
    }
    if (c === '\n' || c === '\r') {
      endRecord();
      line += 1;
      i += 1;
      continue;
    }
    started = true;
    let j = i + 1;
    while (j < n && !DELIMITERS.has(text[j])) j += 1;
    cell += text.slice(i, j);
    i = j;
  }
  endRecord();

  const [columns, ...rows] = records;
  if (!columns) return { columns: [], rows: [] };
  const duplicate = columns.find((name, k) => columns.indexOf(name) !== k);
  if (duplicate !== undefined) throw new CsvSyntaxError(`the header names the column '${duplicate}' twice.`);
  rows.forEach((row, k) => {
    if (row.length !== columns.length) throw new CsvSyntaxError(`record ${k + 1} after the header has ${row.length} cells; the header has ${columns.length}.`);
  });
  return { columns, rows };
}
