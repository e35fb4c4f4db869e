import { BadRequestException, Injectable } from '@nestjs/common';
import { and, asc, desc, eq, ne, sql, type SQL } from 'drizzle-orm';
import { anyOf } from '../database/bulk-write.js';
import { Database, queryRows } from '../database/database.js';
import { gameStatsSnapshots, profileRatings, userGameStats, users } from '../database/schema.js';
import type { GptSupport } from '../game-support/types.js';
import { toUserDocument } from '../presenters/user.presenter.js';
import { toGameStatsDocument, type GameStatsSnapshotDocument } from '../presenters/game-stats.presenter.js';
import type { LeaderboardAdjacentResponse } from './dto/ugpt.responses.js';
import type { UgptContext } from './ugpt.guard.js';

/** Spec part 8: up to 5 players above and 5 below. */
export const ADJACENT_LIMIT = 5;
/** Spec part 8: snapshot history holds up to 90. */
export const HISTORY_LIMIT = 90;

export function profileAlgOrThrow(gpt: GptSupport, alg: string | undefined): string {
  const name = alg ?? gpt.defaultProfileRatingAlg;
  if (!Object.hasOwn(gpt.profileRatingAlgs, name)) {
    throw new BadRequestException(
      `Invalid alg '${name}'. Profile rating algorithms of ${gpt.game} ${gpt.playtype}: ${Object.keys(gpt.profileRatingAlgs).join(', ')}.`,
    );
  }
  return name;
}

/**
 * Where a user stands among the GPT's players: the neighbours on the leaderboard and the daily
 * history. The leaderboard order is the GPT leaderboard's: rating descending, players without a
 * rating last (a null rating counts as below every value), ties by user id.
 */
@Injectable()
export class UgptStandingService {
  constructor(private readonly database: Database) {}

  /**
   * above: up to 5 players strictly better, the closest 5, best first. below: up to 5 players
   * rated the same or worse (ties go below), best first. ranking = 1 + the players strictly
   * better (ties share it), outOf = every player of the GPT. Each query is a range of one
   * (game, playtype, rating) order, so an index on that order serves it (see the orders below).
   */
  async leaderboardAdjacent({ user, gpt, stats }: UgptContext, alg: string | undefined): Promise<LeaderboardAdjacentResponse> {
    const name = profileAlgOrThrow(gpt, alg);
    const mine = stats.ratings[name] ?? null;
    const db = this.database.db;
    const ratingsOfGpt = and(eq(profileRatings.game, gpt.game), eq(profileRatings.playtype, gpt.playtype), eq(profileRatings.alg, name))!;
    const better: SQL | undefined = mine === null ? undefined : sql`${profileRatings.value} > ${mine}`;
    const statsOf = and(eq(userGameStats.userID, profileRatings.userID), eq(userGameStats.game, profileRatings.game), eq(userGameStats.playtype, profileRatings.playtype));
    const gptRows = and(eq(userGameStats.game, gpt.game), eq(userGameStats.playtype, gpt.playtype))!;

    // Each read is a range of profile_ratings' (game, playtype, alg, value, user_id) index.
    // Above: the leaderboard order backwards, from just above this player.
    const aboveClosestFirst = (
      await db
        .select({ stats: userGameStats })
        .from(profileRatings)
        .innerJoin(userGameStats, statsOf)
        .where(and(ratingsOfGpt, better))
        .orderBy(sql`${profileRatings.value} ASC NULLS FIRST`, desc(profileRatings.userID))
        .limit(ADJACENT_LIMIT)
    ).map((r) => r.stats);
    // Below: the rated at or under this player (ties go below), then the unrated, who come last.
    const ratedBelow =
      mine === null
        ? []
        : (
            await db
              .select({ stats: userGameStats })
              .from(profileRatings)
              .innerJoin(userGameStats, statsOf)
              .where(and(ratingsOfGpt, sql`${profileRatings.value} <= ${mine}`, ne(profileRatings.userID, user.id)))
              .orderBy(sql`${profileRatings.value} DESC NULLS LAST`, asc(profileRatings.userID))
              .limit(ADJACENT_LIMIT)
          ).map((r) => r.stats);
    const unratedBelow =
      ratedBelow.length < ADJACENT_LIMIT
        ? await db
            .select()
            .from(userGameStats)
            .where(
              and(
                gptRows,
                ne(userGameStats.userID, user.id),
                sql`NOT EXISTS (SELECT 1 FROM ${profileRatings} r WHERE r.user_id = ${userGameStats.userID} AND r.game = ${gpt.game} AND r.playtype = ${gpt.playtype} AND r.alg = ${name})`,
              ),
            )
            .orderBy(asc(userGameStats.userID))
            .limit(ADJACENT_LIMIT - ratedBelow.length)
        : [];
    // Both counts in one statement: one round trip.
    const [{ strictlyBetter, outOf }] = await queryRows<{ strictlyBetter: number; outOf: number }>(
      db,
      sql`SELECT
        (SELECT count(*)::int FROM ${profileRatings} WHERE ${and(ratingsOfGpt, better)}) AS "strictlyBetter",
        (SELECT count(*)::int FROM ${userGameStats} WHERE ${gptRows}) AS "outOf"`,
    );

    const above = aboveClosestFirst.reverse();
    const below = [...ratedBelow, ...unratedBelow];
    const ids = [...above, ...below].map((s) => s.userID).concat(user.id);
    const userRows = await db.select().from(users).where(anyOf(users.id, ids));
    const byID = new Map(userRows.map((u) => [u.id, u]));
    return {
      above: above.map(toGameStatsDocument),
      below: below.map(toGameStatsDocument),
      users: ids.flatMap((id) => (byID.has(id) ? [toUserDocument(byID.get(id)!)] : [])),
      thisUsersStats: toGameStatsDocument(stats),
      thisUsersRanking: { ranking: 1 + strictlyBetter, outOf },
    };
  }

  /** The daily snapshots, newest first (spec UserGameStatsSnapshot). */
  async history({ user, gpt }: UgptContext): Promise<GameStatsSnapshotDocument[]> {
    return this.database.db
      .select({
        classes: gameStatsSnapshots.classes,
        ratings: gameStatsSnapshots.ratings,
        timestamp: gameStatsSnapshots.timestamp,
        playcount: gameStatsSnapshots.playcount,
        ranking: gameStatsSnapshots.ranking,
      })
      .from(gameStatsSnapshots)
      .where(and(eq(gameStatsSnapshots.userID, user.id), eq(gameStatsSnapshots.game, gpt.game), eq(gameStatsSnapshots.playtype, gpt.playtype)))
      .orderBy(desc(gameStatsSnapshots.timestamp))
      .limit(HISTORY_LIMIT);
  }
}
