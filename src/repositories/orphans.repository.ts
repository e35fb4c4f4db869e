import { Injectable } from '@nestjs/common';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { Database } from '../database/database.js';
import { orphanScores } from '../database/schema.js';

export type OrphanRow = typeof orphanScores.$inferSelect;

@Injectable()
export class OrphansRepository {
  constructor(private readonly database: Database) {}

  /** The users who have orphans of any of these games. */
  async usersWithOrphansOf(games: readonly string[]): Promise<number[]> {
    const rows = await this.database.db
      .selectDistinct({ userID: orphanScores.userID })
      .from(orphanScores)
      .where(inArray(orphanScores.game, [...games]));
    return rows.map((r) => r.userID);
  }

  /** The user's orphans, or only those of these games. */
  ofUser(userID: number, games?: readonly string[]): Promise<OrphanRow[]> {
    return this.database.db
      .select()
      .from(orphanScores)
      .where(and(eq(orphanScores.userID, userID), games ? inArray(orphanScores.game, [...games]) : undefined));
  }

  /**
   * When the user last sent this score element (its timeAchieved apart) through this import type
   * as an orphan, since `since`: a hook that stamps the receive time uses it to tell a re-sent play
   * from a new one.
   */
  async latestEqualOrphan(userID: number, importType: string, element: Record<string, unknown>, since: number): Promise<number | undefined> {
    const time = sql<number>`(${orphanScores.data} ->> 'timeAchieved')::bigint`;
    const { timeAchieved: _, ...content } = element;
    const [row] = await this.database.db
      .select({ time: sql<number | null>`max(${time})`.mapWith(Number) })
      .from(orphanScores)
      .where(
        and(
          eq(orphanScores.userID, userID),
          eq(orphanScores.importType, importType),
          sql`${orphanScores.data} - 'timeAchieved' = ${JSON.stringify(content)}::jsonb`,
          sql`${time} >= ${since}`,
        ),
      );
    return row?.time ?? undefined;
  }
}
