import { sql, type SQL } from 'drizzle-orm';
import { ADVISORY_LOCK_NAMESPACE, queryRows, type Queryable, type Tx } from '../../database/database.js';
import type { GoalCriteria } from './criteria.js';
import { evaluateGoals, type GoalCharts, type GoalDefinition, type GoalEvaluation } from './goal-evaluation.js';

/** Serialises one user's subscription changes with the re-evaluations of their imports. */
export const TARGETS_LOCK = ADVISORY_LOCK_NAMESPACE + 5;

export async function lockUserTargets(tx: Tx, userID: number): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(${TARGETS_LOCK}, ${userID})`);
}

/** A goal's state as the ImportDocument's goalInfo reports it. */
export interface GoalState {
  progress: number | null;
  progressHuman: string;
  outOf: number;
  outOfHuman: string;
  achieved: boolean;
}

export interface GoalInfoEntry {
  goalID: string;
  old: GoalState;
  new: GoalState;
}

export interface QuestInfoEntry {
  questID: string;
  old: { progress: number; achieved: boolean };
  new: { progress: number; achieved: boolean };
}

export interface TargetChanges {
  goalInfo: GoalInfoEntry[];
  questInfo: QuestInfoEntry[];
}

/** Which of a user's subscriptions to re-evaluate: those touching these charts, these goals, or all of a GPT's. */
export type TargetScope = { chartIDs: readonly string[] } | { goalIDs: readonly string[] } | { all: true };

interface SubRow {
  goal_id: string;
  game: string;
  playtype: string;
  charts: GoalCharts | string;
  criteria: GoalCriteria | string;
  achieved: boolean;
  progress: number | null;
  progress_human: string;
  out_of: number;
  out_of_human: string;
}

const parsed = <T>(v: T | string): T => (typeof v === 'string' ? (JSON.parse(v) as T) : v);

function scopeFilter(scope: TargetScope): SQL {
  if ('all' in scope) return sql`TRUE`;
  if ('goalIDs' in scope) return sql`gs.goal_id = ANY(${sql.param([...scope.goalIDs])}::text[])`;
  const c = sql.param([...scope.chartIDs]);
  return sql`(
    (g.charts->>'type' = 'single' AND g.charts->>'data' = ANY(${c}::text[]))
    OR (g.charts->>'type' = 'multi' AND jsonb_exists_any(g.charts->'data', ${c}::text[]))
    OR (g.charts->>'type' = 'folder' AND g.charts->>'data' IN (SELECT DISTINCT fc.folder_id FROM folder_charts fc WHERE fc.chart_id = ANY(${c}::text[]))))`;
}

const stateOf = (r: SubRow): GoalState => ({
  progress: r.progress === null ? null : Number(r.progress),
  progressHuman: r.progress_human,
  outOf: Number(r.out_of),
  outOfHuman: r.out_of_human,
  achieved: r.achieved,
});

const stateFrom = (e: GoalEvaluation): GoalState => ({
  progress: e.progress,
  progressHuman: e.progressHuman,
  outOf: e.outOf,
  outOfHuman: e.outOfHuman,
  achieved: e.achieved,
});

/** The goal IDs of a quest's sections, in order (SQL over quests.quest_data). */
const QUEST_GOAL_REFS = (quest: string) =>
  sql.raw(`SELECT r->>'goalID' AS goal_id FROM jsonb_array_elements(${quest}.quest_data) s, jsonb_array_elements(s->'goals') r`);

/**
 * Re-evaluates one user's goal subscriptions on a GPT in the scope, then their quests holding a
 * goal that changed, in a few statements whatever the number of subscriptions: one read of the
 * subscriptions, one evaluation query, one update of the changed goal subs, one read and one update
 * of the quest subs. A goal sub is written only when progress or outOf changed (Tachi's rule): it
 * gets lastInteraction = now, achieved, and timeAchieved (kept while achieved, null once lost); a
 * goal lost loses wasInstantlyAchieved. A quest sub gets its progress and achieved, lastInteraction
 * when progress moved, and timeAchieved when newly achieved. Returns the ImportDocument's
 * goalInfo and questInfo.
 */
export async function reevaluateTargets(tx: Tx, userID: number, game: string, playtype: string, scope: TargetScope, now = Date.now()): Promise<TargetChanges> {
  if ('chartIDs' in scope && scope.chartIDs.length === 0) return { goalInfo: [], questInfo: [] };
  if ('goalIDs' in scope && scope.goalIDs.length === 0) return { goalInfo: [], questInfo: [] };
  await lockUserTargets(tx, userID);
  const subs = await queryRows<SubRow>(
    tx,
    sql`SELECT gs.goal_id, g.game, g.playtype, g.charts, g.criteria, gs.achieved, gs.progress, gs.progress_human, gs.out_of, gs.out_of_human
