import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Queryable } from '../../database/database.js';
import { findGpt } from '../../game-support/registry.js';
import type { GptSupport, ScoreData } from '../../game-support/types.js';
import { CRITERIA, criteriaKind, type GoalCriteria } from './criteria.js';

export type GoalCharts = { type: 'single'; data: string } | { type: 'multi'; data: string[] } | { type: 'folder'; data: string };

/** A goal as stored: what it needs on which charts, on which GPT. */
export interface GoalDefinition {
  goalID: string;
  game: string;
  playtype: string;
  charts: GoalCharts;
  criteria: GoalCriteria;
}

/** A goal evaluated for a user (spec EvaluatedGoalResult, less the goalID). */
export interface GoalEvaluation {
  achieved: boolean;
  /** null when the user has no PB on any of the goal's charts (single mode). */
  progress: number | null;
  outOf: number;
  progressHuman: string;
  outOfHuman: string;
}

/** What the evaluation query measures of one goal for one user. */
export interface GoalMeasure {
  /** Charts in the goal's set (a folder's current charts). */
  chartCount: number;
  /** Charts whose PB meets the criteria. */
  matched: number;
  /** Single mode: the best PB in the set by the criteria key, or null when the user has none there. */
  best: { value: number; scoreData: ScoreData; chartData: Record<string, unknown> } | null;
}

/**
 * The evaluation of a goal from its measure, as Tachi's EvaluateGoalForUser:
 * - single: achieved when a PB in the set meets the value; progress is the best PB's value of the
 *   key (null, "NO DATA" without a PB), outOf the value.
 * - absolute: progress is the number of charts meeting it, outOf countNum.
 * - proportion: the same, outOf floor(countNum × charts in the set).
 */
export function evaluateMeasure(goal: Pick<GoalDefinition, 'criteria'>, measure: GoalMeasure, gpt: GptSupport): GoalEvaluation {
  const { criteria } = goal;
  const kind = criteriaKind(criteria.key);
  if (!kind) throw new Error(`Unknown goal criteria key '${criteria.key}'`);
  if (criteria.mode === 'single') {
    const { best } = measure;
    return {
      achieved: measure.matched > 0,
      progress: best ? best.value : null,
      outOf: criteria.value,
      progressHuman: best ? kind.progressHuman({ scoreData: best.scoreData, chartData: best.chartData }, criteria.value, gpt) : 'NO DATA',
      outOfHuman: kind.outOfHuman(criteria.value, gpt),
    };
  }
  const countNum = criteria.countNum ?? 0;
  const outOf = criteria.mode === 'absolute' ? countNum : Math.floor(countNum * measure.chartCount);
  return {
    achieved: measure.matched >= outOf,
    progress: measure.matched,
    outOf,
    progressHuman: String(measure.matched),
    outOfHuman: String(outOf),
  };
}

/** The criteria key's PB column, chosen per goal row (`g.key`) in SQL; built from the registry. */
function keyColumn(pb: string): SQL {
  const whens = Object.entries(CRITERIA).map(([key, kind]) => sql` WHEN ${key} THEN ${sql.raw(`${pb}.${kind.column}`)}::float8`);
  return sql`CASE g.key${sql.join(whens, sql``)} END`;
}

interface MeasureRow {
  goal_id: string;
  chart_count: number;
  matched: number;
  best_value: number | null;
  best_score_data: ScoreData | string | null;
  best_chart_data: Record<string, unknown> | string | null;
}

const parsed = <T>(v: T | string): T => (typeof v === 'string' ? (JSON.parse(v) as T) : v);

/**
 * Measures many goals for one user in one statement. Goals of any GPT may be mixed.
 * - Chart-list goals (single, multi) and single-mode folder goals join each chart of their set to
 *   the user's PB, count the charts meeting the value and pick the best PB.
 * - Counting folder goals (absolute, proportion) share the work per folder: each folder's charts
 *   are grouped once per criteria key by the user's PB value into (value, charts) pairs (no PB:
 *   a null value), and each goal sums the pairs (all of them: the chart count; those at or above
 *   its value: the charts meeting it). A folder of hundreds of charts costs its goals a few rows
 *   each, not hundreds.
 */
