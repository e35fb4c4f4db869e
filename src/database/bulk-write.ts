import { getTableColumns, getTableName, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { from as copyFrom } from 'pg-copy-streams';
import { pgClientOf, type Queryable, type Tx } from './database.js';

/**
 * Bulk writes that send a whole batch as one JSON parameter, expanded server-side with
 * jsonb_populate_recordset. One small statement per batch instead of one parameter per value:
 * much faster than a multi-row VALUES list for large loads, and it handles array and jsonb columns.
 */
const BATCH_ROWS = 5000;

/**
 * Rows as JSON records keyed by column name. Only columns some row gives are written, so a column
 * no row mentions keeps its database default (jsonb_populate_recordset would make it NULL).
 * Rows of one batch should give the same columns.
 */
function toColumnRecords<T extends PgTable>(table: T, rows: readonly T['$inferInsert'][]): { columns: string[]; records: Record<string, unknown>[] } {
  const props = Object.entries(getTableColumns(table));
  const present = new Set<string>();
  const records = rows.map((row) => {
    const out: Record<string, unknown> = {};
    for (const [prop, column] of props) {
      const value = (row as Record<string, unknown>)[prop];
      if (value !== undefined) {
        out[column.name] = value;
        present.add(column.name);
      }
    }
    return out;
  });
  return { columns: props.map(([, c]) => c.name).filter((c) => present.has(c)), records };
}

/** One INSERT of these rows (at most BATCH_ROWS), to run alone or as a part of a statement (writeTogether). */
function insertStatement<T extends PgTable>(table: T, rows: readonly T['$inferInsert'][], conflict: string | ((columns: string[]) => string)): SQL {
  const name = getTableName(table);
  const { columns, records } = toColumnRecords(table, rows);
  const columnList = sql.raw(columns.map((c) => `"${c}"`).join(', '));
  return sql`INSERT INTO ${sql.identifier(name)} (${columnList}) SELECT ${columnList} FROM jsonb_populate_recordset(NULL::${sql.identifier(name)}, ${JSON.stringify(records)}::jsonb) ${sql.raw(typeof conflict === 'string' ? conflict : conflict(columns))}`;
}

async function write<T extends PgTable>(
  q: Queryable,
  table: T,
  rows: readonly T['$inferInsert'][],
  conflict: string | ((columns: string[]) => string),
  onBatch: (n: number) => void,
) {
  for (let i = 0; i < rows.length; i += BATCH_ROWS) {
    const batch = rows.slice(i, i + BATCH_ROWS);
    await q.execute(insertStatement(table, batch, conflict));
    onBatch(batch.length);
  }
}

/** How upsertRows treats a row whose key exists. */
export interface UpsertOptions {
  /**
   * Leave a stored row alone when the new one equals it in every written column (no new row
   * version, no WAL): for rows recomputed wholesale of which most come out the same. Every written
   * column's type must have an equality operator (not json).
   */
  onlyChanged?: boolean;
}

const upsertConflict =
  (table: string, keyColumns: readonly string[], options: UpsertOptions = {}) =>
  (columns: string[]) => {
    const others = columns.filter((c) => !keyColumns.includes(c));
    const set = `ON CONFLICT (${keyColumns.map((c) => `"${c}"`).join(', ')}) DO UPDATE SET ${others.map((c) => `"${c}" = excluded."${c}"`).join(', ')}`;
    if (!options.onlyChanged || others.length === 0) return set;
    return `${set} WHERE (${others.map((c) => `"${table}"."${c}"`).join(', ')}) IS DISTINCT FROM (${others.map((c) => `excluded."${c}"`).join(', ')})`;
  };

/**
 * Writes of one transaction that do not read each other's rows, as one statement (one round trip
 * instead of one each): each part a data-modifying CTE `name AS (INSERT | UPDATE | DELETE …)`.
 * They all see the statement's snapshot, and constraints and statement triggers run once at its
 * end, so no two parts may change the same row. Parts whose rows exceed one batch (fitsOneWrite)
 * must be written alone.
 */
export async function writeTogether(q: Queryable, parts: readonly SQL[]): Promise<void> {
  if (parts.length) await q.execute(sql`WITH ${sql.join([...parts], sql`, `)} SELECT 1`);
}

/** Rows that one part of writeTogether can take. */
export function fitsOneWrite(rows: readonly unknown[]): boolean {
  return rows.length <= BATCH_ROWS;
}

/** The statement insertRows runs for rows that fit one batch, as a writeTogether part's body. */
export function insertRowsStatement<T extends PgTable>(table: T, rows: readonly T['$inferInsert'][]): SQL {
  return insertStatement(table, rows, '');
}

/** The statement upsertRows runs for rows that fit one batch, as a writeTogether part's body. */
export function upsertRowsStatement<T extends PgTable>(
  table: T,
  keyColumns: readonly string[],
  rows: readonly T['$inferInsert'][],
  options: UpsertOptions = {},
): SQL {
  return insertStatement(table, rows, upsertConflict(getTableName(table), keyColumns, options));
}

/** Inserts rows; every column of the table must be given or have a default the row omits. */
export function insertRows<T extends PgTable>(q: Queryable, table: T, rows: readonly T['$inferInsert'][], onBatch: (n: number) => void = () => undefined) {
  return write(q, table, rows, '', onBatch);
}

/** Inserts rows, skipping those that conflict with an existing key. */
export function insertRowsIgnoringConflicts<T extends PgTable>(
  q: Queryable,
  table: T,
  rows: readonly T['$inferInsert'][],
  onBatch: (n: number) => void = () => undefined,
) {
  return write(q, table, rows, 'ON CONFLICT DO NOTHING', onBatch);
}

/** Inserts rows, replacing every other column of rows whose key columns already exist. */
export function upsertRows<T extends PgTable>(
  q: Queryable,
  table: T,
  keyColumns: readonly string[],
  rows: readonly T['$inferInsert'][],
  onBatch: (n: number) => void = () => undefined,
  options: UpsertOptions = {},
) {
  return write(q, table, rows, upsertConflict(getTableName(table), keyColumns, options), onBatch);
}

/** `column = ANY($1)` with the whole list as one array parameter (an IN list of thousands of parameters parses slowly). */
export function anyOf(column: AnyPgColumn | SQL, values: readonly (string | number)[]): SQL {
  return sql`${column} = ANY(${sql.param([...values])})`;
}

/** `column && $1` for array columns, with the list as one array parameter. */
export function overlaps(column: AnyPgColumn, values: readonly (string | number)[]): SQL {
  return sql`${column} && ${sql.param([...values])}`;
}

/** One CSV field: NULL unquoted and empty, everything else quoted (objects as JSON). */
function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  return `"${text.replaceAll('"', '""')}"`;
}

