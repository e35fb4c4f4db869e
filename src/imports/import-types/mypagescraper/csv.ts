const DELIMITERS = new Set([',', '"', '\n', '\r']);

/** A CSV syntax error; its message says where. */
export class CsvSyntaxError extends Error {}

/** A CSV file read as a header and rows of cells, every row as long as the header. */
export interface CsvTable {
  columns: string[];
  rows: string[][];
}

/**
 * Reads RFC 4180 CSV as a stream: text is pushed in pieces (cut anywhere, even inside a quoted cell
 * or between CR and LF), so a file is never held whole as one string. Quoted cells may hold commas,
 * doubled quotes and line breaks; lines end in CRLF, LF or CR. The first record is the header;
 * blank lines are skipped. A stray quote, an unclosed quote, a column named twice or a record whose
 * cell count differs from the header's throws CsvSyntaxError, as soon as it is read.
 */
export class CsvReader {
  private columns: string[] | null = null;
  private readonly rows: string[][] = [];
  private record: string[] = [];
  private cell = '';
  /** Whether the current record has any content yet (a blank line is skipped, not a record of one empty cell). */
  private started = false;
  /** field: outside quotes; quoted: inside a quoted cell; quote: just after a quote inside one; closed: after a closing quote. */
  private state: 'field' | 'quoted' | 'quote' | 'closed' = 'field';
  private line = 1;
  private openedOn = 0;
  /** A CR ended the last record: an LF right after it belongs to it. */
  private afterCR = false;

  push(text: string): void {
    const n = text.length;
    let i = 0;
    while (i < n) {
      if (this.afterCR) {
        this.afterCR = false;
        if (text[i] === '\n') {
          i += 1;
          continue;
        }
      }
      if (this.state === 'quoted') {
        const close = text.indexOf('"', i);
        const end = close < 0 ? n : close;
        for (let k = text.indexOf('\n', i); k >= 0 && k < end; k = text.indexOf('\n', k + 1)) this.line += 1;
        this.cell += text.slice(i, end);
        if (close < 0) return;
        this.state = 'quote';
        i = close + 1;
        continue;
      }
      const c = text[i];
      if (this.state === 'quote') {
        // A doubled quote is a quote in the cell; anything else follows the closing quote.
        if (c === '"') {
          this.cell += '"';
          this.state = 'quoted';
          i += 1;
          continue;
        }
        this.state = 'closed';
      }
      if (this.state === 'closed') {
        if (c !== ',' && c !== '\n' && c !== '\r') throw new CsvSyntaxError(`text after the closing quote of a cell on line ${this.line}.`);
        this.state = 'field';
      }
      if (c === '"') {
        if (this.cell.length > 0) throw new CsvSyntaxError(`a quote inside an unquoted cell on line ${this.line}.`);
        this.started = true;
        this.openedOn = this.line;
        this.state = 'quoted';
        i += 1;
      } else if (c === ',') {
        this.started = true;
        this.record.push(this.cell);
        this.cell = '';
        i += 1;
      } else if (c === '\n' || c === '\r') {
        this.endRecord();
        this.line += 1;
        this.afterCR = c === '\r';
        i += 1;
      } else {
        this.started = true;
        let j = i + 1;
        while (j < n && !DELIMITERS.has(text[j])) j += 1;
        this.cell += text.slice(i, j);
        i = j;
      }
    }
  }

  /** The table, once every piece is pushed. */
  end(): CsvTable {
    if (this.state === 'quoted') throw new CsvSyntaxError(`the quoted cell opened on line ${this.openedOn} is never closed.`);
    this.endRecord();
    return { columns: this.columns ?? [], rows: this.rows };
  }

  private endRecord(): void {
    this.record.push(this.cell);
    const record = this.record;
    const started = this.started;
    this.record = [];
    this.cell = '';
    this.started = false;
    this.state = 'field';
    if (!started) return;
    if (this.columns === null) {
      const duplicate = record.find((name, k) => record.indexOf(name) !== k);
      if (duplicate !== undefined) throw new CsvSyntaxError(`the header names the column '${duplicate}' twice.`);
      this.columns = record;
      return;
    }
    if (record.length !== this.columns.length)
      throw new CsvSyntaxError(`record ${this.rows.length + 1} after the header has ${record.length} cells; the header has ${this.columns.length}.`);
    this.rows.push(record);
  }
}

/** Reads a whole CSV text (see CsvReader). */
export function parseCsv(text: string): CsvTable {
  const reader = new CsvReader();
  reader.push(text);
  return reader.end();
}
