import { LRUCache } from 'lru-cache';
import { randomUUID } from 'node:crypto';
import type { Database } from './database.js';
import { readPositionCap } from './read-route.js';

/** The channel the read-change triggers notify (drizzle/0021_read_changes.sql). */
export const READ_CHANGES_CHANNEL = 'st_read_changes';

/**
 * The scopes a committed write touches, as the triggers name them. A cached answer lists the
 * scopes it was built from; a change to any of them makes it stale.
 */
export const scope = {
  /** The user's document. */
  user: (userID: number) => `u:${userID}`,
  /** The user's scores, PBs, ratings, stats and settings on a GPT. */
  ugpt: (userID: number, game: string, playtype: string) => `p:${userID}:${game}:${playtype}`,
  /** The GPT's leaderboard: any profile's stats or ratings. */
  gptProfiles: (game: string, playtype: string) => `g:${game}:${playtype}`,
  /** The chart's PBs (every player's) and player count. */
  chart: (chartID: string) => `c:${chartID}`,
  /** The order of the GPT's charts by player count. */
  chartPopularity: (game: string, playtype: string) => `r:${game}:${playtype}`,
  /** The game's songs and charts. */
  catalog: (game: string) => `k:${game}`,
};

/** Past this many remembered scopes, the feed forgets them all and treats everything older as stale. */
const MAX_TRACKED_SCOPES = 200_000;
/** A write waits at most this long for its own notifications to come back (barrier()). */
const BARRIER_TIMEOUT_MS = 2_000;

/**
 * What changed, and when, in this process's view: every scope a committed write touched gets the
 * next number of a local sequence as it arrives. A reader takes `position` before it reads the
 * database; its answer is still current while none of its scopes moved past that position
 * (`unchangedSince`). Scopes are forgotten in bulk (a new floor) rather than one by one.
 *
 * Delivery: PGlite hands a transaction's notifications over before COMMIT returns, so the view is
 * exact. From a PostgreSQL server they arrive on a connection of their own a moment after the
 * commit; a write in this process waits for them with `barrier()`, and while that connection is
 * down (`live` false) nothing counts as current.
 */
export class ChangeFeed {
  private sequence = 0;
  private floor = 0;
  private readonly versions = new Map<string, number>();
  private isLive = false;
  private readonly token = `!${randomUUID()}:`;
  private barriers = 0;
  private readonly waiting = new Map<string, () => void>();
  private unlisten?: () => Promise<void>;
  private starting?: Promise<void>;
  private readonly listeners = new Set<(scopes: readonly string[] | 'all') => void>();

  constructor(private readonly database: Database) {}

  /** Starts listening (once, however many users ask). */
  start(): Promise<void> {
    this.starting ??= this.listen();
    return this.starting;
  }

  /**
   * Calls listener with the scopes of every change as it arrives, or 'all' when changes may have
   * been missed (the connection dropped). Returns the unsubscribe.
   */
  subscribe(listener: (scopes: readonly string[] | 'all') => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private async listen(): Promise<void> {
    this.unlisten = await this.database.listen(
      READ_CHANGES_CHANNEL,
      (payload) => this.receive(payload),
      (live) => {
        // Whatever was missed while not listening is unknown: nothing built before now is current.
        this.forgetAll();
        this.isLive = live;
        if (!live) this.releaseBarriers();
      },
    );
  }

  async stop(): Promise<void> {
    this.isLive = false;
    this.releaseBarriers();
    await this.unlisten?.().catch(() => undefined);
    this.unlisten = undefined;
  }

  /** Notifications are being received: answers can be checked for staleness. */
  get live(): boolean {
    return this.isLive;
  }

  /** The point in this process's view of changes a read starts from. */
  get position(): number {
    return this.sequence;
  }

  /**
   * Moves the position on without a change (a write this process answered that the triggers do
   * not name): a reader that later takes a position at or past the returned one started after it.
   */
  advance(): number {
    return ++this.sequence;
  }

  /** None of the scopes changed after `position` (and the feed was live all along). */
  unchangedSince(scopes: readonly string[], position: number): boolean {
    if (!this.isLive || position < this.floor) return false;
    for (const s of scopes) {
      const version = this.versions.get(s);
      if (version !== undefined && version > position) return false;
    }
    return true;
  }

  /** Marks scopes changed now (the triggers' notifications call it). */
  changed(scopes: readonly string[]): void {
    for (const s of scopes) this.versions.set(s, ++this.sequence);
    if (this.versions.size > MAX_TRACKED_SCOPES) this.forgetAll();
    else for (const listener of this.listeners) listener(scopes);
  }

  /**
   * Resolves once every notification of a transaction this process committed before the call has
   * been received: at once on PGlite, else after a notification of our own comes back on the
   * listening connection (a server delivers notifications in commit order).
   */
  async barrier(): Promise<void> {
    if (this.database.kind === 'pglite' || !this.isLive) return;
    const payload = `${this.token}${++this.barriers}`;
    const arrived = new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        this.waiting.delete(payload);
        // Not seen in time: no answer built so far can be trusted.
        this.forgetAll();
        resolve();
      }, BARRIER_TIMEOUT_MS);
      timer.unref();
      this.waiting.set(payload, () => {
        clearTimeout(timer);
        resolve();
      });
    });
    await this.database.notify(READ_CHANGES_CHANNEL, payload);
    await arrived;
  }

  private receive(payload: string): void {
    if (payload.startsWith('!')) {
      const done = this.waiting.get(payload);
      if (done) {
        this.waiting.delete(payload);
        done();
      }
      return;
    }
    this.changed(payload.split(' ').filter(Boolean));
  }

  private forgetAll(): void {
    this.versions.clear();
    this.floor = ++this.sequence;
    for (const listener of this.listeners) listener('all');
  }

  private releaseBarriers(): void {
    for (const done of this.waiting.values()) done();
    this.waiting.clear();
  }
}

/**
 * Values loaded from the database (a user row, a profile's stats), kept while none of their
 * scopes changed since they were read: the same rule as the read cache, for lookups that many
 * requests repeat. Nothing is kept while the feed is not live. Values are shared: callers must
 * not mutate them.
 */
export class FeedMemo<V extends object> {
  private readonly entries: LRUCache<string, { value: V; scopes: readonly string[]; position: number }>;

  constructor(
    private readonly feed: ChangeFeed,
    max: number,
  ) {
    this.entries = new LRUCache({ max });
  }

  async get(key: string, scopesOf: (value: V) => readonly string[], load: () => Promise<V | undefined>): Promise<V | undefined> {
    const kept = this.entries.get(key);
    if (kept && this.feed.unchangedSince(kept.scopes, kept.position)) return kept.value;
    let position = this.feed.position;
    const value = await load();
    if (value === undefined) {
      this.entries.delete(key);
      return undefined;
    }
    // Read from a replica: current only as of what it had replayed.
    position = readPositionCap(position);
    const scopes = scopesOf(value);
    if (this.feed.unchangedSince(scopes, position)) this.entries.set(key, { value, scopes, position });
    return value;
  }
}
