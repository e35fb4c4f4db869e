import { Injectable } from '@nestjs/common';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { anyOf } from '../database/bulk-write.js';
import { Database, queryRows } from '../database/database.js';
import { folderCharts, folders, scores, sessions, type SessionRow } from '../database/schema.js';

/** What a user may change on their own session. */
export type SessionAnnotations = Partial<Pick<SessionRow, 'name' | 'desc' | 'highlighted'>>;

@Injectable()
export class SessionsRepository {
  constructor(private readonly database: Database) {}

  async findById(sessionID: string): Promise<SessionRow | undefined> {
    const [row] = await this.database.db.select().from(sessions).where(eq(sessions.sessionID, sessionID)).limit(1);
    return row;
  }

  findByIds(sessionIDs: readonly string[]): Promise<SessionRow[]> {
    if (sessionIDs.length === 0) return Promise.resolve([]);
    return this.database.db
      .select()
      .from(sessions)
      .where(inArray(sessions.sessionID, [...sessionIDs]));
  }

  async annotate(sessionID: string, changes: SessionAnnotations): Promise<SessionRow | undefined> {
    const [row] = await this.database.db.update(sessions).set(changes).where(eq(sessions.sessionID, sessionID)).returning();
    return row;
  }

  /** The sessions' scores with their values, in play order (by session). */
  members(sessionIDs: readonly string[]) {
    if (sessionIDs.length === 0) return Promise.resolve([]);
    return this.database.db
      .select({
        sessionID: sql<string>`${scores.sessionID}`,
        scoreID: scores.scoreID,
        chartID: scores.chartID,
        score: scores.score,
        percent: scores.percent,
        lampIndex: scores.lampIndex,
        gradeIndex: scores.gradeIndex,
      })
      .from(scores)
      .where(anyOf(scores.sessionID, sessionIDs))
      .orderBy(asc(scores.sessionID), asc(scores.timeAchieved), asc(scores.scoreID));
  }

  /**
   * For each session and each chart it has scores on, the best score, percent, lamp index and grade
   * index among the owner's scores on the chart achieved before the session started (each value on
   * its own, as a PB merges them); charts without such a score have no row.
   */
  async bestBefore(sessionIDs: readonly string[]) {
    if (sessionIDs.length === 0) return [];
    const rows = await queryRows<{ session_id: string; chart_id: string; score: number; percent: number; lamp_index: number; grade_index: number }>(
      this.database.db,
      sql`SELECT c.session_id, c.chart_id, max(p.score) AS score, max(p.percent) AS percent,
          max(p.lamp_index)::int AS lamp_index, max(p.grade_index)::int AS grade_index
        FROM (SELECT DISTINCT m.session_id, m.chart_id, m.user_id, se.time_started
              FROM ${scores} m JOIN ${sessions} se ON se.session_id = m.session_id
              WHERE ${anyOf(sql`m.session_id`, sessionIDs)}) c
        JOIN ${scores} p ON p.user_id = c.user_id AND p.chart_id = c.chart_id AND p.time_achieved < c.time_started
        GROUP BY c.session_id, c.chart_id`,
    );
    return rows.map((r) => ({
      sessionID: r.session_id,
      chartID: r.chart_id,
      score: Number(r.score),
      percent: Number(r.percent),
      lampIndex: r.lamp_index,
      gradeIndex: r.grade_index,
    }));
  }

  /** The active folders holding charts the session played, with which of those charts each holds. */
  async foldersPlayed(sessionID: string): Promise<{ folderID: string; chartID: string }[]> {
    return this.database.db
      .selectDistinct({ folderID: folderCharts.folderID, chartID: folderCharts.chartID })
      .from(scores)
      .innerJoin(folderCharts, eq(folderCharts.chartID, scores.chartID))
      .innerJoin(folders, eq(folders.folderID, folderCharts.folderID))
      .where(and(eq(scores.sessionID, sessionID), eq(folders.inactive, false)))
      .orderBy(asc(folderCharts.folderID), asc(folderCharts.chartID));
  }

  /** The user's best lamp and grade index on each chart of these folders among their scores achieved before `time` (charts without one: no row). */
  async bestInFoldersBefore(userID: number, folderIDs: readonly string[], time: number) {
    if (folderIDs.length === 0) return [];
    const rows = await queryRows<{ folder_id: string; chart_id: string; lamp_index: number; grade_index: number }>(
      this.database.db,
      sql`SELECT fc.folder_id, fc.chart_id, max(p.lamp_index)::int AS lamp_index, max(p.grade_index)::int AS grade_index
        FROM ${folderCharts} fc
        JOIN ${scores} p ON p.chart_id = fc.chart_id AND p.user_id = ${userID} AND p.time_achieved < ${time}
        WHERE ${anyOf(sql`fc.folder_id`, folderIDs)}
        GROUP BY fc.folder_id, fc.chart_id`,
    );
    return rows.map((r) => ({ folderID: r.folder_id, chartID: r.chart_id, lampIndex: r.lamp_index, gradeIndex: r.grade_index }));
  }
}
