import { Injectable } from '@nestjs/common';
import { and, asc, eq, sql } from 'drizzle-orm';
import { canonicalJson, seedHash } from '../common/canonical-json.js';
import { overlaps } from '../database/bulk-write.js';
import { ADVISORY_LOCK_NAMESPACE, Database, type Queryable, type Tx } from '../database/database.js';
import { catalogState, charts, orphanChartQueue, songs, type OrphanChartRecords } from '../database/schema.js';
import { chartMatchKeys } from '../game-support/match-types.js';

/** Serialises queue changes per game: song ids are allocated there. */
const QUEUE_LOCK = ADVISORY_LOCK_NAMESPACE + 4;

export interface OrphanChartKey {
  game: string;
  playtype: string;
  /** Lowercase chart hash. */
  hash: string;
  /** Whether the hash names one chart per playtype (PMS) or one whatever the playtype (BMS). */
  hashPerPlaytype: boolean;
}

export type EnqueueOutcome =
  /** The chart is in the catalog (another request created it meanwhile). */
  | { kind: 'known' }
  /** Queued: `players` distinct players have sent it; `added` when this call added the player. */
  | { kind: 'queued'; players: number; added: boolean }
  /** This call completed the queue: the song and chart now exist; `userIDs` are the players who sent it. */
  | { kind: 'created'; chartID: string; songID: number; userIDs: number[] };

/** The chart's match keys, derived from its data as the seed loader derives them (the match-type registry's), never an empty hash. */
function matchKeysOf(data: Record<string, unknown>): { inGameIDs: number[]; chartHashes: string[] } {
  const keys = chartMatchKeys(data);
  return { inGameIDs: keys.inGameIDs, chartHashes: keys.chartHashes.filter((h) => h.length > 0) };
}

/**
 * The orphan-chart queue: charts unknown to the catalog that players' clients describe. A chart
 * is created once enough distinct players have sent it, from the description most of them gave.
 */
@Injectable()
export class OrphanChartsRepository {
  constructor(private readonly database: Database) {}

  /** Whether the catalog has the chart (any playtype when the game's hashes are not per playtype). */
  async chartExists(key: OrphanChartKey, q: Queryable = this.database.db): Promise<boolean> {
    const [row] = await q
      .select({ id: charts.chartID })
      .from(charts)
      .where(and(eq(charts.game, key.game), overlaps(charts.chartHashes, [key.hash]), key.hashPerPlaytype ? eq(charts.playtype, key.playtype) : undefined))
      .limit(1);
    return row !== undefined;
  }

  /**
   * Records that the user sent this unknown chart. When `threshold` distinct players have, the
   * song and chart are created in the same transaction (with the catalog version bumped, so every
   * process's catalog cache drops what it holds) and the chart leaves the queue.
   */
  async enqueue(key: OrphanChartKey, userID: number, records: OrphanChartRecords, threshold: number): Promise<EnqueueOutcome> {
    const outcome = await this.database.transaction(async (tx): Promise<EnqueueOutcome> => {
      await tx.execute(sql`SELECT pg_advisory_xact_lock(${QUEUE_LOCK}, hashtext(${key.game}))`);
      if (await this.chartExists(key, tx)) {
        await tx.delete(orphanChartQueue).where(this.rowsOf(key));
        return { kind: 'known' };
      }
      const inserted = await tx
        .insert(orphanChartQueue)
        .values({ game: key.game, playtype: key.playtype, chartHash: key.hash, userID, records, timeAdded: Date.now() })
        .onConflictDoNothing()
        .returning({ userID: orphanChartQueue.userID });
      const rows = await tx
        .select({ userID: orphanChartQueue.userID, records: orphanChartQueue.records })
        .from(orphanChartQueue)
        .where(this.rowsOf(key))
        .orderBy(asc(orphanChartQueue.timeAdded), asc(orphanChartQueue.userID));
      if (rows.length < threshold) return { kind: 'queued', players: rows.length, added: inserted.length > 0 };
      const created = await this.create(tx, key, mostCommon(rows.map((r) => r.records)));
      await tx.delete(orphanChartQueue).where(this.rowsOf(key));
      return { kind: 'created', ...created, userIDs: rows.map((r) => r.userID) };
    });
    if (outcome.kind === 'created') this.database.catalogChanged();
    return outcome;
  }

  /** Takes the user's entry back (their submission failed before its score was kept). */
  async withdraw(key: OrphanChartKey, userID: number): Promise<void> {
    await this.database.db.delete(orphanChartQueue).where(and(this.rowsOf(key), eq(orphanChartQueue.userID, userID)));
  }

  private rowsOf(key: OrphanChartKey) {
    return and(eq(orphanChartQueue.game, key.game), eq(orphanChartQueue.playtype, key.playtype), eq(orphanChartQueue.chartHash, key.hash));
  }

  /** Inserts the song (with the game's next song id) and its chart, shaped as the seed loader writes them. */
  private async create(tx: Tx, key: OrphanChartKey, records: OrphanChartRecords): Promise<{ chartID: string; songID: number }> {
    const [{ next }] = await tx
      .select({ next: sql<number>`coalesce(max(${songs.id}), 0) + 1`.mapWith(Number) })
      .from(songs)
      .where(eq(songs.game, key.game));
    const { song, chart } = records;
    const songRecord = { id: next, ...song };
    const titles = [...new Set([song.title, ...song.altTitles].map((t) => t.toLowerCase()))];
    await tx.insert(songs).values({
      game: key.game,
      ...songRecord,
      matchTitles: titles,
      searchText: [song.title, ...song.altTitles, ...song.searchTerms].join(' '),
      seedHash: seedHash(songRecord),
    });
    const chartRecord = { ...chart, songID: next, playtype: key.playtype };
    await tx.insert(charts).values({
      game: key.game,
      ...chartRecord,
      ...matchKeysOf(chart.data),
      seedHash: seedHash(chartRecord),
    });
    await tx.update(catalogState).set({ version: sql`${catalogState.version} + 1` });
    return { chartID: chart.chartID, songID: next };
  }
}

/** The description most players gave; a tie goes to the one sent first. */
function mostCommon(descriptions: readonly OrphanChartRecords[]): OrphanChartRecords {
  const counts = new Map<string, { n: number; records: OrphanChartRecords }>();
  for (const records of descriptions) {
    const key = canonicalJson(records);
    const entry = counts.get(key) ?? { n: 0, records };
    entry.n += 1;
    counts.set(key, entry);
  }
  let best: { n: number; records: OrphanChartRecords } | undefined;
  for (const entry of counts.values()) if (!best || entry.n > best.n) best = entry;
  return best!.records;
}
