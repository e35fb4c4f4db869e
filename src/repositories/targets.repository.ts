import { Injectable } from '@nestjs/common';
import { and, asc, count, desc, eq, ilike, isNotNull, sql, type SQL } from 'drizzle-orm';
import { anyOf } from '../database/bulk-write.js';
import { Database } from '../database/database.js';
import { containsPattern } from '../database/like.js';
import {
  folderCharts,
  goals,
  goalSubs,
  questlines,
  quests,
  questSubs,
  type GoalRow,
  type GoalSubRow,
  type QuestlineRow,
  type QuestRow,
  type QuestSubRow,
} from '../database/schema.js';

/** The recent lists: goal subs and quest subs per answer (spec limits). */
export const RECENT_GOAL_SUBS = 100;
export const RECENT_QUEST_SUBS = 50;
export const POPULAR_GOALS = 100;
/** Quest and questline searches answer at most this many. */
export const TARGET_SEARCH_LIMIT = 100;

/** Goals, quests, questlines and the subscriptions to them: the reads of the targets routes. */
/** Rows in the order of `ids` (each once); ids without a row left out. */
function inIdOrder<T>(rows: T[], ids: readonly string[], idOf: (row: T) => string): T[] {
  const byID = new Map(rows.map((r) => [idOf(r), r]));
  return [...new Set(ids)].flatMap((id) => (byID.has(id) ? [byID.get(id)!] : []));
}

@Injectable()
export class TargetsRepository {
  constructor(private readonly database: Database) {}

  private get db() {
    return this.database.db;
  }

  async goal(game: string, playtype: string, goalID: string): Promise<GoalRow | undefined> {
    const [row] = await this.db
      .select()
      .from(goals)
      .where(and(eq(goals.goalID, goalID), eq(goals.game, game), eq(goals.playtype, playtype)));
    return row;
  }

  /** Goals by id, in the order of `ids`; unknown ids left out. */
  async goalsByIds(ids: readonly string[]): Promise<GoalRow[]> {
    if (ids.length === 0) return [];
    return inIdOrder(await this.db.select().from(goals).where(anyOf(goals.goalID, ids)), ids, (r) => r.goalID);
  }

  async quest(game: string, playtype: string, questID: string): Promise<QuestRow | undefined> {
    const [row] = await this.db
      .select()
      .from(quests)
      .where(and(eq(quests.questID, questID), eq(quests.game, game), eq(quests.playtype, playtype)));
    return row;
  }

  async questsByIds(ids: readonly string[]): Promise<QuestRow[]> {
    if (ids.length === 0) return [];
    return inIdOrder(await this.db.select().from(quests).where(anyOf(quests.questID, ids)), ids, (r) => r.questID);
  }

  /** The GPT's quests whose name contains `search` (case-insensitive), or all of them, by name. */
  searchQuests(game: string, playtype: string, search: string | undefined): Promise<QuestRow[]> {
    return this.db
      .select()
      .from(quests)
      .where(and(eq(quests.game, game), eq(quests.playtype, playtype), search ? ilike(quests.name, containsPattern(search)) : undefined))
      .orderBy(asc(quests.name), asc(quests.questID))
      .limit(TARGET_SEARCH_LIMIT);
  }

  searchQuestlines(game: string, playtype: string, search: string | undefined): Promise<QuestlineRow[]> {
    return this.db
      .select()
      .from(questlines)
      .where(and(eq(questlines.game, game), eq(questlines.playtype, playtype), search ? ilike(questlines.name, containsPattern(search)) : undefined))
      .orderBy(asc(questlines.name), asc(questlines.questlineID))
      .limit(TARGET_SEARCH_LIMIT);
  }

  async questline(game: string, playtype: string, questlineID: string): Promise<QuestlineRow | undefined> {
    const [row] = await this.db
      .select()
      .from(questlines)
      .where(and(eq(questlines.questlineID, questlineID), eq(questlines.game, game), eq(questlines.playtype, playtype)));
    return row;
  }

  /** Quests holding the goal (any section). */
  parentQuests(goalID: string): Promise<QuestRow[]> {
    return this.db
      .select()
      .from(quests)
      .where(sql`${quests.questData} @> ${JSON.stringify([{ goals: [{ goalID }] }])}::jsonb`)
      .orderBy(asc(quests.name), asc(quests.questID));
  }

  parentQuestlines(questID: string): Promise<QuestlineRow[]> {
    return this.db
      .select()
      .from(questlines)
      .where(sql`${questlines.quests} @> ARRAY[${questID}]::text[]`)
      .orderBy(asc(questlines.name), asc(questlines.questlineID));
  }

  /** How many charts the folder resolves to now. */
  async folderChartCount(folderID: string): Promise<number> {
    const [row] = await this.db.select({ n: count() }).from(folderCharts).where(eq(folderCharts.folderID, folderID));
    return row.n;
  }