export async function measureGoals(q: Queryable, userID: number, goalIDs: readonly string[]): Promise<Map<string, GoalMeasure>> {
  const result = new Map<string, GoalMeasure>();
  if (goalIDs.length === 0) return result;
  const rows = await queryRows<MeasureRow>(
    q,
    sql`WITH g AS MATERIALIZED (
    SELECT goal_id, charts, charts->>'type' AS ctype, criteria->>'key' AS key, (criteria->>'value')::float8 AS target, criteria->>'mode' AS mode,
      (charts->>'type' = 'folder' AND criteria->>'mode' <> 'single') AS counting
    FROM goals WHERE goal_id = ANY(${sql.param([...goalIDs])}::text[])),
  pb AS MATERIALIZED (SELECT chart_id, score, percent, lamp_index, grade_index FROM personal_bests WHERE user_id = ${userID}),
  gc AS (
    SELECT g.goal_id, g.charts->>'data' AS chart_id FROM g WHERE g.ctype = 'single'
    UNION ALL SELECT g.goal_id, e FROM g, jsonb_array_elements_text(CASE WHEN g.ctype = 'multi' THEN g.charts->'data' ELSE '[]'::jsonb END) e
    UNION ALL SELECT g.goal_id, fc.chart_id FROM g JOIN folder_charts fc ON fc.folder_id = g.charts->>'data' WHERE g.ctype = 'folder' AND NOT g.counting),
  v AS (
    SELECT gc.goal_id, gc.chart_id, g.mode, g.target, ${keyColumn('pb')} AS val
    FROM gc JOIN g ON g.goal_id = gc.goal_id LEFT JOIN pb ON pb.chart_id = gc.chart_id),
  per_chart AS (SELECT goal_id, count(*)::int AS chart_count, (count(*) FILTER (WHERE val >= target))::int AS matched FROM v GROUP BY goal_id),
  best AS (SELECT DISTINCT ON (goal_id) goal_id, val, chart_id FROM v WHERE mode = 'single' AND val IS NOT NULL ORDER BY goal_id, val DESC, chart_id),
  fk AS MATERIALIZED (SELECT DISTINCT charts->>'data' AS folder_id, key FROM g WHERE counting),
  fdist AS MATERIALIZED (
    SELECT g.folder_id, g.key, ${keyColumn('pb')} AS val, count(*)::int AS n
    FROM fk g JOIN folder_charts fc ON fc.folder_id = g.folder_id LEFT JOIN pb ON pb.chart_id = fc.chart_id
    GROUP BY 1, 2, 3),
  per_folder AS (
    SELECT g.goal_id, coalesce(sum(d.n), 0)::int AS chart_count, coalesce(sum(d.n) FILTER (WHERE d.val >= g.target), 0)::int AS matched
    FROM g LEFT JOIN fdist d ON d.folder_id = g.charts->>'data' AND d.key = g.key
    WHERE g.counting GROUP BY g.goal_id)
SELECT g.goal_id, coalesce(pc.chart_count, pf.chart_count, 0) AS chart_count, coalesce(pc.matched, pf.matched, 0) AS matched,
  best.val AS best_value, bp.score_data AS best_score_data, c.data AS best_chart_data
FROM g LEFT JOIN per_chart pc ON pc.goal_id = g.goal_id LEFT JOIN per_folder pf ON pf.goal_id = g.goal_id
  LEFT JOIN best ON best.goal_id = g.goal_id LEFT JOIN charts c ON c.chart_id = best.chart_id
  LEFT JOIN personal_bests bp ON bp.user_id = ${userID} AND bp.chart_id = best.chart_id`,
  );
  for (const r of rows) {
    result.set(r.goal_id, {
      chartCount: Number(r.chart_count),
      matched: Number(r.matched),
      best:
        r.best_value === null || r.best_score_data === null
          ? null
          : { value: Number(r.best_value), scoreData: parsed(r.best_score_data), chartData: parsed(r.best_chart_data ?? {}) },
    });
  }
  return result;
}

/** Evaluates goals for a user: one query, whatever their number. Goals of unknown GPTs are left out. */
export async function evaluateGoals(q: Queryable, userID: number, goals: readonly GoalDefinition[]): Promise<Map<string, GoalEvaluation>> {
  const measures = await measureGoals(
    q,
    userID,
    goals.map((g) => g.goalID),
  );
  const result = new Map<string, GoalEvaluation>();
  for (const goal of goals) {
    const gpt = findGpt(goal.game, goal.playtype);
    const measure = measures.get(goal.goalID);
    if (!gpt || !measure) continue;
    result.set(goal.goalID, evaluateMeasure(goal, measure, gpt));
  }
  return result;
}
