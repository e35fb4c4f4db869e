import pg from 'pg';
import { survivesLostConnections } from './lost-connections.js';
import { routes } from './read-route.js';

/** What the replicas need of the change feed (change-feed.ts). */
export interface FeedPositions {
  readonly live: boolean;
  readonly position: number;
  advance(): number;
  start(): Promise<void>;
  subscribe(listener: (scopes: readonly string[] | 'all') => void): () => void;
}

/**
 * Read replicas: PostgreSQL standbys fed by streaming replication (DATABASE_REPLICA_URLS). A read
 * goes to one only where it is known to be safe, and the primary answers everything else:
 *
 * - Only plain SELECTs outside transactions, made while a request that may read from a replica is
 *   being answered (runWithReplicaReads: GET and HEAD requests, see src/http/read-routing/). A
 *   request that writes or opens a transaction is pinned to the primary from then on.
 * - A replica is used for a request only once it has replayed past the position the request must
 *   see. Positions are the change feed's: every `CHECK_INTERVAL_MS` the set takes the feed's
 *   position, then the primary's WAL insert position; every change the feed had received by then
 *   was committed, so is in the WAL before that LSN, and a replica whose replay LSN has reached it
 *   holds them all (`caughtUp`). A player's requests must see the feed's position of their last
 *   change (their writes on this process; their scores, PBs, sessions and profile from any process,
 *   as the triggers notify them).
 * - A replica that does not answer, is not a standby, or lags more than REPLICA_MAX_LAG_MS behind
 *   the primary's WAL is skipped, and checked again at the next round. A query that fails on a
 *   replica for want of the replica (a connection error, a read-only refusal) runs again on the
 *   primary.
 */

/** How often the primary's WAL position and each replica's replay position are sampled. */
export const CHECK_INTERVAL_MS = 200;
/** A replica check (connect and query) that takes longer counts as down. */
const CHECK_TIMEOUT_MS = 1_000;
/** Past this many users with a remembered write, they are forgotten and every request must see the feed's position then. */
const MAX_TRACKED_USERS = 100_000;

/** A WAL position (`16/B374D848`) as a number that orders as the LSN does. */
export function parseLsn(text: string): bigint {
  const [high, low] = text.split('/');
  if (low === undefined) throw new Error(`Not an LSN: ${text}`);
  return (BigInt(`0x${high}`) << 32n) | BigInt(`0x${low}`);
}

/** The URL without its password, for reports and logs. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'an unparseable URL';
  }
}

export interface ReplicaStatus {
  url: string;
  /** ok: used for reads; lagging, down, not a standby: skipped until a check finds it ok. */
  state: 'ok' | 'lagging' | 'down' | 'not a standby' | 'unchecked';
  /** How far behind the primary's WAL it was at the last check (ms), when it answered. */
  lagMs?: number;
  replayLsn?: string;
  error?: string;
  /** Reads it answered since the process started. */
  reads: number;
}

interface Sample {
  at: number;
  /** The feed's position before the LSN was read (undefined while the feed was not live). */
  position: number | undefined;
  lsn: bigint;
}

export class Replica {
  readonly pool: pg.Pool;
  state: ReplicaStatus['state'] = 'unchecked';
  lagMs?: number;
  replayLsn?: string;
  error?: string;
  /** Every change the feed had received up to this position is replayed here (-1: none known). */
  caughtUp = -1;
  reads = 0;

  constructor(
    readonly url: string,
    poolSize: number,
  ) {
    this.pool = new pg.Pool({ connectionString: url, max: poolSize, connectionTimeoutMillis: CHECK_TIMEOUT_MS });
    survivesLostConnections(this.pool);
  }

  status(): ReplicaStatus {
    return { url: redactUrl(this.url), state: this.state, lagMs: this.lagMs, replayLsn: this.replayLsn, error: this.error, reads: this.reads };
  }
}

/** A statement a replica can answer: a plain SELECT that locks nothing, notifies nothing and takes no lock or sequence value. */
const READ = /^\s*select\b/i;
const NOT_READ = /\bfor\s+(update|share|no\s+key\s+update|key\s+share)\b|\bpg_(try_)?advisory|\bpg_notify\b|\bnextval\b|\bsetval\b|\bpg_current_wal/i;
export function isPlainRead(text: string): boolean {
  return READ.test(text) && !NOT_READ.test(text);
}

