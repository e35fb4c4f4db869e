import { Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { and, eq } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';
import { anyOf } from '../database/bulk-write.js';
import { ChangeFeed } from '../database/change-feed.js';
import { onPrimary } from '../database/read-route.js';
import { Database } from '../database/database.js';
import { distinct } from '../common/collections.js';
import { addInterval, removeInterval } from '../common/intervals.js';
import { withJsonText } from '../common/json-text.js';
import { catalogState, charts, songs, type ChartRow, type SongRow } from '../database/schema.js';
import { toChartDocument, toSongDocument } from '../presenters/catalog.presenter.js';

export type SongDocument = ReturnType<typeof toSongDocument>;
export type ChartDocument = ReturnType<typeof toChartDocument>;

/** How often a server on PostgreSQL looks for a seed load made by another process while change notifications are not arriving. */
export const CATALOG_VERSION_CHECK_MS = 5_000;
/** The name of that check in the SchedulerRegistry. */
export const CATALOG_VERSION_CHECK_JOB = 'catalog-version-check';
/** Per kind (songs, charts); the least recently used entries go first. The whole seed catalog is ~90,000 records. */
const MAX_ENTRIES = 100_000;

/**
 * Song and chart documents by id, kept in memory: every score, PB and leaderboard page names
 * them, and they change only when seeds are loaded. A seed load in this process clears the cache
 * at once; one in another process (the CLI, another instance) reaches servers on PostgreSQL as a
 * change notification of the game's catalog (ChangeFeed), which clears it as soon as it arrives,
 * before any cached read can be rebuilt from it. Should notifications stop (the listening
 * connection dropped), the cache is cleared, and catalog_state.version, which every seed load
 * bumps, is polled every CATALOG_VERSION_CHECK_MS as well. Returned documents are shared: callers
 * must not mutate them. Each keeps its JSON text (common/json-text), so that answers naming it do
 * not serialise it again.
 */
@Injectable()
export class CatalogCache implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(CatalogCache.name);
  /** By `${game}:${id}`. With `max`, lru-cache allocates its slots up front; a hit (get) allocates nothing. */
  private readonly songs = new LRUCache<string, SongDocument>({ max: MAX_ENTRIES });
  /** By chartID. */
  private readonly charts = new LRUCache<string, ChartDocument>({ max: MAX_ENTRIES });
  /** Chart matches of score imports (ChartMatchRepository) by what the score named; only found charts are kept. */
  private readonly matches = new LRUCache<string, { chart: ChartRow; song: SongRow }>({ max: MAX_ENTRIES });
  /** The GPT (`${game}:${playtype}`) of each chart id looked up by chartOnGpt; only found charts are kept. */
  private readonly chartGpts = new LRUCache<string, string>({ max: MAX_ENTRIES });
  /** Bumped on every clear, so a fetch that started before a clear does not store stale rows. */
  private generation = 0;
  private version: number | undefined;
  private unsubscribe: (() => void) | undefined;
  private unsubscribeFeed: (() => void) | undefined;

  constructor(
    private readonly database: Database,
    private readonly feed: ChangeFeed,
    private readonly scheduler: SchedulerRegistry,
  ) {}

  async onModuleInit() {
    this.unsubscribe = this.database.onCatalogChange(() => this.clear());
    if (this.database.kind === 'postgres') {
      this.unsubscribeFeed = this.feed.subscribe((scopes) => {
        if (scopes === 'all' || scopes.some((s) => s.startsWith('k:'))) this.clear();
      });
      await this.feed.start();
      await this.checkVersion();
      addInterval(this.scheduler, CATALOG_VERSION_CHECK_JOB, CATALOG_VERSION_CHECK_MS, () => {
        this.checkVersion().catch((err: Error) => this.logger.warn(`Could not read the catalog version: ${err.message}`));
      });
    }
  }

  onModuleDestroy() {
    removeInterval(this.scheduler, CATALOG_VERSION_CHECK_JOB);
    this.unsubscribe?.();
    this.unsubscribeFeed?.();
  }

  clear() {
    this.generation++;
    this.songs.clear();
    this.charts.clear();
    this.matches.clear();
    this.chartGpts.clear();
  }

  /**
   * Whether the chart exists on this GPT: the check a chart's pages make before reading its PBs.
   * A chart found is remembered until the next seed load (only a seed load adds, moves or removes
   * charts); an id not found is looked up again each time, so unknown ids cannot fill the cache.
   */
  async chartOnGpt(game: string, playtype: string, chartID: string): Promise<boolean> {
    let gpt = this.chartGpts.get(chartID);
    if (gpt === undefined) {
      const generation = this.generation;
      const [row] = await onPrimary(() =>
        this.database.db.select({ game: charts.game, playtype: charts.playtype }).from(charts).where(eq(charts.chartID, chartID)),
      );
      if (!row) return false;
      gpt = `${row.game}:${row.playtype}`;
      if (generation === this.generation) this.chartGpts.set(chartID, gpt);
    }
    return gpt === `${game}:${playtype}`;
  }

  /**
   * The chart and song a score naming `key` matched, while no seed load happened since. Matching
   * is a pure function of the catalog, so a hook's score skips its two catalog queries.
   */
  match(key: string): { chart: ChartRow; song: SongRow } | undefined {
    return this.matches.get(key);
  }

  /** Where a match fetch starts: its results are kept only if the catalog did not change meanwhile (keepMatch). */
  matchGeneration(): number {
    return this.generation;
  }

  keepMatch(key: string, found: { chart: ChartRow; song: SongRow }, generation: number): void {
    if (generation === this.generation) this.matches.set(key, found);
  }

  private async checkVersion() {
    const [row] = await this.database.db.select({ version: catalogState.version }).from(catalogState);
    const version = row?.version ?? 0;
    if (this.version !== undefined && version !== this.version) this.clear();
    this.version = version;
  }

  /** Song documents of one game, each once, in the order of `ids`; unknown ids are skipped. */
  async songDocuments(game: string, ids: Iterable<number>): Promise<SongDocument[]> {
    const wanted = distinct(ids);
    const cached = wanted.map((id) => this.songs.get(`${game}:${id}`));
    const missing = wanted.filter((_, i) => cached[i] === undefined);
    if (missing.length) {
      const generation = this.generation;
      // On the primary: a replica may not have replayed a seed load whose notification already cleared the cache.
      const rows = await onPrimary(() =>
        this.database.db
          .select({ id: songs.id, title: songs.title, artist: songs.artist, altTitles: songs.altTitles, searchTerms: songs.searchTerms, data: songs.data })
          .from(songs)
          .where(and(eq(songs.game, game), anyOf(songs.id, missing))),
      );
      const found = new Map(rows.map((r) => [r.id, withJsonText(toSongDocument(r))]));
      if (generation === this.generation) for (const [id, doc] of found) this.songs.set(`${game}:${id}`, doc);
      return wanted.flatMap((id, i) => {
        const doc = cached[i] ?? found.get(id);
        return doc ? [doc] : [];
      });
    }
    return cached as SongDocument[];
  }

  /** Chart documents, each once, in the order of `ids`; unknown ids are skipped. */
  async chartDocuments(ids: Iterable<string>): Promise<ChartDocument[]> {
    const wanted = distinct(ids);
    const cached = wanted.map((id) => this.charts.get(id));
    const missing = wanted.filter((_, i) => cached[i] === undefined);
    if (missing.length) {
      const generation = this.generation;
      const rows = await onPrimary(() =>
        this.database.db
          .select({
            chartID: charts.chartID,
            songID: charts.songID,
            playtype: charts.playtype,
            difficulty: charts.difficulty,
            level: charts.level,
            levelNum: charts.levelNum,
            isPrimary: charts.isPrimary,
            versions: charts.versions,
            data: charts.data,
          })
          .from(charts)
          .where(anyOf(charts.chartID, missing)),
      );
      const found = new Map(rows.map((r) => [r.chartID, withJsonText(toChartDocument(r))]));
      if (generation === this.generation) for (const [id, doc] of found) this.charts.set(id, doc);
      return wanted.flatMap((id, i) => {
        const doc = cached[i] ?? found.get(id);
        return doc ? [doc] : [];
      });
    }
    return cached as ChartDocument[];
  }
}
