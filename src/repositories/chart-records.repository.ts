import { Injectable } from '@nestjs/common';
import { and, eq, sql } from 'drizzle-orm';
import { overlaps } from '../database/bulk-write.js';
import { CHART_RANKING_JOIN, chartIsDirty, chartPagePbColumns, rankedPbColumns, readChartPage } from '../database/pb-rank.js';
import { Database } from '../database/database.js';
import { charts, personalBests, scores, users, type ChartRow, type PbReadRow } from '../database/schema.js';

/** A ranked PB with what a game client's leaderboard shows besides it: the owner's name and the scoreMeta of the play that set its score. */
export interface RankedPb {
  pb: PbReadRow;
  username: string;
  scoreMeta: Record<string, unknown>;
}

/** Chart leaderboards as game clients read them (USC's IR): a chart by its hash, and its PBs by rank. */
@Injectable()
export class ChartRecordsRepository {
  constructor(private readonly database: Database) {}

  /** The GPT's chart with this (lowercased) hash among its chart_hashes. */
  async chartByHash(game: string, playtype: string, hash: string): Promise<ChartRow | undefined> {
    const [row] = await this.database.db
      .select()
      .from(charts)
      .where(and(eq(charts.game, game), eq(charts.playtype, playtype), overlaps(charts.chartHashes, [hash.toLowerCase()])))
      .limit(1);
    return row;
  }

  async pbOf(userID: number, chartID: string): Promise<PbReadRow | undefined> {
    const [row] = await this.database.db
      .select(rankedPbColumns)
      .from(personalBests)
      .leftJoin(...CHART_RANKING_JOIN)
      .where(and(eq(personalBests.userID, userID), eq(personalBests.chartID, chartID)));
    return row;
  }

  /** The chart's PBs ranked first to last (inclusive), by rank; ranks are unique per chart (see readChartPage). */
  async rankedPbs(chartID: string, first: number, last: number): Promise<RankedPb[]> {
    if (last < first) return [];
    const rows = await readChartPage(first, ({ where, orderBy, offset }) =>
      this.database.db
        .select({ pb: chartPagePbColumns(chartID), dirty: chartIsDirty(chartID), username: users.username, scoreMeta: scores.scoreMeta })
        .from(personalBests)
        .innerJoin(users, eq(users.id, personalBests.userID))
        // composedFrom[0] is the play that set the PB's score.
        .leftJoin(scores, eq(scores.scoreID, sql`${personalBests.composedFrom} -> 0 ->> 'scoreID'`))
        .where(and(eq(personalBests.chartID, chartID), where))
        .orderBy(...orderBy)
        .offset(offset)
        .limit(last - first + 1),
    );
    return rows.map((r) => ({ pb: r.pb, username: r.username, scoreMeta: r.scoreMeta ?? {} }));
  }
}
