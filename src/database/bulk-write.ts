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

async function write<T extends PgTable>(
  q: Queryable,
  table: T,
  rows: readonly T['$inferInsert'][],
  conflict: string | ((columns: string[]) => string),
  onBatch: (n: number) => void,
) {
  const name = getTableName(table);
  for (let i = 0; i < rows.length; i += BATCH_ROWS) {
    const batch = rows.slice(i, i + BATCH_ROWS);
    const { columns, records } = toColumnRecords(table, batch);
    const columnList = sql.raw(columns.map((c) => `"${c}"`).join(', '));
    await q.execute(
      sql`INSERT INTO ${sql.identifier(name)} (${columnList}) SELECT ${columnList} FROM jsonb_populate_recordset(NULL::${sql.identifier(name)}, ${JSON.stringify(records)}::jsonb) ${sql.raw(typeof conflict === 'string' ? conflict : conflict(columns))}`,
    );
    onBatch(batch.length);
  }
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
) {
  return write(
    q,
    table,
    rows,
    (columns) => {
      const others = columns.filter((c) => !keyColumns.includes(c));
      return `ON CONFLICT (${keyColumns.map((c) => `"${c}"`).join(', ')}) DO UPDATE SET ${others.map((c) => `"${c}" = excluded."${c}"`).join(', ')}`;
    },
    onBatch,
  );
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
 * Inserts many rows as fast as the database allows: on a PostgreSQL server, COPY … FROM STDIN
 * (CSV) through the transaction's own connection; on the embedded engine, which has no stream
 * transport, the JSON-batch insert. Same rows, same columns, same all-or-nothing transaction.
 */
export async function copyRows<T extends PgTable>(tx: Tx, table: T, rows: readonly T['$inferInsert'][]): Promise<void> {
  const client = pgClientOf(tx);
  if (!client || rows.length === 0) return insertRows(tx, table, rows);
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