/** A failure of the replica rather than of the query: the same query runs again on the primary. */
function replicaFailure(err: unknown): boolean {
  const code = (err as { code?: unknown }).code;
  if (typeof code !== 'string') return true; // no SQLSTATE: the connection, a timeout
  // 08: connection exceptions; 57P: shutdown, crash; 25006: read-only transaction; 40001: cancelled by recovery conflict; 53: resources.
  return /^(08|57P|53)/.test(code) || code === '25006' || code === '40001' || /^E[A-Z]+$/.test(code);
}

export class ReplicaSet {
  private readonly replicas: Replica[];
  private samples: Sample[] = [];
  private feed?: FeedPositions;
  private timer?: NodeJS.Timeout;
  private checking?: Promise<void>;
  private next = 0;
  /** The feed position of each player's last change that this process knows of. */
  private readonly userPositions = new Map<number, number>();
  /** Every request must see at least this position (the feed's when it last lost changes, or users were forgotten). */
  private floor = 0;
  private unsubscribe?: () => void;
  /** Plain reads of requests that may use a replica, answered by the primary instead (pinned, none caught up, a replica failed). */
  primaryReads = 0;

  constructor(
    urls: readonly string[],
    private readonly primary: pg.Pool,
    readonly maxLagMs: number,
    poolSize: number,
  ) {
    this.replicas = urls.map((url) => new Replica(url, poolSize));
  }

  get size(): number {
    return this.replicas.length;
  }

  /** Starts the checks, with the feed whose positions requests are routed by. */
  async start(feed: FeedPositions): Promise<void> {
    if (this.feed) return;
    this.feed = feed;
    this.unsubscribe = feed.subscribe((scopes) => {
      if (scopes === 'all') {
        this.userPositions.clear();
        this.floor = feed.position;
        return;
      }
      for (const s of scopes) {
        // u:<id> and p:<id>:<game>:<playtype>: the player's own documents.
        if (s.startsWith('u:') || s.startsWith('p:')) {
          const id = Number(s.slice(2, s.indexOf(':', 2) < 0 ? undefined : s.indexOf(':', 2)));
          if (Number.isInteger(id)) this.remember(id, feed.position);
        }
      }
    });
    await feed.start();
    await this.check();
    this.timer = setInterval(() => void this.check(), CHECK_INTERVAL_MS);
    this.timer.unref();
  }

  private remember(userID: number, position: number): void {
    this.userPositions.delete(userID);
    this.userPositions.set(userID, position);
    if (this.userPositions.size > MAX_TRACKED_USERS) {
      this.userPositions.clear();
      this.floor = position;
    }
  }

  /** A request of this player that may have written has been answered: their next reads must see it. */
  userWrote(userID: number): void {
    if (!this.feed) return;
    // A fresh position: a WAL sample taken at or after it was taken after the write committed.
    this.remember(userID, this.feed.advance());
  }

  /** The position a request of this player (undefined: a guest) must see; undefined when only the primary can tell (the feed is not live). */
  requiredFor(userID: number | undefined): number | undefined {
    if (!this.feed?.live) return undefined;
    const own = userID === undefined ? 0 : (this.userPositions.get(userID) ?? 0);
    return Math.max(own, this.floor);
  }

  /** One round: the primary's WAL position, then each replica's replay position. Rounds never overlap. */
  check(): Promise<void> {
    this.checking ??= this.round().finally(() => (this.checking = undefined));
    return this.checking;
  }

  private async round(): Promise<void> {
    const position = this.feed?.live ? this.feed.position : undefined;
    let lsn: bigint;
    try {
      const { rows } = await this.primary.query<{ lsn: string }>('SELECT pg_current_wal_insert_lsn()::text AS lsn');
      lsn = parseLsn(rows[0].lsn);
    } catch (err) {
      // Without the primary's position no replica can be judged: none is used until one is known.
      for (const r of this.replicas) {
        r.caughtUp = -1;
        r.error = `the primary's WAL position is unknown: ${(err as Error).message}`;
      }
      return;
    }
    const now = Date.now();
    this.samples.push({ at: now, position, lsn });
    const keep = now - Math.max(10_000, this.maxLagMs * 2);
    while (this.samples.length > 2 && this.samples[0].at < keep) this.samples.shift();
    await Promise.all(this.replicas.map((r) => this.checkReplica(r, now)));
  }