  /** Every user's subscription to the goal, most recently achieved or raised first. */
  subsOfGoal(goalID: string): Promise<GoalSubRow[]> {
    return this.db
      .select()
      .from(goalSubs)
      .where(eq(goalSubs.goalID, goalID))
      .orderBy(desc(goalSubs.achieved), sql`${goalSubs.lastInteraction} DESC NULLS LAST`, asc(goalSubs.userID));
  }

  subsOfQuest(questID: string): Promise<QuestSubRow[]> {
    return this.db
      .select()
      .from(questSubs)
      .where(eq(questSubs.questID, questID))
      .orderBy(desc(questSubs.achieved), sql`${questSubs.lastInteraction} DESC NULLS LAST`, asc(questSubs.userID));
  }

  /**
   * The most recently achieved subscriptions of the GPT (of one user when given), newest first:
   * 100 goal subs and 50 quest subs; those achieved at subscription are left out.
   */
  async recentlyAchieved(game: string, playtype: string, userID?: number): Promise<{ goalSubs: GoalSubRow[]; questSubs: QuestSubRow[] }> {
    const [g, q] = await Promise.all([
      this.db
        .select()
        .from(goalSubs)
        .where(
          and(
            eq(goalSubs.game, game),
            eq(goalSubs.playtype, playtype),
            userID === undefined ? undefined : eq(goalSubs.userID, userID),
            sql`${goalSubs.achieved} AND NOT ${goalSubs.wasInstantlyAchieved}`,
          ),
        )
        .orderBy(sql`${goalSubs.timeAchieved} DESC NULLS LAST`, asc(goalSubs.userID), asc(goalSubs.goalID))
        .limit(RECENT_GOAL_SUBS),
      this.db
        .select()
        .from(questSubs)
        .where(
          and(
            eq(questSubs.game, game),
            eq(questSubs.playtype, playtype),
            userID === undefined ? undefined : eq(questSubs.userID, userID),
            sql`${questSubs.achieved} AND NOT ${questSubs.wasInstantlyAchieved}`,
          ),
        )
        .orderBy(sql`${questSubs.timeAchieved} DESC NULLS LAST`, asc(questSubs.userID), asc(questSubs.questID))
        .limit(RECENT_QUEST_SUBS),
    ]);
    return { goalSubs: g, questSubs: q };
  }

  /**
   * The subscriptions whose progress or outOf changed most recently (not achieved, interacted
   * with since subscribing), newest first: 100 goal subs and 50 quest subs.
   */
  async recentlyRaised(game: string, playtype: string, userID?: number): Promise<{ goalSubs: GoalSubRow[]; questSubs: QuestSubRow[] }> {
    const [g, q] = await Promise.all([
      this.db
        .select()
        .from(goalSubs)
        .where(
          and(
            eq(goalSubs.game, game),
            eq(goalSubs.playtype, playtype),
            userID === undefined ? undefined : eq(goalSubs.userID, userID),
            sql`NOT ${goalSubs.achieved}`,
            isNotNull(goalSubs.lastInteraction),
          ),
        )
        .orderBy(desc(goalSubs.lastInteraction), asc(goalSubs.userID), asc(goalSubs.goalID))
        .limit(RECENT_GOAL_SUBS),
      this.db
        .select()
        .from(questSubs)
        .where(
          and(
            eq(questSubs.game, game),
            eq(questSubs.playtype, playtype),
            userID === undefined ? undefined : eq(questSubs.userID, userID),
            sql`NOT ${questSubs.achieved}`,
            isNotNull(questSubs.lastInteraction),
          ),
        )
        .orderBy(desc(questSubs.lastInteraction), asc(questSubs.userID), asc(questSubs.questID))
        .limit(RECENT_QUEST_SUBS),
    ]);
    return { goalSubs: g, questSubs: q };
  }

  /** The GPT's 100 goals with the most subscribers, with their count; ties by goalID. */
  async popularGoals(game: string, playtype: string): Promise<{ goal: GoalRow; subscriptions: number }[]> {
    const counted = this.db
      .select({ goalID: goalSubs.goalID, n: count().as('n') })
      .from(goalSubs)
      .where(and(eq(goalSubs.game, game), eq(goalSubs.playtype, playtype)))
      .groupBy(goalSubs.goalID)
      .as('counted');
    const rows = await this.db
      .select({ goal: goals, n: counted.n })
      .from(counted)
      .innerJoin(goals, eq(goals.goalID, counted.goalID))
      .orderBy(desc(counted.n), asc(goals.goalID))
      .limit(POPULAR_GOALS);
    return rows.map((r) => ({ goal: r.goal, subscriptions: Number(r.n) }));
  }

