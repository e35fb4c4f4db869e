import { Injectable } from '@nestjs/common';
import { and, asc, desc, eq, getTableColumns, gt, inArray, or, sql, type SQL } from 'drizzle-orm';
import { type AnyPgColumn } from 'drizzle-orm/pg-core';
import { anyOf, overlaps } from '../database/bulk-write.js';
import { Database } from '../database/database.js';
import { containsPattern } from '../database/like.js';
import {
  bmsCourses,
  chartRankings,
  charts,
  folderCharts,
  folders,
  gameTables,
  personalBests,
  songs,
  type BmsCourseRow,
  type ChartRow,
  type FolderRow,
  type SongRow,
  type TableRow,
} from '../database/schema.js';

export type ChartWithPlaycount = ChartRow & { playcount: number };

/** Trigram match of a free-text query against a search_text column: substring or close word similarity. */
export function textMatches(column: AnyPgColumn, search: string): SQL {
  return or(sql`${column} ILIKE ${containsPattern(search)}`, sql`${search} <% ${column}`)!;
}

@Injectable()
export class CatalogRepository {
  constructor(private readonly database: Database) {}

  /**
   * Songs of a game whose title, alternate titles or search terms match a free-text query
   * (substring, or close by trigram word similarity), closest first.
   */
  searchSongs(game: string, search: string, limit: number): Promise<{ song: SongRow; closeness: number }[]> {
    return this.database.db
      .select({ song: songs, closeness: sql<number>`word_similarity(${search}, ${songs.searchText})` })
      .from(songs)
      .where(and(eq(songs.game, game), textMatches(songs.searchText, search)))
      .orderBy(desc(sql`word_similarity(${search}, ${songs.searchText})`), asc(songs.id))
      .limit(limit);
  }

  async song(game: string, id: number): Promise<SongRow | undefined> {
    const [row] = await this.database.db
      .select()
      .from(songs)
      .where(and(eq(songs.game, game), eq(songs.id, id)));
    return row;
  }

  songsByIds(game: string, ids: readonly number[]): Promise<SongRow[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return (
      this.database.db
        .select()
        .from(songs)
        .where(and(eq(songs.game, game), inArray(songs.id, [...new Set(ids)])))
        // A fixed order, whatever plan the database picks.
        .orderBy(asc(songs.id))
    );
  }

  chartsByIds(chartIDs: readonly string[]): Promise<ChartRow[]> {
    if (chartIDs.length === 0) return Promise.resolve([]);
    return this.database.db
      .select()
      .from(charts)
      .where(inArray(charts.chartID, [...new Set(chartIDs)]));
  }

  /** A chart (of any game) with its song. */
  async chartWithSong(chartID: string): Promise<{ chart: ChartRow; song: SongRow } | undefined> {
    const [row] = await this.database.db
      .select({ chart: getTableColumns(charts), song: getTableColumns(songs) })
      .from(charts)
      .innerJoin(songs, and(eq(songs.game, charts.game), eq(songs.id, charts.songID)))
      .where(eq(charts.chartID, chartID))
      .limit(1);
    return row;
  }

  chartsOfSong(game: string, playtype: string, songID: number): Promise<ChartRow[]> {
    return this.database.db
      .select()
      .from(charts)
      .where(and(eq(charts.game, game), eq(charts.playtype, playtype), eq(charts.songID, songID)))
      .orderBy(asc(charts.chartID));
  }

  async chart(game: string, playtype: string, chartID: string): Promise<ChartRow | undefined> {
    const [row] = await this.database.db
      .select()
      .from(charts)
      .where(and(eq(charts.chartID, chartID), eq(charts.game, game), eq(charts.playtype, playtype)));
    return row;
  }

