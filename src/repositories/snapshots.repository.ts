import { Injectable } from '@nestjs/common';
import { and, desc, eq, sql } from 'drizzle-orm';
import { ADVISORY_LOCK_NAMESPACE, Database, queryRows } from '../database/database.js';
import { profileRankingWindow } from '../database/ranking.js';
import { gameStatsSnapshots, profileRatings, scores, userGameStats } from '../database/schema.js';

/** Advisory lock (key pair) held by whichever instance takes a day's snapshot. */
export const SNAPSHOT_LOCK = [ADVISORY_LOCK_NAMESPACE + 3, 0] as const;

/** A GPT's profile rating algorithm, and whether it is the GPT's default. */
export interface SnapshotAlg {
  game: string;
  playtype: string;
  alg: string;
  is_default: boolean;
}

/** The daily UserGameStatsSnapshots (game_stats_snapshots). */
@Injectable()
export class SnapshotsRepository {
  constructor(private readonly database: Database) {}

  /**
   * Writes the snapshot of `timestamp` for every profile of a GPT in `algs` that has none for it
   * yet, in one INSERT … SELECT: classes, ratings, playcount, and the ranking (database/ranking.ts)
   * under each algorithm with outOf = every player of the GPT; `ranking` is the default
   * algorithm's. Returns null, writing nothing, when another transaction holds SNAPSHOT_LOCK.
   */
  async insertDaily(timestamp: number, algs: readonly SnapshotAlg[]): Promise<number | null> {
    return this.database.transaction(async (tx) => {
      const [lock] = await queryRows<{ locked: boolean }>(tx, sql`SELECT pg_try_advisory_xact_lock(${SNAPSHOT_LOCK[0]}, ${SNAPSHOT_LOCK[1]}) AS locked`);
      if (!lock.locked) return null;
      const [row] = await queryRows<{ written: number }>(
        tx,
        sql`
        WITH algs AS (
          SELECT * FROM jsonb_to_recordset(${JSON.stringify(algs)}::jsonb) AS a(game text, playtype text, alg text, is_default boolean)
        ),
        field AS (
          SELECT game, playtype, count(*)::int AS out_of FROM ${userGameStats} GROUP BY game, playtype
        ),
        ranked AS (
          SELECT s.user_id, s.game, s.playtype, a.alg, a.is_default,
            ${profileRankingWindow(sql`s.game, s.playtype, a.alg`, sql`r.value`)} AS ranking
          FROM ${userGameStats} s
          JOIN algs a ON a.game = s.game AND a.playtype = s.playtype
          LEFT JOIN ${profileRatings} r ON r.user_id = s.user_id AND r.game = s.game AND r.playtype = s.playtype AND r.alg = a.alg
        ),
        rankings AS (
          SELECT r.user_id, r.game, r.playtype,
            jsonb_object_agg(r.alg, jsonb_build_object('ranking', r.ranking, 'outOf', f.out_of)) AS rankings,
            max(r.ranking) FILTER (WHERE r.is_default) AS ranking
          FROM ranked r JOIN field f ON f.game = r.game AND f.playtype = r.playtype
          GROUP BY r.user_id, r.game, r.playtype
        ),
        plays AS (
          SELECT user_id, game, playtype, count(*)::int AS playcount FROM ${scores} GROUP BY user_id, game, playtype
        ),
        inserted AS (
          INSERT INTO ${gameStatsSnapshots} (user_id, game, playtype, timestamp, classes, ratings, playcount, ranking, rankings)
          SELECT s.user_id, s.game, s.playtype, ${timestamp}::bigint, s.classes, s.ratings,
            coalesce(p.playcount, 0), r.ranking, r.rankings
          FROM ${userGameStats} s
          -- Inner: a profile of a GPT not in algs gets no snapshot.
          JOIN rankings r ON r.user_id = s.user_id AND r.game = s.game AND r.playtype = s.playtype
          LEFT JOIN plays p ON p.user_id = s.user_id AND p.game = s.game AND p.playtype = s.playtype
          ON CONFLICT DO NOTHING
          RETURNING 1
        )
        SELECT count(*)::int AS written FROM inserted`,
      );
      return row.written;
    });
  }

  /** Whether any profile has the snapshot of `timestamp`. */
  async exists(timestamp: number): Promise<boolean> {
    const [row] = await this.database.db
      .select({ one: sql`1` })
      .from(gameStatsSnapshots)
      .where(eq(gameStatsSnapshots.timestamp, timestamp))
      .limit(1);
    return row !== undefined;
  }

  /** A user's snapshots on a GPT, newest first. */
  history(userID: number, game: string, playtype: string, limit: number) {
    return this.database.db
      .select()
      .from(gameStatsSnapshots)
      .where(and(eq(gameStatsSnapshots.userID, userID), eq(gameStatsSnapshots.game, game), eq(gameStatsSnapshots.playtype, playtype)))
      .orderBy(desc(gameStatsSnapshots.timestamp))
      .limit(limit);
  }
}
