import { and, eq, getTableColumns, sql, type SQL } from 'drizzle-orm';
import { queryRows, type Tx } from '../../database/database.js';
import { anyOf, fitsOneWrite, insertRows, insertRowsStatement, upsertRows, upsertRowsStatement, writeTogether } from '../../database/bulk-write.js';
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

/** A stored score as the PB merge reads it. */
export type StoredScoreForPb = ScoreForPb & { chartID: string };

/** The user's stored scores and PBs on some charts: what recomputePersonalBests reads of their own rows. */
export interface UserChartState {
  stored: StoredScoreForPb[];
  before: StoredKey[];
}

/**
 * The user's scores and PBs on these charts, in one statement. Only the user's own rows, which no
 * other writer changes while the caller holds the user's import lock: an import reads them once,
 * for its re-send check and its PB merge (recomputePersonalBests' `preloaded`); other callers'
 * merges read them after the charts' lock.
 */
export async function loadUserChartState(tx: Tx, userID: number, chartIDs: readonly string[]): Promise<UserChartState> {
  if (chartIDs.length === 0) return { stored: [], before: [] };
  const ids = sql.param([...chartIDs]);
  const [row] = await queryRows<{ stored_rows: StoredScoreForPb[] | null; pb_rows: StoredKey[] | null }>(
    tx,
    sql`SELECT
      (SELECT json_agg(json_build_object('scoreID', s.score_id, 'chartID', s.chart_id, 'scoreData', s.score_data, 'timeAchieved', s.time_achieved, 'highlighted', s.highlighted))
        FROM ${scores} s WHERE s.user_id = ${userID} AND s.chart_id = ANY(${ids}::text[])) AS stored_rows,
      (SELECT json_agg(json_build_object('chartID', p.chart_id, 'rankOrder', p.rank_order, 'score', p.score, 'rankTime', p.rank_time, 'rank', p.rank))
        FROM ${personalBests} p WHERE p.user_id = ${userID} AND p.chart_id = ANY(${ids}::text[])) AS pb_rows`,
  );
  return { stored: row.stored_rows ?? [], before: row.pb_rows ?? [] };
}

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
  options: {
    deferRanking?: boolean;
    preloaded?: UserChartState;
    /** The caller's writes to run in the same statement as the PBs' (writeTogether parts; rows no PB write touches). */
    together?: readonly SQL[];
  } = {},
): Promise<MergedPbRow[]> {
  const chartIDs = [...charts.keys()];
  if (chartIDs.length === 0) {
    await writeTogether(tx, options.together ?? []);
    return [];
  }
  if (!options.deferRanking) await lockCharts(tx, chartIDs);
  const { stored, before } = options.preloaded
    ? { stored: options.preloaded.stored.filter((r) => charts.has(r.chartID)), before: options.preloaded.before.filter((b) => charts.has(b.chartID)) }
    : await loadUserChartState(tx, userID, chartIDs);
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
  // A chart with no stored PB gets a plain insert, the rest replace a PB; a replacement that comes
  // out as stored (a recalc's re-run, a play that beat nothing) is not rewritten (onlyChanged).
  const rows = pbs.map(({ chart: _chart, song: _song, ...row }) => row);
  const inserted = rows.filter((r) => !was.has(r.chartID));
  const replaced = rows.filter((r) => was.has(r.chartID));
  // One pb_ratings row per numeric rating, so "best PBs by algorithm" reads an index: every
  // recomputed chart's rows are upserted and the others of those charts (an emptied chart's, a
  // rating gone null) deleted.
  const ratingRows = pbs.flatMap((pb) =>
    Object.entries(pb.calculatedData)
      .filter((e): e is [string, number] => typeof e[1] === 'number' && Number.isFinite(e[1]))
      .map(([alg, value]) => ({ chart_id: pb.chartID, alg, value, is_primary: pb.isPrimary })),
  );
  const ratingParts = [
    sql`pbr_rows AS (SELECT * FROM jsonb_to_recordset(${JSON.stringify(ratingRows)}::jsonb) AS r(chart_id text, alg text, value float8, is_primary boolean))`,
    sql`pbr_gone AS (DELETE FROM ${pbRatings} p WHERE p.user_id = ${userID} AND p.chart_id = ANY(${sql.param([...chartIDs])}::text[])
      AND NOT EXISTS (SELECT 1 FROM pbr_rows r WHERE r.chart_id = p.chart_id AND r.alg = p.alg))`,
    sql`pbr_kept AS (INSERT INTO ${pbRatings} (user_id, chart_id, game, playtype, alg, value, is_primary)
      SELECT ${userID}, r.chart_id, ${gpt.game}, ${gpt.playtype}, r.alg, r.value, r.is_primary FROM pbr_rows r ORDER BY r.chart_id, r.alg
      ON CONFLICT (user_id, chart_id, alg) DO UPDATE SET value = excluded.value, is_primary = excluded.is_primary
        WHERE ${pbRatings}.value IS DISTINCT FROM excluded.value OR ${pbRatings}.is_primary IS DISTINCT FROM excluded.is_primary)`,
  ];
  const rankingParts = chartChanges.length
    ? [
        sql`ranks AS (INSERT INTO ${chartRankings} (chart_id, game, playtype, players, dirty_since)
      SELECT c.chart_id, ${gpt.game}, ${gpt.playtype}, c.players, c.dirty_since
      FROM jsonb_to_recordset(${JSON.stringify(chartChanges)}::jsonb) AS c(chart_id text, players int, dirty_since bigint)
      ORDER BY c.chart_id
      ON CONFLICT (chart_id) DO UPDATE SET
        players = greatest(${chartRankings.players} + excluded.players, 0),
        dirty_since = coalesce(${chartRankings.dirtySince}, excluded.dirty_since))`,
      ]
    : [];
  const emptiedPart = emptied.length
    ? [sql`pb_gone AS (DELETE FROM ${personalBests} WHERE user_id = ${userID} AND chart_id = ANY(${sql.param(emptied)}::text[]))`]
    : [];
  // These writes touch distinct rows and read none of each other's: one statement, one round trip
  // (with the caller's own, such as the new scores). Past one batch of rows, one statement each.
  if (fitsOneWrite(inserted) && fitsOneWrite(replaced) && fitsOneWrite(ratingRows)) {
    await writeTogether(tx, [
      ...(options.together ?? []),
      ...emptiedPart,
      ...(inserted.length ? [sql`pb_new AS (${insertRowsStatement(personalBests, inserted)})`] : []),
      ...(replaced.length ? [sql`pb_replaced AS (${upsertRowsStatement(personalBests, ['user_id', 'chart_id'], replaced, { onlyChanged: true })})`] : []),
      ...ratingParts,
      ...rankingParts,
    ]);
    return pbs;
  }
  await writeTogether(tx, [...(options.together ?? []), ...emptiedPart]);
  await insertRows(tx, personalBests, inserted);
  await upsertRows(tx, personalBests, ['user_id', 'chart_id'], replaced, undefined, { onlyChanged: true });
  await writeTogether(tx, [...ratingParts, ...rankingParts]);
  return pbs;
}