  /** These charts of a GPT with their songs; ids of other GPTs or of no chart are left out. */
  chartsWithSongs(game: string, playtype: string, chartIDs: readonly string[]): Promise<{ chart: ChartRow; song: SongRow }[]> {
    if (chartIDs.length === 0) return Promise.resolve([]);
    return this.database.db
      .select({ chart: charts, song: songs })
      .from(charts)
      .innerJoin(songs, and(eq(songs.game, charts.game), eq(songs.id, charts.songID)))
      .where(and(anyOf(charts.chartID, chartIDs), eq(charts.game, game), eq(charts.playtype, playtype)));
  }

  /** Unique players of a chart: one PB exists per user who has a score on it (chart_rankings keeps the count). */
  async playcount(chartID: string): Promise<number> {
    const [row] = await this.database.db.select({ n: chartRankings.players }).from(chartRankings).where(eq(chartRankings.chartID, chartID));
    return row?.n ?? 0;
  }

  /**
   * Charts of a GPT with their player counts (unique players, one PB each), most played first,
   * ties by song then chart id. With a search, only charts of the best-matching songs, and ties
   * go to the closer match first.
   *
   * A chart's player count is its chart_rankings row's `players`, kept by every write that adds or
   * removes a PB, under the chart's rank lock. Reading it costs one index entry per chart
   * (chart_rankings_popular_idx, or its primary key for the matched charts) where counting costs
   * one per player.
   */
  /** The GPT's charts, most played first; `playedBy`: only those of songs this user has a PB on in the GPT. */
  async popularCharts(game: string, playtype: string, search: string | undefined, limit: number, playedBy?: number): Promise<ChartWithPlaycount[]> {
    const db = this.database.db;
    const playedSongs =
      playedBy === undefined
        ? undefined
        : inArray(
            charts.songID,
            db
              .selectDistinct({ songID: personalBests.songID })
              .from(personalBests)
              .where(and(eq(personalBests.userID, playedBy), eq(personalBests.game, game), eq(personalBests.playtype, playtype))),
          );
    const ofGpt = and(eq(charts.game, game), eq(charts.playtype, playtype), playedSongs);
    if (search) {
      const matched = db
        .select({ id: songs.id, closeness: sql<number>`word_similarity(${search}, ${songs.searchText})`.as('closeness') })
        .from(songs)
        .where(and(eq(songs.game, game), textMatches(songs.searchText, search)))
        .orderBy(desc(sql`closeness`))
        .limit(limit)
        .as('matched');
      const playcount = sql<number>`coalesce(${chartRankings.players}, 0)`;
      const rows = await db
        .select({ chart: charts, playcount })
        .from(charts)
        .innerJoin(matched, eq(matched.id, charts.songID))
        .leftJoin(chartRankings, eq(chartRankings.chartID, charts.chartID))
        .where(ofGpt)
        .orderBy(desc(playcount), desc(matched.closeness), asc(charts.songID), asc(charts.chartID))
        .limit(limit);
      return rows.map((r) => ({ ...r.chart, playcount: Number(r.playcount) }));
    }
    const played = await db
      .select({ chart: charts, playcount: chartRankings.players })
      .from(chartRankings)
      .innerJoin(charts, eq(charts.chartID, chartRankings.chartID))
      .where(and(eq(chartRankings.game, game), eq(chartRankings.playtype, playtype), gt(chartRankings.players, 0), playedSongs))
      .orderBy(desc(chartRankings.players), asc(charts.songID), asc(charts.chartID))
      .limit(limit);
    const unplayed =
      played.length < limit
        ? await db
            .select()
            .from(charts)
            .where(and(ofGpt, sql`NOT EXISTS (SELECT 1 FROM ${chartRankings} r WHERE r.chart_id = ${charts.chartID} AND r.players > 0)`))
            .orderBy(asc(charts.songID), asc(charts.chartID))
            .limit(limit - played.length)
        : [];
    return [...played.map((r) => ({ ...r.chart, playcount: r.playcount })), ...unplayed.map((c) => ({ ...c, playcount: 0 }))];
  }