FROM goal_subs gs JOIN goals g ON g.goal_id = gs.goal_id
WHERE gs.user_id = ${userID} AND gs.game = ${game} AND gs.playtype = ${playtype} AND ${scopeFilter(scope)}`,
  );
  if (subs.length === 0) return { goalInfo: [], questInfo: [] };
  const definitions: GoalDefinition[] = subs.map((s) => ({
    goalID: s.goal_id,
    game: s.game,
    playtype: s.playtype,
    charts: parsed(s.charts),
    criteria: parsed(s.criteria),
  }));
  const evaluations = await evaluateGoals(tx, userID, definitions);

  const goalInfo: GoalInfoEntry[] = [];
  const updates: Record<string, unknown>[] = [];
  for (const sub of subs) {
    const evaluation = evaluations.get(sub.goal_id);
    if (!evaluation) continue;
    const old = stateOf(sub);
    if (old.progress === evaluation.progress && old.outOf === evaluation.outOf) continue;
    goalInfo.push({ goalID: sub.goal_id, old, new: stateFrom(evaluation) });
    updates.push({
      goal_id: sub.goal_id,
      achieved: evaluation.achieved,
      newly: evaluation.achieved && !old.achieved,
      progress: evaluation.progress,
      progress_human: evaluation.progressHuman,
      out_of: evaluation.outOf,
      out_of_human: evaluation.outOfHuman,
    });
  }
  if (updates.length === 0) return { goalInfo, questInfo: [] };
  await tx.execute(sql`UPDATE goal_subs gs SET
    achieved = u.achieved,
    time_achieved = CASE WHEN NOT u.achieved THEN NULL WHEN u.newly OR gs.time_achieved IS NULL THEN ${now}::bigint ELSE gs.time_achieved END,
    was_instantly_achieved = gs.was_instantly_achieved AND u.achieved,
    last_interaction = ${now}::bigint,
    progress = u.progress, progress_human = u.progress_human, out_of = u.out_of, out_of_human = u.out_of_human
  FROM jsonb_to_recordset(${JSON.stringify(updates)}::jsonb)
    AS u(goal_id text, achieved boolean, newly boolean, progress float8, progress_human text, out_of float8, out_of_human text)
  WHERE gs.user_id = ${userID} AND gs.goal_id = u.goal_id`);

  const questInfo = await refreshQuestSubs(
    tx,
    userID,
    game,
    playtype,
    goalInfo.map((g) => g.goalID),
    now,
  );
  return { goalInfo, questInfo };
}

interface QuestRow {
  quest_id: string;
  progress: number;
  achieved: boolean;
  new_progress: number;
  out_of: number;
}

/**
 * Recounts the user's quest subs on the GPT that hold any of `goalIDs` from their goal subs, and
 * writes those whose progress or achievement moved. Returns questInfo entries for moved progress.
 */
export async function refreshQuestSubs(
  tx: Tx,
  userID: number,
  game: string,
  playtype: string,
  goalIDs: readonly string[] | 'all',
  now = Date.now(),
): Promise<QuestInfoEntry[]> {
  const rows = await queryQuestProgress(tx, userID, game, playtype, goalIDs);
  const changed = rows.filter((r) => r.new_progress !== r.progress || r.new_progress >= r.out_of !== r.achieved);
  if (changed.length === 0) return [];
  const updates = changed.map((r) => ({
    quest_id: r.quest_id,
    progress: r.new_progress,
    achieved: r.new_progress >= r.out_of,
    moved: r.new_progress !== r.progress,
    newly: r.new_progress >= r.out_of && !r.achieved,
  }));
  await tx.execute(sql`UPDATE quest_subs qs SET
    progress = u.progress, achieved = u.achieved,
    last_interaction = CASE WHEN u.moved THEN ${now}::bigint ELSE qs.last_interaction END,
    time_achieved = CASE WHEN u.newly THEN ${now}::bigint ELSE qs.time_achieved END
  FROM jsonb_to_recordset(${JSON.stringify(updates)}::jsonb) AS u(quest_id text, progress int, achieved boolean, moved boolean, newly boolean)
  WHERE qs.user_id = ${userID} AND qs.quest_id = u.quest_id`);
  return changed
    .filter((r) => r.new_progress !== r.progress)
    .map((r) => ({
      questID: r.quest_id,
      old: { progress: r.progress, achieved: r.achieved },
      new: { progress: r.new_progress, achieved: r.new_progress >= r.out_of },
    }));
}

/** The user's quest subs on the GPT (those holding one of goalIDs), with goals achieved now per their goal subs, and goals needed. */
async function queryQuestProgress(q: Queryable, userID: number, game: string, playtype: string, goalIDs: readonly string[] | 'all'): Promise<QuestRow[]> {
  const filter =
    goalIDs === 'all' ? sql`TRUE` : sql`EXISTS (SELECT 1 FROM (${QUEST_GOAL_REFS('q')}) ref WHERE ref.goal_id = ANY(${sql.param([...goalIDs])}::text[]))`;
  const rows = await queryRows<QuestRow>(
    q,
    sql`SELECT qs.quest_id, qs.progress, qs.achieved,
  (SELECT count(*) FROM (${QUEST_GOAL_REFS('q')}) ref JOIN goal_subs gs ON gs.user_id = ${userID} AND gs.goal_id = ref.goal_id WHERE gs.achieved)::int AS new_progress,
  (SELECT count(*) FROM (${QUEST_GOAL_REFS('q')}) ref)::int AS out_of
