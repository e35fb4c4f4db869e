import { and, eq, getTableColumns, sql } from 'drizzle-orm';
import { queryRows, type Tx } from '../../database/database.js';
import { anyOf, insertRows, upsertRows } from '../../database/bulk-write.js';
import { chartRankings, charts, pbRatings, personalBests, scores, songs } from '../../database/schema.js';
import type { ChartInfo, GptSupport, SongInfo } from '../../game-support/types.js';
import { toChartInfo, toSongInfo } from '../chart-info.js';
import { mergePersonalBest, pbOrderValue, type ScoreForPb } from './pb-merge.js';
import { lockCharts, pbsAfterExist } from './chart-ranks.writer.js';
import { groupBy } from '../../common/collections.js';

export interface ChartContext {
  chart: ChartInfo;
  song: SongInfo;
}

/** The chart and song of each of these charts, as recomputePersonalBests takes them. */
export async function loadChartContexts(tx: Tx, chartIDs: readonly string[]): Promise<Map<string, ChartContext>> {
  if (chartIDs.length === 0) return new Map();
  const rows = await tx
    .select({ chart: getTableColumns(charts), song: getTableColumns(songs) })
    .from(charts)
    .innerJoin(songs, and(eq(songs.game, charts.game), eq(songs.id, charts.songID)))
    .where(anyOf(charts.chartID, chartIDs));
  return new Map(rows.map((r) => [r.chart.chartID, { chart: toChartInfo(r.chart), song: toSongInfo(r.song) }]));
}

/** A PB as it was just merged, with what the profile algorithms need. */
export type MergedPbRow = typeof personalBests.$inferInsert & ChartContext & { rank: number };

/** A stored PB's ranking key and rank. */
interface StoredKey {
  chartID: string;
  rankOrder: number;
  score: number;
  rankTime: number | null;
  rank: number;
}

/**
 * Recomputes the user's PBs on these charts from all their scores there — the stored ones plus
 * `unsaved` (scores of this transaction not inserted yet) — deleting the PB of a chart with no
 * score left. It writes and locks no other player's row, and reads none but one index entry per
 * moved PB: the chart's player count follows, and a chart where other PBs' places may have
 * shifted is marked dirty, for the rank refresher (rank-refresher.ts) to re-rank off the
 * request path; readers count a dirty chart's ranks live meanwhile (database/pb-rank.ts).
 * `deferRanking` (bulk loads) takes no chart lock and leaves every touched chart dirty, for
 * rerankCharts afterwards (or the refresher). Returns the user's new PBs.
 */