  userGoalSubs(userID: number, game: string, playtype: string): Promise<GoalSubRow[]> {
    return this.db
      .select()
      .from(goalSubs)
      .where(and(eq(goalSubs.userID, userID), eq(goalSubs.game, game), eq(goalSubs.playtype, playtype)))
      .orderBy(asc(goalSubs.goalID));
  }

  userQuestSubs(userID: number, game: string, playtype: string): Promise<QuestSubRow[]> {
    return this.db
      .select()
      .from(questSubs)
      .where(and(eq(questSubs.userID, userID), eq(questSubs.game, game), eq(questSubs.playtype, playtype)))
      .orderBy(asc(questSubs.questID));
  }

  async userGoalSub(userID: number, goalID: string): Promise<GoalSubRow | undefined> {
    const [row] = await this.db
      .select()
      .from(goalSubs)
      .where(and(eq(goalSubs.userID, userID), eq(goalSubs.goalID, goalID)));
    return row;
  }

  async userQuestSub(userID: number, questID: string): Promise<QuestSubRow | undefined> {
    const [row] = await this.db
      .select()
      .from(questSubs)
      .where(and(eq(questSubs.userID, userID), eq(questSubs.questID, questID)));
    return row;
  }

  /**
   * The user's goal subs on the GPT whose goal concerns the chart: a single or multi goal naming
   * it, or a folder goal whose folder holds it now; with their goals, by goalID.
   */
  userGoalsOnChart(userID: number, game: string, playtype: string, chartID: string): Promise<{ goalSub: GoalSubRow; goal: GoalRow }[]> {
    return this.userGoalsWhere(
      userID,
      game,
      playtype,
      sql`(
  (${goals.charts}->>'type' = 'single' AND ${goals.charts}->>'data' = ${chartID})
  OR (${goals.charts}->>'type' = 'multi' AND ${goals.charts}->'data' @> jsonb_build_array(${chartID}::text))
  OR (${goals.charts}->>'type' = 'folder' AND EXISTS (
    SELECT 1 FROM ${folderCharts} fc WHERE fc.folder_id = ${goals.charts}->>'data' AND fc.chart_id = ${chartID})))`,
    );
  }

  /**
   * The user's goal subs on the GPT whose goal concerns the folder: a folder goal on it, or a
   * single or multi goal naming one of its charts; with their goals, by goalID.
   */
  userGoalsOnFolder(userID: number, game: string, playtype: string, folderID: string): Promise<{ goalSub: GoalSubRow; goal: GoalRow }[]> {
    return this.userGoalsWhere(
      userID,
      game,
      playtype,
      sql`(
  (${goals.charts}->>'type' = 'folder' AND ${goals.charts}->>'data' = ${folderID})
  OR (${goals.charts}->>'type' = 'single' AND EXISTS (
    SELECT 1 FROM ${folderCharts} fc WHERE fc.folder_id = ${folderID} AND fc.chart_id = ${goals.charts}->>'data'))
  OR (${goals.charts}->>'type' = 'multi' AND EXISTS (
    SELECT 1 FROM ${folderCharts} fc WHERE fc.folder_id = ${folderID} AND ${goals.charts}->'data' @> jsonb_build_array(fc.chart_id))))`,
    );
  }

  /** The user's goal subs on the GPT whose goal meets `concerns`, with their goals, by goalID. */
  private userGoalsWhere(userID: number, game: string, playtype: string, concerns: SQL): Promise<{ goalSub: GoalSubRow; goal: GoalRow }[]> {
    return this.db
      .select({ goalSub: goalSubs, goal: goals })
      .from(goalSubs)
      .innerJoin(goals, eq(goals.goalID, goalSubs.goalID))
      .where(and(eq(goalSubs.userID, userID), eq(goalSubs.game, game), eq(goalSubs.playtype, playtype), concerns))
      .orderBy(asc(goalSubs.goalID));
  }

  /** The GPT's quests in no questline, by name. */
  standaloneQuests(game: string, playtype: string): Promise<QuestRow[]> {
    return this.db
      .select()
      .from(quests)
      .where(
        and(
          eq(quests.game, game),
          eq(quests.playtype, playtype),
          sql`NOT EXISTS (SELECT 1 FROM ${questlines} ql WHERE ql.game = ${game} AND ql.playtype = ${playtype} AND ${quests.questID} = ANY(ql.quests))`,
        ),
      )
      .orderBy(asc(quests.name), asc(quests.questID));
  }

  /** The user's subs to these goals. */
  userGoalSubsFor(userID: number, goalIDs: readonly string[]): Promise<GoalSubRow[]> {
    if (goalIDs.length === 0) return Promise.resolve([]);
    return this.db
      .select()
      .from(goalSubs)
      .where(and(eq(goalSubs.userID, userID), anyOf(goalSubs.goalID, goalIDs)));
  }
}
