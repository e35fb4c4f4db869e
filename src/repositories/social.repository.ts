import { Injectable } from '@nestjs/common';
import { and, asc, count, desc, eq, gte, inArray, isNotNull, lt, sql, type SQL } from 'drizzle-orm';
import { Database } from '../database/database.js';
import { CHART_RANKING_JOIN, RANKING_ORDER, rankedPbColumns } from '../database/pb-rank.js';
import {
  classAchievements,
  follows,
  goalSubs,
  pbRatings,
  personalBests,
  questSubs,
  rivals,
  scores,
  sessions,
  userGameStats,
  users,
  type ClassAchievementRow,
  type GoalSubRow,
  type QuestSubRow,
  type ScoreRow,
  type SessionRow,
} from '../database/schema.js';

/** Which sessions an activity feed covers: every user's, a GPT's, a set of users' (on one GPT or all). */
export interface ActivityFilter {
  game?: string;
  playtype?: string;
  /** Only these users' activity; undefined: everyone's. */
  userIDs?: readonly number[];
}

/** Rivals (per user and GPT) and following (site-wide), and the activity feeds read from sessions and class raises. */
@Injectable()
export class SocialRepository {
  constructor(private readonly database: Database) {}

  /** The user's rivals on the GPT, earliest set first. */
  async rivalIDs(userID: number, game: string, playtype: string): Promise<number[]> {
    const rows = await this.database.db
      .select({ id: rivals.rivalID })
      .from(rivals)
      .where(and(eq(rivals.userID, userID), eq(rivals.game, game), eq(rivals.playtype, playtype)))
      .orderBy(asc(rivals.since), asc(rivals.rivalID));
    return rows.map((r) => r.id);
  }

  /** The user's rivals on every GPT. */
  async allRivalIDs(userID: number): Promise<number[]> {
    const rows = await this.database.db.selectDistinct({ id: rivals.rivalID }).from(rivals).where(eq(rivals.userID, userID));
    return rows.map((r) => r.id);
  }

  /** Who has the user as a rival on the GPT (through the rival_id index). */
  async challengerIDs(userID: number, game: string, playtype: string): Promise<number[]> {
    const rows = await this.database.db
      .select({ id: rivals.userID })
      .from(rivals)
      .where(and(eq(rivals.rivalID, userID), eq(rivals.game, game), eq(rivals.playtype, playtype)))
      .orderBy(asc(rivals.since), asc(rivals.userID));
    return rows.map((r) => r.id);
  }

  /** Of these users, those with a profile on the GPT. */
  async playedGpt(userIDs: readonly number[], game: string, playtype: string): Promise<Set<number>> {
    if (userIDs.length === 0) return new Set();
    const rows = await this.database.db
      .select({ id: userGameStats.userID })
      .from(userGameStats)
      .where(and(inArray(userGameStats.userID, [...userIDs]), eq(userGameStats.game, game), eq(userGameStats.playtype, playtype)));
    return new Set(rows.map((r) => r.id));
  }

  /** Replaces the user's rivals on the GPT (rivals kept keep their `since`); returns the ones newly added. */
  replaceRivals(userID: number, game: string, playtype: string, rivalIDs: readonly number[], now: number): Promise<number[]> {
    return this.database.transaction(async (tx) => {
      const own = and(eq(rivals.userID, userID), eq(rivals.game, game), eq(rivals.playtype, playtype));
      const before = new Set((await tx.select({ id: rivals.rivalID }).from(rivals).where(own).for('update')).map((r) => r.id));
      const removed = [...before].filter((id) => !rivalIDs.includes(id));
      if (removed.length) await tx.delete(rivals).where(and(own, inArray(rivals.rivalID, removed)));
      const added = rivalIDs.filter((id) => !before.has(id));
      if (added.length) await tx.insert(rivals).values(added.map((rivalID) => ({ userID, game, playtype, rivalID, since: now })));
      return added;
    });
  }

  /** Whom the user follows, earliest first. */
  async followingIDs(userID: number): Promise<number[]> {
    const rows = await this.database.db
      .select({ id: follows.followedID })
      .from(follows)
      .where(eq(follows.userID, userID))
      .orderBy(asc(follows.since), asc(follows.followedID));
    return rows.map((r) => r.id);
  }