export async function recomputePersonalBests(
  tx: Tx,
  userID: number,
  gpt: GptSupport,
  charts: ReadonlyMap<string, ChartContext>,
  unsaved: readonly (ScoreForPb & { chartID: string })[] = [],
  options: { deferRanking?: boolean } = {},
): Promise<MergedPbRow[]> {
  const chartIDs = [...charts.keys()];
  if (chartIDs.length === 0) return [];
  if (!options.deferRanking) await lockCharts(tx, chartIDs);
  // One after another: a transaction is one connection, and node-postgres deprecates queueing
  // several queries on a client at once.
  const stored = await tx
    .select({
      scoreID: scores.scoreID,
      chartID: scores.chartID,
      scoreData: scores.scoreData,
      timeAchieved: scores.timeAchieved,
      highlighted: scores.highlighted,
    })
    .from(scores)
    .where(and(eq(scores.userID, userID), anyOf(scores.chartID, chartIDs)));
  const before = await tx
    .select({
      chartID: personalBests.chartID,
      rankOrder: personalBests.rankOrder,
      score: personalBests.score,
      rankTime: personalBests.rankTime,
      rank: personalBests.rank,
    })
    .from(personalBests)
    .where(and(eq(personalBests.userID, userID), anyOf(personalBests.chartID, chartIDs)));
  const rankings = options.deferRanking
    ? []
    : await tx
        .select({ chartID: chartRankings.chartID, players: chartRankings.players, dirtySince: chartRankings.dirtySince })
        .from(chartRankings)
        .where(anyOf(chartRankings.chartID, chartIDs));
  const byChart = groupBy([...stored, ...unsaved], (r) => r.chartID);
  const was = new Map<string, StoredKey>(before.map((b) => [b.chartID, b]));

  const pbs: MergedPbRow[] = [];
  for (const [chartID, chartScores] of byChart) {
    const { chart, song } = charts.get(chartID)!;
    const merged = mergePersonalBest(gpt, chart, song, chartScores);
    pbs.push({
      userID,
      chartID,
      game: gpt.game,
      playtype: gpt.playtype,
      songID: chart.songID,
      isPrimary: chart.isPrimary,
      score: merged.scoreData.score,
      percent: merged.scoreData.percent,
      lampIndex: merged.scoreData.lampIndex,
      gradeIndex: merged.scoreData.gradeIndex,
      scoreData: merged.scoreData,
      calculatedData: merged.calculatedData,
      composedFrom: merged.composedFrom,
      timeAchieved: merged.timeAchieved,
      rankTime: merged.rankTime,
      highlighted: merged.highlighted,
      rankOrder: pbOrderValue(gpt, merged.scoreData),
      rank: 0,
      chart,
      song,
    });
  }

  // A PB whose key did not move keeps its rank (and so does everyone else); the rest moved.
  const moved = new Set<string>();
  for (const pb of pbs) {
    const old = was.get(pb.chartID);
    if (old && old.rankOrder === pb.rankOrder && old.score === pb.score && old.rankTime === (pb.rankTime ?? null)) pb.rank = old.rank;
    else moved.add(pb.chartID);
  }
  const ranking = new Map(rankings.map((r) => [r.chartID, r]));
  const isClean = (chartID: string) => !options.deferRanking && (ranking.get(chartID)?.dirtySince ?? null) === null;
  // On a clean chart, a PB with nobody after it takes the last rank and moves no one else. Finding
  // one PB after it is one index probe (where counting the PBs before it grows with the crowd).
  const movedOnClean = pbs.filter((pb) => moved.has(pb.chartID) && isClean(pb.chartID));
  const last = new Set(
    movedOnClean.length === 0
      ? []
      : (
          await queryRows<{ chart_id: string }>(
            tx,
            sql`SELECT k.chart_id FROM jsonb_to_recordset(${JSON.stringify(movedOnClean.map((p) => ({ chart_id: p.chartID, rank_order: p.rankOrder, score: p.score, rank_time: p.rankTime ?? null })))}::jsonb)
              AS k(chart_id text, rank_order float8, score float8, rank_time bigint)
            WHERE NOT ${pbsAfterExist({ chartID: sql`k.chart_id`, rankOrder: sql`k.rank_order`, score: sql`k.score`, rankTime: sql`k.rank_time`, userID: sql`${userID}::int` }, userID)}`,
          )
        ).map((r) => r.chart_id),
  );

  // Each chart whose PB appeared, went or moved: its player count changes by -1, 0 or +1, and it
  // turns dirty unless nobody else's place changed: on a clean chart, the PB came last and was
  // last before (or is new), or the one that went was last. A PB on a chart left dirty is stored
  // unranked (0) until the refresher ranks it; readers count it live meanwhile.
  const mine = new Map(pbs.map((p) => [p.chartID, p]));
  const now = Date.now();
  const chartChanges: { chart_id: string; players: number; dirty_since: number | null }[] = [];
  for (const chartID of [...chartIDs].sort()) {
    const old = was.get(chartID);
    const pb = mine.get(chartID);
    if (!old && !pb) continue;
    if (old && pb && !moved.has(chartID)) continue;
    const delta = (pb ? 1 : 0) - (old ? 1 : 0);
    const players = (ranking.get(chartID)?.players ?? 0) + delta;
    let dirty = true;
    if (isClean(chartID)) {
      if (pb) dirty = !last.has(chartID) || (old !== undefined && old.rank !== players);
      else dirty = old!.rank !== players + 1;
    }
    if (pb) pb.rank = dirty ? 0 : players;
    chartChanges.push({ chart_id: chartID, players: delta, dirty_since: dirty ? now : null });
  }

  const emptied = chartIDs.filter((id) => !byChart.has(id));
  if (emptied.length) await tx.delete(personalBests).where(and(eq(personalBests.userID, userID), anyOf(personalBests.chartID, emptied)));
  // A chart with no stored PB gets a plain insert, the rest replace a PB.
  const rows = pbs.map(({ chart: _chart, song: _song, ...row }) => row);
  await insertRows(
    tx,
    personalBests,
    rows.filter((r) => !was.has(r.chartID)),
  );
  await upsertRows(
    tx,
    personalBests,
    ['user_id', 'chart_id'],
    rows.filter((r) => was.has(r.chartID)),
  );
  // One pb_ratings row per numeric rating, so "best PBs by algorithm" reads an index: every
  // recomputed chart's rows are upserted and the others of those charts (an emptied chart's, a
  // rating gone null) deleted, in one statement.
  const ratingRows = pbs.flatMap((pb) =>
    Object.entries(pb.calculatedData)
      .filter((e): e is [string, number] => typeof e[1] === 'number' && Number.isFinite(e[1]))
      .map(([alg, value]) => ({ chart_id: pb.chartID, alg, value, is_primary: pb.isPrimary })),
  );
  await tx.execute(sql`WITH r AS (SELECT * FROM jsonb_to_recordset(${JSON.stringify(ratingRows)}::jsonb) AS r(chart_id text, alg text, value float8, is_primary boolean)),
    gone AS (DELETE FROM ${pbRatings} p WHERE p.user_id = ${userID} AND p.chart_id = ANY(${sql.param([...chartIDs])}::text[])
      AND NOT EXISTS (SELECT 1 FROM r WHERE r.chart_id = p.chart_id AND r.alg = p.alg))
    INSERT INTO ${pbRatings} (user_id, chart_id, game, playtype, alg, value, is_primary)
    SELECT ${userID}, r.chart_id, ${gpt.game}, ${gpt.playtype}, r.alg, r.value, r.is_primary FROM r ORDER BY r.chart_id, r.alg
    ON CONFLICT (user_id, chart_id, alg) DO UPDATE SET value = excluded.value, is_primary = excluded.is_primary
      WHERE ${pbRatings}.value IS DISTINCT FROM excluded.value OR ${pbRatings}.is_primary IS DISTINCT FROM excluded.is_primary`);
  if (chartChanges.length)
    await tx.execute(sql`
      INSERT INTO ${chartRankings} (chart_id, game, playtype, players, dirty_since)
      SELECT c.chart_id, ${gpt.game}, ${gpt.playtype}, c.players, c.dirty_since
      FROM jsonb_to_recordset(${JSON.stringify(chartChanges)}::jsonb) AS c(chart_id text, players int, dirty_since bigint)
      ORDER BY c.chart_id
      ON CONFLICT (chart_id) DO UPDATE SET
        players = greatest(${chartRankings.players} + excluded.players, 0),
        dirty_since = coalesce(${chartRankings.dirtySince}, excluded.dirty_since)`);
  return pbs;
}