/**
 * Fewer rows go in one INSERT: COPY costs two round trips (the statement, then the data) and a
 * stream, which a hook's one score does not repay.
 */
const COPY_MIN_ROWS = 64;

/**
 * Inserts many rows as fast as the database allows: on a PostgreSQL server, COPY … FROM STDIN
 * (CSV) through the transaction's own connection (from COPY_MIN_ROWS rows); on the embedded engine, which has no stream
 * transport, the JSON-batch insert. Same rows, same columns, same all-or-nothing transaction.
 */
/** Whether copyRows would COPY these rows (else they fit a writeTogether part as one INSERT). */
export function copies(tx: Tx, rows: readonly unknown[]): boolean {
  return pgClientOf(tx) !== undefined && rows.length >= COPY_MIN_ROWS;
}

export async function copyRows<T extends PgTable>(tx: Tx, table: T, rows: readonly T['$inferInsert'][]): Promise<void> {
  const client = pgClientOf(tx);
  if (!client || !copies(tx, rows)) return insertRows(tx, table, rows);
  const { columns, records } = toColumnRecords(table, rows);
  const statement = `COPY "${getTableName(table)}" (${columns.map((c) => `"${c}"`).join(', ')}) FROM STDIN WITH (FORMAT csv)`;
  const lines = function* () {
    const CHUNK = 1000;
    for (let i = 0; i < records.length; i += CHUNK) {
      yield records
        .slice(i, i + CHUNK)
        .map((r) => `${columns.map((c) => csvField(r[c])).join(',')}\n`)
        .join('');
    }
  };
  await pipeline(Readable.from(lines()), client.query(copyFrom(statement)));
}