  /**
   * Follows the user unless already followed or at the limit, in one transaction. The follower's
   * user row is locked first (FOR NO KEY UPDATE: follows' foreign keys still take their key-share
   * locks), so two follows by one user run one after the other and cannot pass the limit together,
   * even when the user follows nobody yet and there is no follows row to lock.
   */
  follow(userID: number, followedID: number, limit: number, now: number): Promise<'followed' | 'already' | 'limit'> {
    return this.database.transaction(async (tx) => {
      await tx.select({ id: users.id }).from(users).where(eq(users.id, userID)).for('no key update');
      const current = (await tx.select({ id: follows.followedID }).from(follows).where(eq(follows.userID, userID)).for('update')).map((r) => r.id);
      if (current.includes(followedID)) return 'already';
      if (current.length >= limit) return 'limit';
      const inserted = await tx.insert(follows).values({ userID, followedID, since: now }).onConflictDoNothing().returning();
      return inserted.length ? 'followed' : 'already';
    });
  }

  /** Unfollows; false when the user was not followed. */
  async unfollow(userID: number, followedID: number): Promise<boolean> {
    const deleted = await this.database.db
      .delete(follows)
      .where(and(eq(follows.userID, userID), eq(follows.followedID, followedID)))
      .returning();
    return deleted.length > 0;
  }

  /** How many scores and sessions the user has. */
  async counts(userID: number): Promise<{ scores: number; sessions: number }> {
    const [[s], [n]] = await Promise.all([
      this.database.db.select({ n: count() }).from(scores).where(eq(scores.userID, userID)),
      this.database.db.select({ n: count() }).from(sessions).where(eq(sessions.userID, userID)),
    ]);
    return { scores: s.n, sessions: n.n };
  }

  /** The best `limit` PBs of these users on the GPT under a score rating algorithm (ties: user id, chart id). */
  async bestPbsOf(userIDs: readonly number[], game: string, playtype: string, alg: string, limit: number) {
    if (userIDs.length === 0) return [];
    const rows = await this.database.db
      .select({ pb: rankedPbColumns })
      .from(pbRatings)
      .innerJoin(personalBests, and(eq(personalBests.userID, pbRatings.userID), eq(personalBests.chartID, pbRatings.chartID)))
      .leftJoin(...CHART_RANKING_JOIN)
      .where(and(inArray(pbRatings.userID, [...userIDs]), eq(pbRatings.game, game), eq(pbRatings.playtype, playtype), eq(pbRatings.alg, alg)))
      .orderBy(sql`${pbRatings.value} DESC NULLS LAST`, asc(pbRatings.userID), asc(pbRatings.chartID))
      .limit(limit);
    return rows.map((r) => r.pb);
  }

  /** These users' PBs on the chart, best first (the chart's ranking order). */
  async chartPbsOf(userIDs: readonly number[], chartID: string) {
    if (userIDs.length === 0) return [];
    const rows = await this.database.db
      .select({ pb: rankedPbColumns })
      .from(personalBests)
      .leftJoin(...CHART_RANKING_JOIN)
      .where(and(eq(personalBests.chartID, chartID), inArray(personalBests.userID, [...userIDs])))
      .orderBy(...RANKING_ORDER);
    return rows.map((r) => r.pb);
  }

  /** Highlighted scores achieved in [from, before), newest first, at most `limit`. */
  highlightedScores(filter: ActivityFilter, from: number, before: number, limit: number): Promise<ScoreRow[]> {
    if (filter.userIDs?.length === 0) return Promise.resolve([]);
    return this.database.db
      .select()
      .from(scores)
      .where(and(...this.where(filter, scores, sql`${scores.highlighted}`, gte(scores.timeAchieved, from), lt(scores.timeAchieved, before))))
      .orderBy(desc(scores.timeAchieved), asc(scores.scoreID))
      .limit(limit);
  }

