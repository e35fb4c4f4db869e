import { asc, desc, sql, type SQL } from 'drizzle-orm';
import { aliasedColumns } from './database.js';
import { chartRankings, personalBests } from './schema.js';

/**
 * Chart ranks of PBs. The ranking key orders a chart's PBs best first: rank_order (the GPT's
 * pbOrder value, else percent) descending, score descending, the earlier rank_time (unknown last),
 * then the lower user id: every PB gets a unique rank 1..N, N being the chart's `players`
 * (chart_rankings). pbs_chart_order_idx holds the key, so every count below is an index range.
 * This file is the key and how readers rank by it (repositories use it); how writers store ranks
 * (the chart rank lock, rank rewrites, the last-rank probe) is scoring/pbs/chart-ranks.writer.ts.
 */

/** ORDER BY of a chart's PBs, best first (pbs_chart_order_idx). */
export const RANKING_ORDER = [
  desc(personalBests.rankOrder),
  desc(personalBests.score),
  sql`${personalBests.rankTime} ASC NULLS LAST`,
  asc(personalBests.userID),
];

/** The SQL of `ORDER BY` of the ranking key, for raw statements over personal_bests (unaliased). */
export const RANKING_ORDER_SQL = sql.raw('rank_order DESC, score DESC, rank_time ASC NULLS LAST, user_id');

/** A PB's ranking key as SQL values (columns of an outer row, or parameters). */
export interface RankingKey {
  chartID: SQL;
  rankOrder: SQL;
  score: SQL;
  rankTime: SQL;
  userID: SQL;
}

/**
 * SQL bigint: how many PBs on the key's chart come before it. Three index ranges: a better order;
 * the same order and a better score; the same order and score, then an earlier rank_time (unknown
 * last) or the same one and a lower user id.
 */
export function pbsBefore(k: RankingKey): SQL {
  return sql`((SELECT count(*) FROM personal_bests o WHERE o.chart_id = ${k.chartID} AND o.rank_order > ${k.rankOrder})
  + (SELECT count(*) FROM personal_bests o WHERE o.chart_id = ${k.chartID} AND o.rank_order = ${k.rankOrder} AND o.score > ${k.score})
  + (SELECT count(*) FROM personal_bests o WHERE o.chart_id = ${k.chartID} AND o.rank_order = ${k.rankOrder} AND o.score = ${k.score}
      AND (o.rank_time < ${k.rankTime} OR (${k.rankTime} IS NULL AND o.rank_time IS NOT NULL) OR (o.rank_time IS NOT DISTINCT FROM ${k.rankTime} AND o.user_id < ${k.userID}))))`;
}

/** The key of the personal_bests row of the enclosing query. */
const OUTER_PB: RankingKey = {
  chartID: sql`${personalBests.chartID}`,
  rankOrder: sql`${personalBests.rankOrder}`,
  score: sql`${personalBests.score}`,
  rankTime: sql`${personalBests.rankTime}`,
  userID: sql`${personalBests.userID}`,
};

/**
 * SQL int or null: the place of the enclosing query's PB among its owner's rivals on the GPT (1 +
 * the rivals whose PB on the chart comes before it by the ranking key); null when the owner has no
 * rivals there (Tachi's rankingData.rivalRank). Counted live, from the rivals' PBs as they are, so
 * no stored rank needs rewriting when rivals change. The read cache stays exact: a change of
 * rivals notifies the owner's `u:` scope (trigger on rivals), a rival's PB its chart's `c:`, and
 * every cached answer with PBs lists both for each PB it holds.
 */
export const RIVAL_RANK = rivalRankOf((column) => sql.raw(`"personal_bests"."${column}"`));

/**
 * RIVAL_RANK of the PB whose columns `outer` names. They are written qualified: Drizzle leaves a
 * single-table select's columns unqualified, and inside the subquery those would name its own.
 */
function rivalRankOf(outer: (column: string) => SQL): SQL<number | null> {
  const [chartID, rankOrder, score, rankTime, userID] = ['chart_id', 'rank_order', 'score', 'rank_time', 'user_id'].map(outer);
  return sql<number | null>`(SELECT CASE WHEN count(*) = 0 THEN NULL ELSE 1 + count(o.user_id) END
  FROM rivals rv LEFT JOIN personal_bests o ON o.user_id = rv.rival_id AND o.chart_id = ${chartID}
    AND (o.rank_order > ${rankOrder}
      OR (o.rank_order = ${rankOrder} AND o.score > ${score})
      OR (o.rank_order = ${rankOrder} AND o.score = ${score}
        AND (o.rank_time < ${rankTime} OR (${rankTime} IS NULL AND o.rank_time IS NOT NULL)
          OR (o.rank_time IS NOT DISTINCT FROM ${rankTime} AND o.user_id < ${userID}))))
  WHERE rv.user_id = ${userID} AND rv.game = ${outer('game')} AND rv.playtype = ${outer('playtype')})::int`;
}

