import { Injectable } from '@nestjs/common';
import { and, asc, eq, gt, inArray } from 'drizzle-orm';
import { anyOf } from '../database/bulk-write.js';
import { Database, type Queryable, type Tx } from '../database/database.js';
import { charts, scores, songs, type ScoreRow } from '../database/schema.js';

/** A score with what names its chart in a batch-manual export. */
export interface ExportedScoreRow {
  score: ScoreRow;
  chart: { difficulty: string; isPrimary: boolean; inGameIDs: number[]; chartHashes: string[] };
  song: { id: number; title: string; artist: string };
}

/** What a user may change on their own score. */
export type ScoreAnnotations = Partial<Pick<ScoreRow, 'comment' | 'highlighted'>>;

const playOrder = [asc(scores.timeAchieved), asc(scores.scoreID)];

@Injectable()
export class ScoresRepository {
  constructor(private readonly database: Database) {}

  async findById(scoreID: string): Promise<ScoreRow | undefined> {
    const [row] = await this.database.db.select().from(scores).where(eq(scores.scoreID, scoreID)).limit(1);
    return row;
  }

  /** The score, its row locked until the transaction ends. */
  async lockById(scoreID: string, tx: Tx): Promise<ScoreRow | undefined> {
    const [row] = await tx.select().from(scores).where(eq(scores.scoreID, scoreID)).for('update');
    return row;
  }

  /** The users who have a score on this chart. */
  async usersWithScoresOn(chartID: string): Promise<number[]> {
    const rows = await this.database.db.selectDistinct({ userID: scores.userID }).from(scores).where(eq(scores.chartID, chartID));
    return rows.map((r) => r.userID);
  }

  /** The scores of these ids, in play order. */
  findByIds(scoreIDs: readonly string[], q: Queryable = this.database.db): Promise<ScoreRow[]> {
    if (scoreIDs.length === 0) return Promise.resolve([]);
    return q
      .select()
      .from(scores)
      .where(anyOf(scores.scoreID, scoreIDs))
      .orderBy(...playOrder);
  }

  /** A session's scores in play order. */
  inSession(sessionID: string): Promise<ScoreRow[]> {
    return this.database.db
      .select()
      .from(scores)
      .where(eq(scores.sessionID, sessionID))
      .orderBy(...playOrder);
  }

  /** The score ids of these sessions, each session's in play order. */
  sessionMembers(sessionIDs: readonly string[]): Promise<{ sessionID: string | null; scoreID: string }[]> {
    if (sessionIDs.length === 0) return Promise.resolve([]);
    return this.database.db
      .select({ sessionID: scores.sessionID, scoreID: scores.scoreID })
      .from(scores)
      .where(inArray(scores.sessionID, [...sessionIDs]))
      .orderBy(...playOrder);
  }

  async annotate(scoreID: string, changes: ScoreAnnotations, q: Queryable): Promise<ScoreRow | undefined> {
    const [row] = await q.update(scores).set(changes).where(eq(scores.scoreID, scoreID)).returning();
    return row;
  }

  /** Up to `limit` of the user's scores on the GPT after `afterScoreID`, by scoreID (keyset pages for a streamed export). */
  exportPage(userID: number, game: string, playtype: string, afterScoreID: string | null, limit: number): Promise<ExportedScoreRow[]> {
    return this.database.db
      .select({
        score: scores,
        chart: { difficulty: charts.difficulty, isPrimary: charts.isPrimary, inGameIDs: charts.inGameIDs, chartHashes: charts.chartHashes },
        song: { id: songs.id, title: songs.title, artist: songs.artist },
      })
      .from(scores)
      .innerJoin(charts, eq(charts.chartID, scores.chartID))
      .innerJoin(songs, and(eq(songs.game, charts.game), eq(songs.id, charts.songID)))
      .where(
        and(
          eq(scores.userID, userID),
          eq(scores.game, game),
          eq(scores.playtype, playtype),
          afterScoreID === null ? undefined : gt(scores.scoreID, afterScoreID),
        ),
      )
      .orderBy(asc(scores.scoreID))
      .limit(limit);
  }
}