  /** Goal subscriptions achieved in [from, before) (not those achieved on subscribing), newest first. */
  achievedGoalSubs(filter: ActivityFilter, from: number, before: number, limit: number): Promise<GoalSubRow[]> {
    if (filter.userIDs?.length === 0) return Promise.resolve([]);
    return this.database.db
      .select()
      .from(goalSubs)
      .where(
        and(
          ...this.where(
            filter,
            goalSubs,
            sql`${goalSubs.achieved} AND NOT ${goalSubs.wasInstantlyAchieved}`,
            gte(goalSubs.timeAchieved, from),
            lt(goalSubs.timeAchieved, before),
          ),
        ),
      )
      .orderBy(desc(goalSubs.timeAchieved), asc(goalSubs.userID), asc(goalSubs.goalID))
      .limit(limit);
  }

  /** Quest subscriptions achieved in [from, before) (not those achieved on subscribing), newest first. */
  achievedQuestSubs(filter: ActivityFilter, from: number, before: number, limit: number): Promise<QuestSubRow[]> {
    if (filter.userIDs?.length === 0) return Promise.resolve([]);
    return this.database.db
      .select()
      .from(questSubs)
      .where(
        and(
          ...this.where(
            filter,
            questSubs,
            sql`${questSubs.achieved} AND NOT ${questSubs.wasInstantlyAchieved}`,
            gte(questSubs.timeAchieved, from),
            lt(questSubs.timeAchieved, before),
          ),
        ),
      )
      .orderBy(desc(questSubs.timeAchieved), asc(questSubs.userID), asc(questSubs.questID))
      .limit(limit);
  }

  /** Goal subscriptions of the user not achieved whose progress moved since `since`, latest first. */
  improvedGoalSubs(userID: number, since: number, limit: number): Promise<GoalSubRow[]> {
    return this.database.db
      .select()
      .from(goalSubs)
      .where(and(eq(goalSubs.userID, userID), sql`NOT ${goalSubs.achieved}`, isNotNull(goalSubs.lastInteraction), gte(goalSubs.lastInteraction, since)))
      .orderBy(desc(goalSubs.lastInteraction), asc(goalSubs.goalID))
      .limit(limit);
  }

  /** How many scores the user has imported since `since` (by timeAdded). */
  async scoreCountSince(userID: number, since: number): Promise<number> {
    const [row] = await this.database.db
      .select({ n: count() })
      .from(scores)
      .where(and(eq(scores.userID, userID), gte(scores.timeAdded, since)));
    return row.n;
  }

  /** The user's sessions that ended since `since`, latest ended first. */
  sessionsEndedSince(userID: number, since: number, limit: number): Promise<SessionRow[]> {
    return this.database.db
      .select()
      .from(sessions)
      .where(and(eq(sessions.userID, userID), gte(sessions.timeEnded, since)))
      .orderBy(desc(sessions.timeEnded), desc(sessions.sessionID))
      .limit(limit);
  }

  /** The latest `limit` sessions started before `before` (exclusive), newest first. */
  recentSessions(filter: ActivityFilter, before: number, limit: number): Promise<SessionRow[]> {
    if (filter.userIDs?.length === 0) return Promise.resolve([]);
    return this.database.db
      .select()
      .from(sessions)
      .where(and(...this.where(filter, sessions, lt(sessions.timeStarted, before))))
      .orderBy(desc(sessions.timeStarted), desc(sessions.sessionID))
      .limit(limit);
  }

  /** Class raises in [from, before), newest first, at most `limit`. */
  classRaises(filter: ActivityFilter, from: number, before: number, limit: number): Promise<ClassAchievementRow[]> {
    if (filter.userIDs?.length === 0) return Promise.resolve([]);
    return this.database.db
      .select()
      .from(classAchievements)
      .where(and(...this.where(filter, classAchievements, gte(classAchievements.timeAchieved, from), lt(classAchievements.timeAchieved, before))))
      .orderBy(desc(classAchievements.timeAchieved), desc(classAchievements.id))
      .limit(limit);
  }

  private where(
    filter: ActivityFilter,
    table: typeof sessions | typeof classAchievements | typeof scores | typeof goalSubs | typeof questSubs,
    ...extra: SQL[]
  ): (SQL | undefined)[] {
    return [
      filter.game === undefined ? undefined : eq(table.game, filter.game),
      filter.playtype === undefined ? undefined : eq(table.playtype, filter.playtype),
      filter.userIDs === undefined ? undefined : inArray(table.userID, [...filter.userIDs]),
      ...extra,
    ];
  }
}