/**
 * A PB's columns as readers serve them, for a query over personal_bests LEFT JOINed to
 * chart_rankings (see joinChartRanking): `rank` is the stored one while the chart is clean, else
 * counted live; `outOf` is the chart's player count.
 */
export const rankedPbColumns = {
  userID: personalBests.userID,
  chartID: personalBests.chartID,
  game: personalBests.game,
  playtype: personalBests.playtype,
  songID: personalBests.songID,
  isPrimary: personalBests.isPrimary,
  score: personalBests.score,
  percent: personalBests.percent,
  lampIndex: personalBests.lampIndex,
  gradeIndex: personalBests.gradeIndex,
  scoreData: personalBests.scoreData,
  calculatedData: personalBests.calculatedData,
  composedFrom: personalBests.composedFrom,
  timeAchieved: personalBests.timeAchieved,
  rankTime: personalBests.rankTime,
  highlighted: personalBests.highlighted,
  rankOrder: personalBests.rankOrder,
  rank: sql<number>`(CASE WHEN ${chartRankings.dirtySince} IS NULL THEN ${personalBests.rank} ELSE 1 + ${pbsBefore(OUTER_PB)} END)`.mapWith(Number),
  outOf: sql<number>`coalesce(${chartRankings.players}, 0)`.mapWith(Number),
  rivalRank: RIVAL_RANK.mapWith((v: string | number | null): number | null => (v === null ? null : Number(v))),
};

/** rankedPbColumns as the select list of a ReadStatement: its rows are the PbRecords Drizzle would map. */
export const RANKED_PB_SELECT = aliasedColumns({
  ...rankedPbColumns,
  rank: sql`(${rankedPbColumns.rank})::int`,
  outOf: sql`(${rankedPbColumns.outOf})::int`,
});

/** The join rankedPbColumns reads. */
export const CHART_RANKING_JOIN = [chartRankings, sql`${chartRankings.chartID} = ${personalBests.chartID}`] as const;

/** A chart page's PB columns: the stored rank (renumbered by readChartPage when the chart is dirty) and the chart's player count. */
export function chartPagePbColumns(chartID: string | SQL) {
  return {
    ...rankedPbColumns,
    rank: personalBests.rank,
    outOf: sql<number>`coalesce((SELECT r.players FROM ${chartRankings} r WHERE r.chart_id = ${chartID}), 0)`.mapWith(Number),
  };
}

/** Whether the chart's stored ranks are stale, read in the page's own statement (so from the same snapshot). */
export function chartIsDirty(chartID: string | SQL) {
  return sql<boolean>`coalesce((SELECT r.dirty_since IS NOT NULL FROM ${chartRankings} r WHERE r.chart_id = ${chartID}), false)`;
}

/**
 * A page of a chart's PBs in rank order, from rank `first`, at most `limit`. `query` runs the
 * page's statement selecting `pb` (chartPagePbColumns) and `dirty` (chartIsDirty): first by stored
 * rank (pbs_chart_rank_idx), trusted when that statement saw the chart clean; else by the ranking
 * key from the page start (OFFSET over pbs_chart_order_idx), ranks numbered from `first`. `by`
 * says which of the two pages is asked for (a caller may run the first as a ReadStatement).
 */
export async function readChartPage<R extends { pb: { rank: number }; dirty: boolean }>(
  first: number,
  query: (page: { by: 'rank' | 'key'; where: SQL | undefined; orderBy: SQL[]; offset: number }) => Promise<R[]>,
): Promise<R[]> {
  const byRank = await query({ by: 'rank', where: sql`${personalBests.rank} >= ${first}`, orderBy: [asc(personalBests.rank)], offset: 0 });
  if (byRank.length > 0 && !byRank[0].dirty) return byRank;
  const byKey = await query({ by: 'key', where: undefined, orderBy: RANKING_ORDER, offset: first - 1 });
  return byKey.map((r, i) => ({ ...r, pb: { ...r.pb, rank: first + i } }));
}
