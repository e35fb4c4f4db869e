import { Injectable } from '@nestjs/common';
import { and, asc, count, desc, eq, getTableColumns, like, ne, sql, type SQL } from 'drizzle-orm';
import { CHART_RANKING_JOIN, chartIsDirty, chartPagePbColumns, rankedPbColumns, RANKING_ORDER, readChartPage } from '../database/pb-rank.js';
import { aliasedColumns, Database, queryRows, readStatement } from '../database/database.js';
import { containsPattern } from '../database/like.js';
import { bestRatingFirst, betterThan, profileRanking } from '../database/ranking.js';
import {
  charts,
  classAchievements,
  pbRatings,
  personalBests,
  profileRatings,
  scores,
  userGameStats,
  users,
  type GameStatsRow,
  type PbReadRow,
  type UserRow,
} from '../database/schema.js';
import type { GptSupport } from '../game-support/types.js';

/** A PB of a chart page with its owner's row (a page's answer names its players: read in the same statement). */
export interface ChartPageEntry {
  pb: PbReadRow;
  owner: UserRow;
}

/** The owner's columns of a page's flat row, as `owner.<field>`. */
const PAGE_OWNER = aliasedColumns(Object.fromEntries(Object.entries(getTableColumns(users)).map(([field, column]) => [`owner.${field}`, column])));

/**
 * $1 chart, $2 first rank, $3 limit: readChartPage's page by stored rank (pbs_chart_rank_idx),
 * with whether the chart was dirty in the same snapshot, and each PB's owner.
 */
const PAGE_PB = chartPagePbColumns(sql.raw('$1'));
const CHART_PAGE_BY_RANK = readStatement<Record<string, unknown>>(
  'chart_pbs_by_rank_with_owners',
  sql`SELECT ${aliasedColumns({ ...PAGE_PB, outOf: sql`(${PAGE_PB.outOf})::int` })},
      ${chartIsDirty(sql.raw('$1'))} AS dirty, ${PAGE_OWNER}
    FROM ${personalBests} JOIN ${users} ON ${users.id} = ${personalBests.userID}
    WHERE ${personalBests.chartID} = $1 AND ${personalBests.rank} >= $2 ORDER BY ${personalBests.rank} LIMIT $3`,
);

/** Splits a CHART_PAGE_BY_RANK row into its PB, its owner and the chart's dirty flag. */
function pageEntry(row: Record<string, unknown>): ChartPageEntry & { dirty: boolean } {
  const pb: Record<string, unknown> = {};
  const owner: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) {
    if (key.startsWith('owner.')) owner[key.slice(6)] = value;
    else if (key !== 'dirty') pb[key] = value;
  }
  return { pb: pb as unknown as PbReadRow, owner: owner as unknown as UserRow, dirty: row.dirty as boolean };
}

/** The GPT's rated profiles ($1 game, $2 playtype, $3 profile rating algorithm) with their game stats, on profile_ratings' index. */
const RATED_PROFILES = sql`${profileRatings} JOIN ${userGameStats} ON ${userGameStats.userID} = ${profileRatings.userID}
    AND ${userGameStats.game} = ${profileRatings.game} AND ${userGameStats.playtype} = ${profileRatings.playtype}
  WHERE ${profileRatings.game} = $1 AND ${profileRatings.playtype} = $2 AND ${profileRatings.alg} = $3`;
const STATS_SELECT = aliasedColumns(getTableColumns(userGameStats));
const MINE = sql.raw('$4::float8');

/** RATED_PROFILES strictly better than $4 (every one when null), the closest $5 first. */
const PROFILES_ABOVE = readStatement<GameStatsRow>(
  'gpt_profiles_above',
  sql`SELECT ${STATS_SELECT} FROM ${RATED_PROFILES} AND ${betterThan(profileRatings.value, MINE)}
    ORDER BY ${profileRatings.value} ASC NULLS FIRST, ${profileRatings.userID} DESC LIMIT $5`,
);

/** RATED_PROFILES rated $4 or under but $5, best first, at most $6. */
const PROFILES_BELOW = readStatement<GameStatsRow>(
  'gpt_profiles_below',
  sql`SELECT ${STATS_SELECT} FROM ${RATED_PROFILES} AND ${profileRatings.value} <= ${MINE} AND ${profileRatings.userID} <> $5
    ORDER BY ${bestRatingFirst(profileRatings.value)}, ${profileRatings.userID} LIMIT $6`,
);

/** The ranking of a player rated $4 on the GPT's algorithm, and every player of the GPT. */
const STANDING = readStatement<{ ranking: number; outOf: number }>(
  'gpt_profile_standing',
  sql`SELECT ${profileRanking({ game: sql.raw('$1'), playtype: sql.raw('$2'), alg: sql.raw('$3') }, MINE)} AS ranking,
    (SELECT count(*)::int FROM ${userGameStats} WHERE ${userGameStats.game} = $1 AND ${userGameStats.playtype} = $2) AS "outOf"`,
);