  private async checkReplica(replica: Replica, now: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    try {
      const query = replica.pool.query<{ recovery: boolean; lsn: string | null }>(
        'SELECT pg_is_in_recovery() AS recovery, pg_last_wal_replay_lsn()::text AS lsn',
      );
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
      });
      const { rows } = await Promise.race([query, timeout]);
      const row = rows[0];
      if (!row.recovery || row.lsn === null) {
        replica.state = 'not a standby';
        replica.caughtUp = -1;
        replica.error = 'pg_is_in_recovery() is false: a promoted or independent server is not used as a replica';
        return;
      }
      const replayed = parseLsn(row.lsn);
      replica.replayLsn = row.lsn;
      replica.error = undefined;
      // The newest sample it has replayed past gives the feed position it holds; the oldest it has not, how far behind it is.
      let caughtUp = -1;
      let behindSince: number | undefined;
      for (let i = this.samples.length - 1; i >= 0; i--) {
        const s = this.samples[i];
        if (s.lsn <= replayed) {
          if (s.position !== undefined) caughtUp = s.position;
          break;
        }
        behindSince = s.at;
      }
      replica.caughtUp = caughtUp;
      replica.lagMs = behindSince === undefined ? 0 : now - behindSince;
      replica.state = replica.lagMs > this.maxLagMs ? 'lagging' : 'ok';
    } catch (err) {
      replica.state = 'down';
      replica.caughtUp = -1;
      replica.lagMs = undefined;
      replica.error = (err as Error).message;
    } finally {
      clearTimeout(timer);
    }
  }

  /** A replica that can answer a request that must see `required`, round robin among them, or undefined. */
  private choose(required: number): Replica | undefined {
    for (let i = 0; i < this.replicas.length; i++) {
      const r = this.replicas[(this.next + i) % this.replicas.length];
      if (r.state === 'ok' && r.caughtUp >= required) {
        this.next = (this.next + i + 1) % this.replicas.length;
        return r;
      }
    }
    return undefined;
  }

  /**
   * Runs a statement for the pool: on a replica when the current request allows it, else on the
   * primary (run). A replica that fails is marked down and the statement runs on the primary.
   */
  async route<R>(text: string, onReplica: (pool: pg.Pool) => Promise<R>, onPrimary: () => Promise<R>): Promise<R> {
    const route = routes.getStore();
    if (!route) return onPrimary();
    if (!isPlainRead(text)) {
      route.pinned = true;
      return onPrimary();
    }
    if (route.pinned) {
      this.primaryReads++;
      return onPrimary();
    }
    route.replica ??= this.choose(route.required);
    const replica = route.replica as Replica | undefined;
    if (!replica) {
      // Nothing is caught up: the rest of the request reads the primary, so it sees one state.
      route.pinned = true;
      this.primaryReads++;
      return onPrimary();
    }
    route.seenPosition = Math.min(route.seenPosition ?? Infinity, replica.caughtUp);
    try {
      const result = await onReplica(replica.pool);
      replica.reads++;
      return result;
    } catch (err) {
      if (!replicaFailure(err)) throw err;
      replica.state = 'down';
      replica.caughtUp = -1;
      replica.error = (err as Error).message;
      route.pinned = true;
      this.primaryReads++;
      return onPrimary();
    }
  }

  /** Each replica's state, for readiness. */
  status(): ReplicaStatus[] {
    return this.replicas.map((r) => r.status());
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    this.unsubscribe?.();
    await this.checking?.catch(() => undefined);
    await Promise.all(this.replicas.map((r) => r.pool.end().catch(() => undefined)));
  }
}

type QueryArgs = Parameters<pg.Pool['query']>;

/**
 * The primary's pool, whose query() (what Drizzle and ReadStatements call outside transactions)
 * asks the ReplicaSet where each statement goes. connect() (transactions, COPY) stays on the primary.
 */
export class RoutingPool extends pg.Pool {
  replicas?: ReplicaSet;

  override query(...args: unknown[]): never {
    const [config, values, callback] = args as [string | pg.QueryConfig, unknown[] | undefined, unknown];
    const primary = () => (super.query as (...a: unknown[]) => Promise<unknown>).apply(this, args);
    if (!this.replicas || typeof callback === 'function' || typeof values === 'function') return primary() as never;
    const text = typeof config === 'string' ? config : config.text;
    return this.replicas.route(text, (pool) => (pool.query as (...a: QueryArgs) => Promise<unknown>)(...(args as QueryArgs)), primary) as never;
  }
}