FROM quest_subs qs JOIN quests q ON q.quest_id = qs.quest_id
WHERE qs.user_id = ${userID} AND qs.game = ${game} AND qs.playtype = ${playtype} AND ${filter}`,
  );
  return rows.map((r) => ({ ...r, progress: Number(r.progress), new_progress: Number(r.new_progress), out_of: Number(r.out_of) }));
}

/**
 * After a seed load re-resolved these GPTs' folders: re-evaluates every subscription to a folder
 * goal on them, user by user (each user's in one pass). Returns how many subscriptions moved.
 */
export async function reevaluateFolderGoals(tx: Tx, gpts: readonly { game: string; playtype: string }[]): Promise<number> {
  if (gpts.length === 0) return 0;
  const rows = await queryRows<{ user_id: number; game: string; playtype: string; goal_ids: string[] }>(
    tx,
    sql`SELECT gs.user_id, gs.game, gs.playtype, array_agg(gs.goal_id) AS goal_ids
FROM goal_subs gs JOIN goals g ON g.goal_id = gs.goal_id
WHERE g.charts->>'type' = 'folder' AND (gs.game || ':' || gs.playtype) = ANY(${sql.param(gpts.map((g) => `${g.game}:${g.playtype}`))}::text[])
GROUP BY gs.user_id, gs.game, gs.playtype ORDER BY gs.user_id`,
  );
  let moved = 0;
  for (const r of rows) {
    const changes = await reevaluateTargets(tx, Number(r.user_id), r.game, r.playtype, { goalIDs: r.goal_ids });
    moved += changes.goalInfo.length;
  }
  return moved;
}

/**
 * Every user's goal subscriptions on every GPT, re-evaluated from their PBs (admin `reprocess-all-goals`, to repair
 * subscriptions out of step): the (user, GPT) pairs with a subscription, each re-evaluated with `reevaluateTargets`
 * in a transaction of its own (`inTx`), so one pair's lock waits hold up no other. Returns how many pairs there were
 * and how many subscriptions moved.
 */
export async function reevaluateAllTargets(
  read: Queryable,
  inTx: <T>(work: (tx: Tx) => Promise<T>) => Promise<T>,
): Promise<{ profiles: number; moved: number }> {
  const rows = await queryRows<{ user_id: number; game: string; playtype: string }>(
    read,
    sql`SELECT DISTINCT user_id, game, playtype FROM goal_subs ORDER BY user_id, game, playtype`,
  );
  let moved = 0;
  for (const r of rows) {
    const changes = await inTx((tx) => reevaluateTargets(tx, Number(r.user_id), r.game, r.playtype, { all: true }));
    moved += changes.goalInfo.length;
  }
  return { profiles: rows.length, moved };
}
