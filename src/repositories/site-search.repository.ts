import { Injectable } from '@nestjs/common';
import { and, asc, desc, eq, like, or, sql, type SQL } from 'drizzle-orm';
import { anyOf, overlaps } from '../database/bulk-write.js';
import { Database } from '../database/database.js';
import { containsPattern } from '../database/like.js';
import { chartRankings, charts, folders, songs, users, type ChartRow, type FolderRow, type SongRow, type UserRow } from '../database/schema.js';
import { textMatches } from './catalog.repository.js';

/** A chart a search found, with its song and its player count. */
export interface ChartHit {
  song: SongRow;
  chart: ChartRow;
  playcount: number;
}

/** The site-wide search (GET /search, /search/chart-hash): users, songs and their charts in any game, folders. */
@Injectable()
export class SiteSearchRepository {
  constructor(private readonly database: Database) {}

  /** Users whose username contains the text (case-insensitive): the exact username first, then by user id. */
  users(search: string, limit: number): Promise<UserRow[]> {
    const lowered = search.toLowerCase();
    return this.database.db
      .select()
      .from(users)
      .where(like(users.usernameLowercase, containsPattern(lowered)))
      .orderBy(desc(sql`${users.usernameLowercase} = ${lowered}`), asc(users.id))
      .limit(limit);
  }

  /**
   * The game's songs closest to the text (title, alternate titles, search terms; at most `songLimit`), and their charts
   * in these playtypes, each with its player count: the closest song first, then the most played chart.
   */
  async chartsOfMatchingSongs(game: string, playtypes: readonly string[], search: string, songLimit: number): Promise<ChartHit[]> {
    if (playtypes.length === 0) return [];
    const db = this.database.db;
    const closeness = sql<number>`word_similarity(${search}, ${songs.searchText})`;
    const matched = await db
      .select({ song: songs, closeness })
      .from(songs)
      .where(and(eq(songs.game, game), textMatches(songs.searchText, search)))
      .orderBy(desc(closeness), asc(songs.id))
      .limit(songLimit);
    if (matched.length === 0) return [];
    const playcount = sql<number>`coalesce(${chartRankings.players}, 0)`;
    const rows = await db
      .select({ chart: charts, playcount })
      .from(charts)
      .leftJoin(chartRankings, eq(chartRankings.chartID, charts.chartID))
      .where(
        and(
          eq(charts.game, game),
          anyOf(charts.playtype, playtypes),
          anyOf(
            charts.songID,
            matched.map((m) => m.song.id),
          ),
        ),
      );
    const order = new Map(matched.map((m, i) => [m.song.id, i]));
    const songByID = new Map(matched.map((m) => [m.song.id, m.song]));
    return rows
      .map((r) => ({ song: songByID.get(r.chart.songID)!, chart: r.chart, playcount: Number(r.playcount) }))
      .sort(
        (a, b) =>
          order.get(a.song.id)! - order.get(b.song.id)! ||
          b.playcount - a.playcount ||
          a.chart.playtype.localeCompare(b.chart.playtype) ||
          a.chart.chartID.localeCompare(b.chart.chartID),
      );
  }

  /** Folders of these GPTs (every GPT when null) whose title or search terms match the text, the closest first. */
  folders(gpts: readonly { game: string; playtype: string }[] | null, search: string, limit: number): Promise<FolderRow[]> {
    if (gpts?.length === 0) return Promise.resolve([]);
    const ofGpts: SQL | undefined = gpts ? or(...gpts.map((g) => and(eq(folders.game, g.game), eq(folders.playtype, g.playtype)))) : undefined;
    return this.database.db
      .select()
      .from(folders)
      .where(and(ofGpts, textMatches(folders.searchText, search)))
      .orderBy(desc(sql`word_similarity(${search}, ${folders.searchText})`), asc(folders.title), asc(folders.folderID))
      .limit(limit);
  }

  /** The charts of these games holding the hash (lowercased) among their chart hashes, with their songs, by game, playtype and chart. */
  async chartsByHash(games: readonly string[], hash: string): Promise<ChartHit[]> {
    if (games.length === 0) return [];
    const rows = await this.database.db
      .select({ chart: charts, song: songs })
      .from(charts)
      .innerJoin(songs, and(eq(songs.game, charts.game), eq(songs.id, charts.songID)))
      .where(and(anyOf(charts.game, games), overlaps(charts.chartHashes, [hash.toLowerCase()])))
      .orderBy(asc(charts.game), asc(charts.playtype), asc(charts.chartID));
    return rows.map((r) => ({ song: r.song, chart: r.chart, playcount: 0 }));
  }
}
