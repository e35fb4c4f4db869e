import { sql, type SQL } from 'drizzle-orm';
import { ADVISORY_LOCK_NAMESPACE, queryRows, type Tx } from '../../database/database.js';
import { anyOf } from '../../database/bulk-write.js';
import { chartRankings, charts, personalBests } from '../../database/schema.js';
import { RANKING_ORDER_SQL, type RankingKey } from '../../database/pb-rank.js';
import type { GptSupport } from '../../game-support/types.js';
import { pbOrderValue } from './pb-merge.js';

/**
 * Chart ranks, as writers keep them: the per-chart rank lock every writer of a chart's PBs takes,
 * the stored ranks and player counts rewritten for whole charts, and the probe that lets a PB take
 * the last rank without re-ranking its chart. How readers rank (the ranking key, live ranks of a
 * dirty chart, chart pages) is database/pb-rank.ts.
 */

export const CHART_RANK_LOCK = ADVISORY_LOCK_NAMESPACE + 2;

/**
 * Serialises ranking per chart across concurrent transactions: locks are taken in one sorted
 * statement (no deadlock between two imports) and held until commit, so each transaction ranks
 * against every PB committed before it.
 */
export async function lockCharts(tx: Tx, chartIDs: readonly string[]) {
  if (chartIDs.length === 0) return;
  await tx.execute(
    sql`SELECT count(pg_advisory_xact_lock(${CHART_RANK_LOCK}, hashtext(c))) FROM (SELECT unnest(${sql.param([...chartIDs].sort())}::text[]) AS c ORDER BY c) s`,
  );
}

/**
 * SQL boolean: whether any PB on the key's chart (but `exceptUserID`'s) comes after it. Three
 * index probes, the mirror of pbsBefore's ranges (database/pb-rank.ts): a worse order; the same
 * order and a worse score; the same order and score, then a later rank_time (or none, where the
 * key has one) or the same one and a higher user id. Only writers ask (recomputePersonalBests).
 */
export function pbsAfterExist(k: RankingKey, exceptUserID: number): SQL {
  return sql`(EXISTS (SELECT 1 FROM personal_bests o WHERE o.chart_id = ${k.chartID} AND o.rank_order < ${k.rankOrder} AND o.user_id <> ${exceptUserID})
  OR EXISTS (SELECT 1 FROM personal_bests o WHERE o.chart_id = ${k.chartID} AND o.rank_order = ${k.rankOrder} AND o.score < ${k.score} AND o.user_id <> ${exceptUserID})
  OR EXISTS (SELECT 1 FROM personal_bests o WHERE o.chart_id = ${k.chartID} AND o.rank_order = ${k.rankOrder} AND o.score = ${k.score} AND o.user_id <> ${exceptUserID}
      AND ((${k.rankTime} IS NOT NULL AND (o.rank_time IS NULL OR o.rank_time > ${k.rankTime})) OR (o.rank_time IS NOT DISTINCT FROM ${k.rankTime} AND o.user_id > ${k.userID}))))`;
}

/**
 * Rewrites the stored rank of every PB on these charts that differs from its place by the ranking
 * key (one statement), sets each chart's player count and marks it clean. The caller holds the
 * charts' locks (lockCharts). Returns how many PBs changed rank.
 */
export async function writeChartRanks(tx: Tx, gpt: { game: string; playtype: string }, chartIDs: readonly string[]): Promise<number> {
  if (chartIDs.length === 0) return 0;
  const ids = sql.param([...chartIDs]);
  // Stored ranks equal the live ones readers count meanwhile: no answer changes, so the
  // read-change trigger stays quiet for this statement (drizzle/0021_read_changes.sql).
  await tx.execute(sql`SELECT set_config('st.read_changes', 'quiet', true)`);
  const changed = await queryRows<{ n: number }>(
    tx,
    sql`WITH ranked AS (
      SELECT user_id, chart_id, row_number() OVER (PARTITION BY chart_id ORDER BY ${RANKING_ORDER_SQL})::int AS rank
      FROM ${personalBests} WHERE chart_id = ANY(${ids}::text[])
    ), written AS (
      UPDATE ${personalBests} p SET rank = r.rank FROM ranked r
      WHERE p.chart_id = r.chart_id AND p.user_id = r.user_id AND p.chart_id = ANY(${ids}::text[]) AND p.rank <> r.rank
      RETURNING 1
    )
    SELECT count(*)::int AS n FROM written`,
  );
  await tx.execute(sql`SELECT set_config('st.read_changes', '', true)`);
  await tx.execute(sql`
    INSERT INTO ${chartRankings} (chart_id, game, playtype, players, dirty_since)
    SELECT c.chart_id, ${gpt.game}, ${gpt.playtype}, (SELECT count(*) FROM ${personalBests} p WHERE p.chart_id = c.chart_id), NULL
    FROM unnest(${ids}::text[]) AS c(chart_id)
    WHERE EXISTS (SELECT 1 FROM ${charts} WHERE ${charts.chartID} = c.chart_id)
    ORDER BY c.chart_id
    ON CONFLICT (chart_id) DO UPDATE SET players = excluded.players, dirty_since = NULL`);
  return Number(changed[0].n);
}

/**
 * Recomputes the ranking key (for a GPT with its own pbOrder, whose rule may have changed) and the
 * rank of every PB on these charts, writing only those that changed, with each chart's player
 * count; returns how many ranks changed. Imports leave ranks to the refresher: this is for PBs
 * written with deferRanking (a bulk load), account deletion, and repairs
 * (`npm run cli -- rerank`).
 */
export async function rerankCharts(tx: Tx, gpt: GptSupport, chartIDs: readonly string[]): Promise<number> {
  if (chartIDs.length === 0) return 0;
  await lockCharts(tx, chartIDs);
  const keys = await tx
    .select({
      userID: personalBests.userID,
      chartID: personalBests.chartID,
      percent: personalBests.percent,
      rankOrder: personalBests.rankOrder,
      scoreData: gpt.pbOrder ? personalBests.scoreData : sql<null>`NULL`,
    })
    .from(personalBests)
    .where(anyOf(personalBests.chartID, chartIDs));
  const fixed = keys
    .map((k) => ({ user_id: k.userID, chart_id: k.chartID, rank_order: k.scoreData ? pbOrderValue(gpt, k.scoreData) : k.percent, was: k.rankOrder }))
    .filter((k) => k.rank_order !== k.was);
  const CHUNK = 10_000;
  for (let i = 0; i < fixed.length; i += CHUNK)
    await tx.execute(sql`
      UPDATE ${personalBests} p SET rank_order = r.rank_order
      FROM jsonb_to_recordset(${JSON.stringify(fixed.slice(i, i + CHUNK).map(({ was: _was, ...k }) => k))}::jsonb) AS r(user_id int, chart_id text, rank_order float8)
      WHERE p.user_id = r.user_id AND p.chart_id = r.chart_id`);
  return writeChartRanks(tx, gpt, chartIDs);
}
