import { sql } from 'drizzle-orm';
import { insertRowsIgnoringConflicts } from '../../database/bulk-write.js';
import { queryRows, type Tx } from '../../database/database.js';
import { goalSubs, questSubs, type GoalSubRow, type QuestSection, type QuestSubRow } from '../../database/schema.js';
import type { GoalCriteria } from './criteria.js';
import { evaluateGoals, type GoalCharts, type GoalDefinition, type GoalEvaluation } from './goal-evaluation.js';

/** A quest's goal references in order. */
export function questGoalIDs(questData: readonly QuestSection[]): string[] {
  return questData.flatMap((s) => s.goals.map((g) => g.goalID));
}

const parsed = <T>(v: T | string): T => (typeof v === 'string' ? (JSON.parse(v) as T) : v);

/** Goal definitions by id (unknown ids left out). */
export async function loadGoalDefinitions(tx: Tx, goalIDs: readonly string[]): Promise<GoalDefinition[]> {
  if (goalIDs.length === 0) return [];
  const rows = await queryRows<{ goal_id: string; game: string; playtype: string; charts: GoalCharts | string; criteria: GoalCriteria | string }>(
    tx,
    sql`SELECT goal_id, game, playtype, charts, criteria FROM goals WHERE goal_id = ANY(${sql.param([...goalIDs])}::text[])`,
  );
  return rows.map((r) => ({ goalID: r.goal_id, game: r.game, playtype: r.playtype, charts: parsed(r.charts), criteria: parsed(r.criteria) }));
}

/** A new goal sub's row from its evaluation: achieved at once counts as instantly achieved. */
export function newGoalSubRow(userID: number, goal: GoalDefinition, evaluation: GoalEvaluation, standalone: boolean, now: number): GoalSubRow {
  return {
    userID,
    goalID: goal.goalID,
    game: goal.game,
    playtype: goal.playtype,
    achieved: evaluation.achieved,
    timeAchieved: evaluation.achieved ? now : null,
    lastInteraction: null,
    progress: evaluation.progress,
    progressHuman: evaluation.progressHuman,
    outOf: evaluation.outOf,
    outOfHuman: evaluation.outOfHuman,
    wasInstantlyAchieved: evaluation.achieved,
    wasAssignedStandalone: standalone,
  };
}

/**
 * Subscribes the user to a quest: every goal of it they are not subscribed to yet gets a sub (not
 * standalone, evaluated in one query; already achieved ones count as instantly achieved), then the
 * quest sub, with progress counted from the goal subs. Returns the quest sub and its goals' results.
 */
export async function insertQuestSubscription(
  tx: Tx,
  userID: number,
  quest: { questID: string; game: string; playtype: string; questData: readonly QuestSection[] },
  now: number,
): Promise<{ questSub: QuestSubRow; goalSubs: GoalSubRow[] }> {
  const refs = questGoalIDs(quest.questData);
  const definitions = await loadGoalDefinitions(tx, refs);
  const evaluations = await evaluateGoals(tx, userID, definitions);
  await insertRowsIgnoringConflicts(
    tx,
    goalSubs,
    definitions.flatMap((d) => {
      const e = evaluations.get(d.goalID);
      return e ? [newGoalSubRow(userID, d, e, false, now)] : [];
    }),
  );
  const subs = await tx
    .select()
    .from(goalSubs)
    .where(sql`${goalSubs.userID} = ${userID} AND ${goalSubs.goalID} = ANY(${sql.param(refs)}::text[])`);
  const byID = new Map(subs.map((s) => [s.goalID, s]));
  const progress = refs.filter((id) => byID.get(id)?.achieved).length;
  const achieved = progress >= refs.length;
  const questSub: QuestSubRow = {
    userID,
    questID: quest.questID,
    game: quest.game,
    playtype: quest.playtype,
    achieved,
    timeAchieved: achieved ? now : null,
    lastInteraction: null,
    progress,
    wasInstantlyAchieved: achieved,
  };
  await tx.insert(questSubs).values(questSub);
  return { questSub, goalSubs: refs.flatMap((id) => (byID.has(id) ? [byID.get(id)!] : [])) };
}

/**
 * Removes the user's goal subs among `candidates` on the GPT that nothing keeps: not standalone
 * and in no quest the user is subscribed to there. Returns the goal ids removed.
 */
export async function pruneOrphanGoalSubs(tx: Tx, userID: number, game: string, playtype: string, candidates: readonly string[]): Promise<string[]> {
  if (candidates.length === 0) return [];
  const rows = await queryRows<{ goal_id: string }>(
    tx,
    sql`DELETE FROM goal_subs gs
WHERE gs.user_id = ${userID} AND gs.game = ${game} AND gs.playtype = ${playtype} AND NOT gs.was_assigned_standalone
  AND gs.goal_id = ANY(${sql.param([...candidates])}::text[])
  AND NOT EXISTS (
    SELECT 1 FROM quest_subs qs JOIN quests q ON q.quest_id = qs.quest_id,
      jsonb_array_elements(q.quest_data) s, jsonb_array_elements(s->'goals') r
    WHERE qs.user_id = ${userID} AND qs.game = ${game} AND qs.playtype = ${playtype} AND r->>'goalID' = gs.goal_id)
RETURNING gs.goal_id`,
  );
  return rows.map((r) => r.goal_id);
}

/** The quests (ids and names) the user is subscribed to on the GPT that hold the goal. */
export async function subscribedParentQuests(
  tx: Tx,
  userID: number,
  game: string,
  playtype: string,
  goalID: string,
): Promise<{ questID: string; name: string }[]> {
  const rows = await queryRows<{ quest_id: string; name: string }>(
    tx,
    sql`SELECT q.quest_id, q.name FROM quest_subs qs JOIN quests q ON q.quest_id = qs.quest_id
WHERE qs.user_id = ${userID} AND qs.game = ${game} AND qs.playtype = ${playtype}
  AND EXISTS (SELECT 1 FROM jsonb_array_elements(q.quest_data) s, jsonb_array_elements(s->'goals') r WHERE r->>'goalID' = ${goalID})
ORDER BY q.name, q.quest_id`,
  );
  return rows.map((r) => ({ questID: r.quest_id, name: r.name }));
}
