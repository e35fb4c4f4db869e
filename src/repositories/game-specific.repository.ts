import { Injectable } from '@nestjs/common';
import { and, asc, eq, getTableColumns, sql, type SQL } from 'drizzle-orm';
import { anyOf } from '../database/bulk-write.js';
import { CHART_RANKING_JOIN, rankedPbColumns } from '../database/pb-rank.js';
import { Database } from '../database/database.js';
import { charts, personalBests, songs, type ChartRow, type PbReadRow, type SongRow } from '../database/schema.js';

/** A PB with its chart and song, as the game-specific tools read them. */
export interface PbWithCatalog {
  pb: PbReadRow;
  chart: ChartRow;
  song: SongRow;
}

/** A chart `data` field's value as a number, or NULL when the field holds anything else (never a cast error). */
function numericDataField(field: string): SQL<number | null> {
  return sql<number | null>`(CASE WHEN jsonb_typeof(${charts.data} -> ${field}) = 'number' THEN (${charts.data} ->> ${field})::double precision END)`;
}

/** The reads of the game-specific tools (src/game-specific/): a user's PBs with their catalog, and charts by their data. */
@Injectable()
export class GameSpecificRepository {
  constructor(private readonly database: Database) {}

  /** The user's PBs on primary charts of the GPT, each with its chart and song, by song then chart. */
  async primaryPbsWithCatalog(userID: number, game: string, playtype: string): Promise<PbWithCatalog[]> {
    const rows = await this.database.db
      .select({ pb: rankedPbColumns, chart: getTableColumns(charts), song: getTableColumns(songs) })
      .from(personalBests)
      .leftJoin(...CHART_RANKING_JOIN)
      .innerJoin(charts, eq(charts.chartID, personalBests.chartID))
      .innerJoin(songs, and(eq(songs.game, charts.game), eq(songs.id, charts.songID)))
      .where(and(eq(personalBests.userID, userID), eq(personalBests.game, game), eq(personalBests.playtype, playtype), eq(personalBests.isPrimary, true)))
      .orderBy(asc(personalBests.songID), asc(personalBests.chartID));
    return rows;
  }

  /** The user's lamp (their PB's) on each of these charts they have a PB on, by chart ID. */
  async lampsOn(userID: number, chartIDs: readonly string[]): Promise<Map<string, string>> {
    if (chartIDs.length === 0) return new Map();
    const rows = await this.database.db
      .select({ chartID: personalBests.chartID, lamp: sql<string | null>`${personalBests.scoreData} ->> 'lamp'` })
      .from(personalBests)
      .where(and(eq(personalBests.userID, userID), anyOf(personalBests.chartID, chartIDs)));
    return new Map(rows.flatMap((r) => (r.lamp === null ? [] : [[r.chartID, r.lamp] as const])));
  }

  /** The GPT's charts, with their songs, whose data holds a number above 0 in any of these fields; by song then chart. */
  chartsWithPositiveData(game: string, playtype: string, fields: readonly string[]): Promise<{ chart: ChartRow; song: SongRow }[]> {
    const anyPositive = sql.join(
      fields.map((f) => sql`${numericDataField(f)} > 0`),
      sql` OR `,
    );
    return this.database.db
      .select({ chart: getTableColumns(charts), song: getTableColumns(songs) })
      .from(charts)
      .innerJoin(songs, and(eq(songs.game, charts.game), eq(songs.id, charts.songID)))
      .where(and(eq(charts.game, game), eq(charts.playtype, playtype), sql`(${anyPositive})`))
      .orderBy(asc(charts.songID), asc(charts.chartID));
  }

  /** The GPT's charts, with their songs, whose data holds a number in every one of these fields; by song then chart. */
  chartsWithNumericData(game: string, playtype: string, fields: readonly string[]): Promise<{ chart: ChartRow; song: SongRow }[]> {
    return this.database.db
      .select({ chart: getTableColumns(charts), song: getTableColumns(songs) })
      .from(charts)
      .innerJoin(songs, and(eq(songs.game, charts.game), eq(songs.id, charts.songID)))
      .where(and(eq(charts.game, game), eq(charts.playtype, playtype), ...fields.map((f) => sql`${numericDataField(f)} IS NOT NULL`)))
      .orderBy(asc(charts.songID), asc(charts.chartID));
  }

  /** The songs of a game with these ids. */
  songs(game: string, ids: readonly number[]): Promise<SongRow[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.database.db
      .select()
      .from(songs)
      .where(and(eq(songs.game, game), anyOf(songs.id, ids)));
  }

  /** The charts of these songs of a game (every playtype and difficulty). */
  chartsOfSongs(game: string, songIDs: readonly number[]): Promise<ChartRow[]> {
    if (songIDs.length === 0) return Promise.resolve([]);
    return this.database.db
      .select()
      .from(charts)
      .where(and(eq(charts.game, game), anyOf(charts.songID, songIDs)));
  }
}
