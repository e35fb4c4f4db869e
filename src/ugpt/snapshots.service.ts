import { Injectable } from '@nestjs/common';
import { eq, sql } from 'drizzle-orm';
import { ADVISORY_LOCK_NAMESPACE, Database, queryRows } from '../database/database.js';
import { gameStatsSnapshots, profileRatings, scores, userGameStats } from '../database/schema.js';
import { allGpts } from '../game-support/registry.js';

/** Advisory lock (key pair) held by whichever instance takes a day's snapshot. */
export const SNAPSHOT_LOCK = [ADVISORY_LOCK_NAMESPACE + 3, 0] as const;
const DAY_MS = 24 * 60 * 60 * 1000;

/** The UTC midnight that starts the day of `time`. */
export function utcMidnight(time: number): number {
  return Math.floor(time / DAY_MS) * DAY_MS;
}

export interface SnapshotResult {
  /** The UTC midnight the snapshot stands for. */
  timestamp: number;
  /** False when another instance held the lock: it is taking this snapshot. */
  taken: boolean;
  /** Rows written: every profile that had none for that day yet. */
  written: number;
}

/**
 * Daily UserGameStatsSnapshots: every profile's classes, ratings, playcount and rankings, all
 * written by one INSERT … SELECT. The rule is the live one (GameStatsRepository.rankingsForUser):
 * ranking = 1 + the players strictly better, so ties share a rank, and a player without a rating
 * ranks after every rated one (1 + the rated players). It is SQL rank() over every profile of the
 * GPT, ordered by the profile_ratings value DESC NULLS LAST. outOf is every player of the GPT.
 * Every profile has a ranking under every algorithm; `ranking` is the default algorithm's.
 */
@Injectable()
export class SnapshotsService {
  constructor(private readonly database: Database) {}

  /**
   * Takes the snapshot of the day of `at` (its UTC midnight). Idempotent: profiles that already
   * have that day's snapshot keep it. Only one instance at a time takes it: the others skip.
   */
  async take(at: number = Date.now()): Promise<SnapshotResult> {
    const timestamp = utcMidnight(at);
    const algs = allGpts().flatMap((g) =>
      Object.keys(g.profileRatingAlgs).map((alg) => ({ game: g.game, playtype: g.playtype, alg, is_default: alg === g.defaultProfileRatingAlg })),
    );
    return this.database.transaction(async (tx) => {
      const [lock] = await queryRows<{ locked: boolean }>(tx, sql`SELECT pg_try_advisory_xact_lock(${SNAPSHOT_LOCK[0]}, ${SNAPSHOT_LOCK[1]}) AS locked`);
      if (!lock.locked) return { timestamp, taken: false, written: 0 };
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
            rank() OVER (PARTITION BY s.game, s.playtype, a.alg ORDER BY r.value DESC NULLS LAST)::int AS ranking
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
          -- Inner: a profile of a GPT the registry no longer has gets no snapshot.
          JOIN rankings r ON r.user_id = s.user_id AND r.game = s.game AND r.playtype = s.playtype
          LEFT JOIN plays p ON p.user_id = s.user_id AND p.game = s.game AND p.playtype = s.playtype
          ON CONFLICT DO NOTHING
          RETURNING 1
        )
        SELECT count(*)::int AS written FROM inserted`,
      );
      return { timestamp, taken: true, written: row.written };
    });
  }

  /** Whether any profile has the snapshot of the day of `at`. */
  async exists(at: number = Date.now()): Promise<boolean> {
    const [row] = await this.database.db
      .select({ one: sql`1` })
      .from(gameStatsSnapshots)
      .where(eq(gameStatsSnapshots.timestamp, utcMidnight(at)))
      .limit(1);
    return row !== undefined;
  }
}
