import { Injectable } from '@nestjs/common';
import { and, asc, count, desc, eq, gte, inArray, notInArray, sql } from 'drizzle-orm';
import { anyOf } from '../database/bulk-write.js';
import { Database, queryRows } from '../database/database.js';
import { CHART_RANKING_JOIN, rankedPbColumns } from '../database/pb-rank.js';
import {
  folderCharts,
  folders,
  personalBests,
  recentFolderViews,
  scores,
  type FolderRow,
  type RecentFolderViewRow,
  type ScoreRow,
} from '../database/schema.js';
import type { GptSupport } from '../game-support/types.js';

/** How many of one folder's PBs have one lamp (or grade) index. */
export interface FolderEnumCount {
  folderID: string;
  metric: 'lamp' | 'grade';
  index: number;
  count: number;
}

/** One player's PBs and scores on folders, and the folders they viewed last (UGPT folder routes). */
@Injectable()
export class UgptFoldersRepository {
  constructor(private readonly database: Database) {}

  /** Each folder's chart count (folders without charts are left out). */
  async chartCounts(folderIDs: readonly string[]): Promise<Map<string, number>> {
    if (folderIDs.length === 0) return new Map();
    const rows = await this.database.db
      .select({ folderID: folderCharts.folderID, n: count() })
      .from(folderCharts)
      .where(anyOf(folderCharts.folderID, folderIDs))
      .groupBy(folderCharts.folderID);
    return new Map(rows.map((r) => [r.folderID, r.n]));
  }

  /** How many of the user's PBs on each folder's charts have each lamp index and each grade index, in one grouped read. */
  async enumCounts(userID: number, folderIDs: readonly string[]): Promise<FolderEnumCount[]> {
    if (folderIDs.length === 0) return [];
    const rows = await queryRows<{ folder_id: string; lamp_index: number | null; grade_index: number | null; n: number }>(
      this.database.db,
      sql`SELECT fc.folder_id, pb.lamp_index, pb.grade_index, count(*)::int AS n
        FROM ${folderCharts} fc
        JOIN ${personalBests} pb ON pb.chart_id = fc.chart_id AND pb.user_id = ${userID}
        WHERE ${anyOf(sql`fc.folder_id`, folderIDs)}
        GROUP BY GROUPING SETS ((fc.folder_id, pb.lamp_index), (fc.folder_id, pb.grade_index))`,
    );
    return rows.map((r) =>
      r.lamp_index !== null
        ? { folderID: r.folder_id, metric: 'lamp' as const, index: r.lamp_index, count: r.n }
        : { folderID: r.folder_id, metric: 'grade' as const, index: r.grade_index!, count: r.n },
    );
  }

  /** The user's PBs on the folder's charts, by song then chart. */
  pbsInFolder(userID: number, folderID: string) {
    return this.database.db
      .select(rankedPbColumns)
      .from(personalBests)
      .innerJoin(folderCharts, and(eq(folderCharts.chartID, personalBests.chartID), eq(folderCharts.folderID, folderID)))
      .leftJoin(...CHART_RANKING_JOIN)
      .where(eq(personalBests.userID, userID))
      .orderBy(asc(personalBests.songID), asc(personalBests.chartID));
  }

  /**
   * On each chart of the folder, the user's first score whose lamp (or grade) index reaches `index`
   * (the earliest timeAchieved; scores without one count as the latest, then by when they were
   * added), all sorted the same way: when the player reached the criterion on each chart.
   */
  async firstReaching(userID: number, folderID: string, metric: 'lamp' | 'grade', index: number): Promise<ScoreRow[]> {
    const column = metric === 'lamp' ? scores.lampIndex : scores.gradeIndex;
    const firsts = this.database.db
      .selectDistinctOn([scores.chartID])
      .from(scores)
      .innerJoin(folderCharts, and(eq(folderCharts.chartID, scores.chartID), eq(folderCharts.folderID, folderID)))
      .where(and(eq(scores.userID, userID), gte(column, index)))
      .orderBy(scores.chartID, sql`${scores.timeAchieved} ASC NULLS LAST`, asc(scores.timeAdded), asc(scores.scoreID));
    const rows = (await firsts).map((r) => r.scores);
    return rows.sort(
      (a, b) =>
        (a.timeAchieved ?? Number.MAX_SAFE_INTEGER) - (b.timeAchieved ?? Number.MAX_SAFE_INTEGER) ||
        a.timeAdded - b.timeAdded ||
        (a.scoreID < b.scoreID ? -1 : a.scoreID > b.scoreID ? 1 : 0),
    );
  }

  /** The user's latest folder views on a GPT, newest first. */
  recentViews(userID: number, gpt: GptSupport, limit: number): Promise<RecentFolderViewRow[]> {
    return this.database.db
      .select()
      .from(recentFolderViews)
      .where(and(eq(recentFolderViews.userID, userID), eq(recentFolderViews.game, gpt.game), eq(recentFolderViews.playtype, gpt.playtype)))
      .orderBy(desc(recentFolderViews.lastViewed), asc(recentFolderViews.folderID))
      .limit(limit);
  }

  /** The user's folder views on any GPT since `since` (inclusive), newest first (Tachi's recent summary). */
  recentViewsAnyGpt(userID: number, since: number, limit: number): Promise<RecentFolderViewRow[]> {
    return this.database.db
      .select()
      .from(recentFolderViews)
      .where(and(eq(recentFolderViews.userID, userID), gte(recentFolderViews.lastViewed, since)))
      .orderBy(desc(recentFolderViews.lastViewed), asc(recentFolderViews.folderID))
      .limit(limit);
  }

  /** Records a view of the folder (its time replaces an earlier view's) and forgets all but the user's `keep` latest on the GPT. */
  async recordView(userID: number, gpt: GptSupport, folderID: string, at: number, keep: number): Promise<void> {
    await this.database.transaction(async (tx) => {
      await tx
        .insert(recentFolderViews)
        .values({ userID, folderID, game: gpt.game, playtype: gpt.playtype, lastViewed: at })
        .onConflictDoUpdate({ target: [recentFolderViews.userID, recentFolderViews.folderID], set: { lastViewed: at } });
      const own = and(eq(recentFolderViews.userID, userID), eq(recentFolderViews.game, gpt.game), eq(recentFolderViews.playtype, gpt.playtype));
      const kept = tx
        .select({ folderID: recentFolderViews.folderID })
        .from(recentFolderViews)
        .where(own)
        .orderBy(desc(recentFolderViews.lastViewed), asc(recentFolderViews.folderID))
        .limit(keep);
      await tx.delete(recentFolderViews).where(and(own, notInArray(recentFolderViews.folderID, kept)));
    });
  }

  /** These folders (ids of no folder left out). */
  foldersByIds(folderIDs: readonly string[]): Promise<FolderRow[]> {
    if (folderIDs.length === 0) return Promise.resolve([]);
    return this.database.db
      .select()
      .from(folders)
      .where(inArray(folders.folderID, [...folderIDs]));
  }
}