/** The reads behind the GPT leaderboards (spec 4.5). */
@Injectable()
export class GptLeaderboardsRepository {
  constructor(private readonly database: Database) {}

  /** How many scores, players and charts the GPT has. */
  async counts(gpt: GptSupport): Promise<{ scoreCount: number; playerCount: number; chartCount: number }> {
    const [row] = await queryRows<{ score_count: number; player_count: number; chart_count: number }>(
      this.database.db,
      sql`SELECT
        (SELECT count(*)::int FROM ${scores} WHERE ${scores.game} = ${gpt.game} AND ${scores.playtype} = ${gpt.playtype}) AS score_count,
        (SELECT count(*)::int FROM ${userGameStats} WHERE ${userGameStats.game} = ${gpt.game} AND ${userGameStats.playtype} = ${gpt.playtype}) AS player_count,
        (SELECT count(*)::int FROM ${charts} WHERE ${charts.game} = ${gpt.game} AND ${charts.playtype} = ${gpt.playtype}) AS chart_count`,
    );
    return { scoreCount: row.score_count, playerCount: row.player_count, chartCount: row.chart_count };
  }

  /**
   * Profiles of the GPT by a profile rating, best first (bestRatingFirst), ties by user id, read
   * in order from profile_ratings' index; players without a value follow, by user id.
   */
  async leaderboard(gpt: GptSupport, alg: string, limit: number): Promise<GameStatsRow[]> {
    const rated = await this.rated(gpt, alg).orderBy(bestRatingFirst(profileRatings.value), asc(profileRatings.userID)).limit(limit);
    if (rated.length === limit) return rated.map((r) => r.stats);
    return [...rated.map((r) => r.stats), ...(await this.unrated(gpt, alg, limit - rated.length))];
  }

  /**
   * The leaderboard's players strictly better than `mine` (every rated one when mine is null):
   * the closest `limit`, best first. Read backwards from just above, on profile_ratings' index.
   */
  async above(gpt: GptSupport, alg: string, mine: number | null, limit: number): Promise<GameStatsRow[]> {
    return (await this.database.read(PROFILES_ABOVE, [gpt.game, gpt.playtype, alg, mine, limit])).reverse();
  }

  /**
   * The leaderboard's players from `mine` down but `userID`, best first: the rated at or under
   * mine (ties go below), then the unrated, who come last.
   */
  async below(gpt: GptSupport, alg: string, mine: number | null, userID: number, limit: number): Promise<GameStatsRow[]> {
    const rated = mine === null ? [] : await this.database.read(PROFILES_BELOW, [gpt.game, gpt.playtype, alg, mine, userID, limit]);
    if (rated.length === limit) return rated;
    return [...rated, ...(await this.unrated(gpt, alg, limit - rated.length, userID))];
  }

  /** A player's ranking by the rating `mine` (see database/ranking.ts), and outOf: every player of the GPT. One round trip. */
  async standing(gpt: GptSupport, alg: string, mine: number | null): Promise<{ ranking: number; outOf: number }> {
    return (await this.database.read(STANDING, [gpt.game, gpt.playtype, alg, mine]))[0];
  }

  /** The rated profiles of the GPT under an algorithm (and `where`), each with its game stats: ranges of profile_ratings' index. */
  private rated(gpt: GptSupport, alg: string, where?: SQL) {
    return this.database.db
      .select({ stats: userGameStats })
      .from(profileRatings)
      .innerJoin(
        userGameStats,
        and(eq(userGameStats.userID, profileRatings.userID), eq(userGameStats.game, profileRatings.game), eq(userGameStats.playtype, profileRatings.playtype)),
      )
      .where(and(eq(profileRatings.game, gpt.game), eq(profileRatings.playtype, gpt.playtype), eq(profileRatings.alg, alg), where))
      .$dynamic();
  }

  /** Profiles of the GPT without a value under the algorithm (but `exceptUserID`), by user id. */
  private unrated(gpt: GptSupport, alg: string, limit: number, exceptUserID?: number): Promise<GameStatsRow[]> {
    return this.database.db
      .select()
      .from(userGameStats)
      .where(
        and(
          eq(userGameStats.game, gpt.game),
          eq(userGameStats.playtype, gpt.playtype),
          exceptUserID === undefined ? undefined : ne(userGameStats.userID, exceptUserID),
          sql`NOT EXISTS (SELECT 1 FROM ${profileRatings} r WHERE r.user_id = ${userGameStats.userID} AND r.game = ${gpt.game} AND r.playtype = ${gpt.playtype} AND r.alg = ${alg})`,
        ),
      )
      .orderBy(asc(userGameStats.userID))
      .limit(limit);
  }