  searchFolders(game: string, playtype: string, search: string, includeInactive: boolean, limit: number): Promise<FolderRow[]> {
    return this.database.db
      .select()
      .from(folders)
      .where(
        and(
          eq(folders.game, game),
          eq(folders.playtype, playtype),
          includeInactive ? undefined : eq(folders.inactive, false),
          textMatches(folders.searchText, search),
        ),
      )
      .orderBy(desc(sql`word_similarity(${search}, ${folders.searchText})`), asc(folders.title))
      .limit(limit);
  }

  async folder(game: string, playtype: string, folderID: string): Promise<FolderRow | undefined> {
    const [row] = await this.database.db
      .select()
      .from(folders)
      .where(and(eq(folders.folderID, folderID), eq(folders.game, game), eq(folders.playtype, playtype)));
    return row;
  }

  foldersByIds(ids: readonly string[]): Promise<FolderRow[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.database.db
      .select()
      .from(folders)
      .where(inArray(folders.folderID, [...ids]));
  }

  /** These folders of a GPT; ids of other GPTs or of no folder are left out. */
  foldersOfGpt(game: string, playtype: string, folderIDs: readonly string[]): Promise<FolderRow[]> {
    if (folderIDs.length === 0) return Promise.resolve([]);
    return this.database.db
      .select()
      .from(folders)
      .where(and(anyOf(folders.folderID, folderIDs), eq(folders.game, game), eq(folders.playtype, playtype)));
  }

  chartsInFolder(folderID: string): Promise<ChartRow[]> {
    return this.database.db
      .select({ chart: charts })
      .from(folderCharts)
      .innerJoin(charts, eq(charts.chartID, folderCharts.chartID))
      .where(eq(folderCharts.folderID, folderID))
      .orderBy(asc(charts.songID), asc(charts.chartID))
      .then((rows) => rows.map((r) => r.chart));
  }

  /** The folders of a GPT containing a chart, by title; inactive ones only when asked. */
  foldersWithChart(game: string, playtype: string, chartID: string, includeInactive: boolean): Promise<FolderRow[]> {
    return this.database.db
      .select({ folder: folders })
      .from(folderCharts)
      .innerJoin(folders, eq(folders.folderID, folderCharts.folderID))
      .where(
        and(
          eq(folderCharts.chartID, chartID),
          eq(folders.game, game),
          eq(folders.playtype, playtype),
          includeInactive ? undefined : eq(folders.inactive, false),
        ),
      )
      .orderBy(asc(folders.title), asc(folders.folderID))
      .then((rows) => rows.map((r) => r.folder));
  }

  tables(game: string, playtype: string, includeInactive: boolean): Promise<TableRow[]> {
    return this.database.db
      .select()
      .from(gameTables)
      .where(and(eq(gameTables.game, game), eq(gameTables.playtype, playtype), includeInactive ? undefined : eq(gameTables.inactive, false)))
      .orderBy(asc(gameTables.title));
  }

  async table(game: string, playtype: string, tableID: string): Promise<TableRow | undefined> {
    const [row] = await this.database.db
      .select()
      .from(gameTables)
      .where(and(eq(gameTables.tableID, tableID), eq(gameTables.game, game), eq(gameTables.playtype, playtype)));
    return row;
  }

  /** Charts of a game with this (lowercase) hash among their MD5/SHA256/SHA1 hashes, by playtype. */
  chartsWithHash(game: string, hash: string): Promise<ChartRow[]> {
    return this.database.db
      .select()
      .from(charts)
      .where(and(eq(charts.game, game), overlaps(charts.chartHashes, [hash])))
      .orderBy(asc(charts.playtype));
  }

  /** The BMS course (dan) whose charts' MD5s, concatenated in order, are these. */
  async bmsCourse(md5sums: string): Promise<BmsCourseRow | undefined> {
    const [row] = await this.database.db.select().from(bmsCourses).where(eq(bmsCourses.md5sums, md5sums));
    return row;
  }
}
