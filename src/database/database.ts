import { Column, sql, type SQL } from 'drizzle-orm';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import { PgDialect, type PgDatabase, type PgQueryResultHKT, type PgTransaction } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { PROJECT_ROOT } from '../common/project-root.js';
import { acquireDataDirLock } from './data-dir-lock.js';
import { PgliteThread } from './pglite-thread.js';
import { survivesLostConnections } from './lost-connections.js';
import { PreparingClient } from './prepared-client.js';
import { ReplicaSet, RoutingPool } from './replicas.js';
import * as schema from './schema.js';

export type Schema = typeof schema;
/** The query API shared by both drivers: every repository is written once against it. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** Anything that can run queries: the database or an open transaction. */
export type Queryable = Db | Tx;

export const MIGRATIONS_FOLDER = path.join(PROJECT_ROOT, 'drizzle');

/** Identifies this service's advisory locks (migrations, per-user locks, schedules). */
export const ADVISORY_LOCK_NAMESPACE = 0x5c07e;

/** Rows of a raw SQL query, whichever driver ran it (both results carry `rows`). */
export async function queryRows<T>(q: Queryable, query: SQL): Promise<T[]> {
  const result = (await q.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/**
 * The node-postgres connection a transaction runs on (PostgreSQL server only), for COPY. Drizzle's
 * node-postgres transaction keeps it as its session's client.
 */
export function pgClientOf(tx: Tx): pg.PoolClient | undefined {
  const client = (tx as unknown as { session?: { client?: unknown } }).session?.client;
  return client instanceof pg.Client ? (client as pg.PoolClient) : undefined;
}

export interface DatabaseOptions {
  /** A PostgreSQL server. When absent the embedded PGlite is used. */
  url?: string;
  poolSize?: number;
  /** Directory of the embedded database; absent means in memory. */
  dataDir?: string;
  /** A PGlite data directory dump to start from (tests clone a migrated template this way). */
  loadDataDir?: Blob;
  /** Append every statement (SQL and parameters, one JSON line each) to this file, for query-plan checks. */
  sqlLogFile?: string;
  /** Streaming replicas of the server at `url`, for the reads that may use one (replicas.ts). */
  replicaUrls?: readonly string[];
  /** A replica further behind the primary than this is skipped. */
  replicaMaxLagMs?: number;
}

/**
 * A read written in SQL, for the hottest read paths: no query building and no ORM mapping per call.
 * On a server it is a named statement, parsed and planned once per connection. Its columns are
 * aliased to the row's field names, and cast so that the driver gives them their JS type (bigint
 * unix ms as float8). `R` is the row it gives.
 */
export interface ReadStatement<R> {
  readonly name: string;
  readonly text: string;
  /** Type only: the row. */
  readonly row?: R;
}

const dialect = new PgDialect();

/**
 * Declares a ReadStatement from SQL written with Drizzle's template (tables and columns by their
 * schema objects); parameters are written `$1`, `$2`… in the text. Names must be unique: on a
 * server, a connection keeps one plan per name.
 */
export function readStatement<R>(name: string, query: SQL): ReadStatement<R> {
  const { sql: text, params } = dialect.sqlToQuery(query);
  if (params.length > 0) throw new Error(`The statement ${name} embeds values: write its parameters as $1, $2…`);
  return { name, text };
}

/**
 * A select list of columns aliased to the row's field names: `col AS "field"`. Unix ms columns
 * (bigint in number mode) are cast to float8, which the drivers give as a number, as Drizzle maps
 * them; SQL expressions must be cast by the caller.
 */
export function aliasedColumns(columns: Record<string, Column | SQL | SQL.Aliased>): SQL {
  return sql.join(
    Object.entries(columns).map(([field, c]) => {
      const value = c instanceof Column && c.columnType === 'PgBigInt53' ? sql`${c}::float8` : sql`${c}`;
      return sql`${value} AS ${sql.identifier(field)}`;
    }),
    sql`, `,
  );
}

/** A Drizzle logger that appends each statement to a file as a JSON line. */
function fileLogger(file: string) {
  return { logQuery: (query: string, params: unknown[]) => fs.appendFileSync(file, `${JSON.stringify({ query, params })}\n`) };
}

export class Database {
  private readonly catalogListeners = new Set<() => void>();
  /** Transactions committed through transaction() by this process (EmbeddedStatistics reads it). */
  private committed = 0;

  private constructor(
    readonly kind: 'pglite' | 'postgres',
    readonly db: Db,
    private readonly runMigrations: () => Promise<void>,
    private readonly onClose: () => Promise<void>,
    /** The embedded engine's thread (backups and test templates dump its data directory). */
    readonly embedded?: PgliteThread,
    /**
     * This process holds the embedded database's data directory lock: no other process can use
     * it while this one runs (an in-memory PGlite, as tests use, is not exclusive: several apps
     * of one test may share it).
     */
    readonly exclusive = false,
    /** The server's connection string (listen() opens its own connection). */
    private readonly url?: string,
    /** The server's pool, for read(). */
    private readonly pool?: pg.Pool,
    private readonly logQuery?: (query: string, params: unknown[]) => void,
    /** The read replicas (DATABASE_REPLICA_URLS), started by DatabaseModule with the change feed. */
    readonly replicas?: ReplicaSet,
  ) {}

  static async open(options: DatabaseOptions): Promise<Database> {
    if (options.url) {
      const pool = new RoutingPool({ connectionString: options.url, max: options.poolSize ?? 10, Client: PreparingClient });
      survivesLostConnections(pool);
      const replicas = options.replicaUrls?.length
        ? new ReplicaSet(options.replicaUrls, pool, options.replicaMaxLagMs ?? 5_000, options.poolSize ?? 10)
        : undefined;
      pool.replicas = replicas;
      const logger = options.sqlLogFile ? fileLogger(options.sqlLogFile) : undefined;
      const db = drizzleNodePg(pool, { schema, logger: logger ?? false });
      const runMigrations = async () => {
        // An advisory lock keeps several instances booting at once from migrating twice.
        const client = await pool.connect();
        try {
          await client.query('SELECT pg_advisory_lock($1, 1)', [ADVISORY_LOCK_NAMESPACE]);
          try {
            await migrateNodePg(drizzleNodePg(client, { schema }), { migrationsFolder: MIGRATIONS_FOLDER });
          } finally {
            await client.query('SELECT pg_advisory_unlock($1, 1)', [ADVISORY_LOCK_NAMESPACE]);
          }
        } finally {
          client.release();
        }
      };
      const close = async () => {
        await replicas?.close();
        await pool.end();
      };
      return new Database('postgres', db as unknown as Db, runMigrations, close, undefined, false, options.url, pool, logger?.logQuery, replicas);
    }
    const release = options.dataDir ? acquireDataDirLock(options.dataDir) : () => undefined;
    try {
      const embedded = await PgliteThread.start({ dataDir: options.dataDir, loadDataDir: options.loadDataDir });
      const logger = options.sqlLogFile ? fileLogger(options.sqlLogFile) : undefined;
      const db = drizzlePglite(embedded.asDrizzleClient(), { schema, logger: logger ?? false });
      return new Database(
        'pglite',
        db as unknown as Db,
        () => migratePglite(db, { migrationsFolder: MIGRATIONS_FOLDER }),
        async () => {
          try {
            await embedded.close();
          } finally {
            release();
          }
        },
        embedded,
        Boolean(options.dataDir),
        undefined,
        undefined,
        logger?.logQuery,
      );
    } catch (err) {
      release();
      throw err;
    }
  }

  /** The rows of a ReadStatement (outside any transaction). */
  async read<R>(statement: ReadStatement<R>, values: unknown[]): Promise<R[]> {
    this.logQuery?.(statement.text, values);
    if (this.pool) return (await this.pool.query<R & pg.QueryResultRow>({ name: statement.name, text: statement.text, values })).rows;
    return (await this.embedded!.query<R>(statement.text, values)).rows;
  }

  /** Applies the committed drizzle-kit migrations. */
  migrate(): Promise<void> {
    return this.runMigrations();
  }

  /**
   * Runs fn in one transaction. Serialisation failures and deadlocks are retried, so callers
   * get all-or-nothing without handling PostgreSQL's transient errors themselves.
   * Inside fn, use only `tx`: the embedded engine runs one transaction at a time.
   */
  async transaction<T>(fn: (tx: Tx) => Promise<T>, options: { isolationLevel?: 'read committed' | 'repeatable read' | 'serializable' } = {}): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        const result = await this.db.transaction(fn, options.isolationLevel ? { isolationLevel: options.isolationLevel } : undefined);
        this.committed++;
        return result;
      } catch (err) {
        const code = (err as { code?: string }).code ?? (err as { cause?: { code?: string } }).cause?.code;
        if (attempt < 5 && (code === '40001' || code === '40P01')) {
          await new Promise((r) => setTimeout(r, 10 * attempt * attempt));
          continue;
        }
        throw err;
      }
    }
  }

  /** How many transactions this process has committed through transaction(). */
  get committedTransactions(): number {
    return this.committed;
  }

  /** Calls listener whenever catalogChanged() runs on this Database; returns the unsubscribe. */
  onCatalogChange(listener: () => void): () => void {
    this.catalogListeners.add(listener);
    return () => this.catalogListeners.delete(listener);
  }

  /** Tells this process's catalog caches that songs or charts changed (other processes poll catalog_state). */
  catalogChanged(): void {
    for (const listener of this.catalogListeners) listener();
  }

  /**
   * Listens to a notification channel. PGlite delivers a transaction's notifications before its
   * COMMIT returns, so `live` is always true. A server's arrive a moment after the commit on a
   * connection of their own: `onLive(false)` says it dropped (notifications may have been missed
   * meanwhile), and it reconnects by itself (1 s, then up to 30 s apart) and says `onLive(true)`
   * once it listens again. Returns the way to stop listening.
   */
  async listen(channel: string, onMessage: (payload: string) => void, onLive: (live: boolean) => void): Promise<() => Promise<void>> {
    if (this.embedded) {
      const unlisten = await this.embedded.listen(channel, onMessage);
      onLive(true);
      return unlisten;
    }
    let stopped = false;
    let client: pg.Client | undefined;
    let retry: NodeJS.Timeout | undefined;
    let delay = 1000;
    const connect = async (): Promise<void> => {
      const next = new pg.Client({ connectionString: this.url });
      let lost = false;
      const drop = () => {
        if (lost) return;
        lost = true;
        next.removeAllListeners('notification');
        void next.end().catch(() => undefined);
        if (stopped) return;
        onLive(false);
        retry = setTimeout(() => void connect(), delay);
        retry.unref();
        delay = Math.min(delay * 2, 30_000);
      };
      next.on('error', drop);
      next.on('end', drop);
      next.on('notification', (n) => n.channel === channel && onMessage(n.payload ?? ''));
      try {
        await next.connect();
        await next.query(`LISTEN "${channel.replaceAll('"', '""')}"`);
      } catch {
        drop();
        return;
      }
      if (stopped) return void next.end().catch(() => undefined);
      client = next;
      delay = 1000;
      onLive(true);
    };
    await connect();
    return async () => {
      stopped = true;
      clearTimeout(retry);
      await client?.end().catch(() => undefined);
    };
  }

  /** Sends a notification outside any transaction (delivered at once). */
  async notify(channel: string, payload: string): Promise<void> {
    await this.db.execute(sql`SELECT pg_notify(${channel}, ${payload})`);
  }

  async close(): Promise<void> {
    await this.onClose();
  }
}

export function embeddedDbDir(dataDir: string): string {
  return path.join(dataDir, 'db');
}