  /**
   * PBs on a chart from a rank on, by rank (ranks are unique per chart; see readChartPage), each
   * with its owner. The page by stored rank, which serves every clean chart, is a prepared statement.
   */
  chartPbs(chartID: string, startRanking: number, limit: number): Promise<ChartPageEntry[]> {
    return readChartPage(startRanking, async ({ by, where, orderBy, offset }) => {
      if (by === 'rank') return (await this.database.read(CHART_PAGE_BY_RANK, [chartID, startRanking, limit])).map(pageEntry);
      return this.database.db
        .select({ pb: chartPagePbColumns(chartID), dirty: chartIsDirty(chartID), owner: users })
        .from(personalBests)
        .innerJoin(users, eq(users.id, personalBests.userID))
        .where(and(eq(personalBests.chartID, chartID), where))
        .orderBy(...orderBy)
        .offset(offset)
        .limit(limit);
    });
  }

  /** Players of the GPT (a profile on it) whose username contains the text (case-insensitive): the exact username first, then by user id. */
  async playersByUsername(gpt: GptSupport, search: string, limit: number): Promise<UserRow[]> {
    const lowered = search.toLowerCase();
    const rows = await this.database.db
      .select({ user: users })
      .from(userGameStats)
      .innerJoin(users, eq(users.id, userGameStats.userID))
      .where(and(eq(userGameStats.game, gpt.game), eq(userGameStats.playtype, gpt.playtype), like(users.usernameLowercase, containsPattern(lowered))))
      .orderBy(desc(sql`${users.usernameLowercase} = ${lowered}`), asc(users.id))
      .limit(limit);
    return rows.map((r) => r.user);
  }

  /**
   * PBs on a chart whose owner's username contains the text (case-insensitive): the exact
   * username first, then by rank.
   */
  async chartPbsByUsername(chartID: string, search: string, limit: number) {
    const lowered = search.toLowerCase();
    const rows = await this.database.db
      .select({ pb: rankedPbColumns })
      .from(personalBests)
      .innerJoin(users, eq(users.id, personalBests.userID))
      .leftJoin(...CHART_RANKING_JOIN)
      .where(and(eq(personalBests.chartID, chartID), like(users.usernameLowercase, containsPattern(lowered))))
      .orderBy(desc(sql`${users.usernameLowercase} = ${lowered}`), ...RANKING_ORDER)
      .limit(limit);
    return rows.map((r) => r.pb);
  }

  /** The GPT's PBs by a score rating, best first, read from pb_ratings' (game, playtype, alg, value) index. */
  async bestPbs(gpt: GptSupport, alg: string, limit: number) {
    const rows = await this.database.db
      .select({ pb: rankedPbColumns })
      .from(pbRatings)
      .innerJoin(personalBests, and(eq(personalBests.userID, pbRatings.userID), eq(personalBests.chartID, pbRatings.chartID)))
      .leftJoin(...CHART_RANKING_JOIN)
      .where(and(eq(pbRatings.game, gpt.game), eq(pbRatings.playtype, gpt.playtype), eq(pbRatings.alg, alg)))
      // NULLS LAST as in the index (value is never null), or PostgreSQL sorts every row instead
      .orderBy(sql`${pbRatings.value} DESC NULLS LAST`, asc(pbRatings.userID), asc(pbRatings.chartID))
      .limit(limit);
    return rows.map((r) => r.pb);
  }

  /** How many of the GPT's players hold each value of a class set (players without one are not counted). */
  async classDistribution(gpt: GptSupport, classSet: string): Promise<Map<string, number>> {
    const value = sql<string>`${userGameStats.classes} ->> ${classSet}`;
    const rows = await this.database.db
      .select({ value, players: count() })
      .from(userGameStats)
      .where(and(eq(userGameStats.game, gpt.game), eq(userGameStats.playtype, gpt.playtype), sql`${value} IS NOT NULL`))
      .groupBy(sql`1`);
    return new Map(rows.map((r) => [r.value, r.players]));
  }

  /** The GPT's latest class achievements, newest first. */
  recentClassAchievements(gpt: GptSupport, limit: number) {
    return this.database.db
      .select()
      .from(classAchievements)
      .where(and(eq(classAchievements.game, gpt.game), eq(classAchievements.playtype, gpt.playtype)))
      .orderBy(desc(classAchievements.timeAchieved), desc(classAchievements.id))
      .limit(limit);
  }

  /** The GPT's highlighted scores, most recently achieved first (scores without a time last), then most recently added. */
  highlightedScores(gpt: GptSupport, limit: number) {
    return (
      this.database.db
        .select()
        .from(scores)
        // The shapes of the predicate and order match scores_gpt_highlighted_time_idx, so it is read in order.
        .where(and(eq(scores.game, gpt.game), eq(scores.playtype, gpt.playtype), sql`${scores.highlighted}`))
        .orderBy(sql`${scores.timeAchieved} DESC NULLS LAST`, sql`${scores.timeAdded} DESC NULLS LAST`, asc(scores.scoreID))
        .limit(limit)
    );
  }
}
