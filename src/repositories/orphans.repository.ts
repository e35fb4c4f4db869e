import { Injectable } from '@nestjs/common';
import { and, eq, inArray } from 'drizzle-orm';
import { Database } from '../database/database.js';
import { orphanScores, type OrphanRow } from '../database/schema.js';

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
}
