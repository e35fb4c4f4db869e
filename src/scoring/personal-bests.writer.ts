import { and, eq, getTableColumns, ne, sql } from 'drizzle-orm';
import { ADVISORY_LOCK_NAMESPACE, type Tx } from '../database/database.js';
import { anyOf, insertRows, upsertRows } from '../database/bulk-write.js';
import { charts, pbRatings, personalBests, scores, songs } from '../database/schema.js';
import type { ChartInfo, GptSupport, SongInfo } from '../game-support/types.js';
import { toChartInfo, toSongInfo } from './chart-info.js';
import { mergePersonalBest, pbOrderValue, type ScoreForPb } from './pb-merge.js';
import { groupBy } from '../common/collections.js';

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

const CHART_RANK_LOCK = ADVISORY_LOCK_NAMESPACE + 2;

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

/** A PB as it was just merged, with what the profile algorithms need. */
export type MergedPbRow = typeof personalBests.$inferInsert & ChartContext;

/**
 * Orders PBs on a chart as the PB merge picks a best result (the GPT's pbOrder value, e.g. ITG's
 * finalPercent, else percent; then score), best first; ties to the earlier rankTime (unknown last),
 * then user id.
 */
function compareForRank(a: RankEntry, b: RankEntry): number {
  return b.order - a.order || b.score - a.score || (a.rankTime ?? Number.POSITIVE_INFINITY) - (b.rankTime ?? Number.POSITIVE_INFINITY) || a.userID - b.userID;
}

interface RankEntry {
  userID: number;
  chartID: string;
  order: number;
  score: number;
  rankTime: number | null;
  rank: number;
  outOf: number;
}

/**
 * Recomputes the user's PBs on these charts from all their scores there — the stored ones plus
 * `unsaved` (scores of this transaction not inserted yet) — deleting the PB of a chart with no
 * score left. Ranks on those charts are recomputed at the same time: every PB gets a unique rank
 * 1..N (see compareForRank) and outOf = N; the user's PBs are written once with theirs, and other
 * players' PBs only where their rank or outOf changed. Returns the user's new PBs.
 */
export async function recomputePersonalBests(
  tx: Tx,
  userID: number,
  gpt: GptSupport,
  charts: ReadonlyMap<string, ChartContext>,
  unsaved: readonly (ScoreForPb & { chartID: string })[] = [],
  options: {
    deferRanking?: boolean;
    /**
     * Reads no other player's PB: a PB whose ranking values (order, score, rankTime) are what its
     * stored PB had keeps that rank, and only the charts where one moved (or appeared, or went) are
     * re-ranked. For recalc, where scores are re-rated but rarely re-ordered.
     */
    rerankOnlyMoved?: boolean;
  } = {},
): Promise<MergedPbRow[]> {
  const chartIDs = [...charts.keys()];
  if (chartIDs.length === 0) return [];
  if (!options.deferRanking) await lockCharts(tx, chartIDs);
  const readOthers = !options.deferRanking && !options.rerankOnlyMoved;
  const [stored, others, before] = await Promise.all([
    tx
      .select({
        scoreID: scores.scoreID,
        chartID: scores.chartID,
        scoreData: scores.scoreData,
        timeAchieved: scores.timeAchieved,
        highlighted: scores.highlighted,
      })
      .from(scores)
      .where(and(eq(scores.userID, userID), anyOf(scores.chartID, chartIDs))),
    readOthers ? rankedPbs(tx, gpt, chartIDs, { exceptUserID: userID }) : [],
    options.rerankOnlyMoved ? rankedPbs(tx, gpt, chartIDs, { onlyUserID: userID }) : [],
  ]);
  const byChart = groupBy([...stored, ...unsaved], (r) => r.chartID);

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
      rank: 1,
      outOf: 1,
      chart,
      song,
    });
  }

  const mine = new Map(pbs.map((p) => [p.chartID, p]));
  const changedOthers: RankEntry[] = [];
  const moved: string[] = [];
  if (options.deferRanking) {
    // Ranked later by rerankCharts; 0 marks "not ranked yet".
    for (const pb of pbs) [pb.rank, pb.outOf] = [0, 0];
  } else if (options.rerankOnlyMoved) {
    const was = new Map(before.map((e) => [e.chartID, e]));
    for (const pb of pbs) {
      const old = was.get(pb.chartID);
      const order = pbOrderValue(gpt, pb.scoreData);
      if (old && old.order === order && old.score === pb.score && old.rankTime === (pb.rankTime ?? null)) [pb.rank, pb.outOf] = [old.rank, old.outOf];
      else {
        [pb.rank, pb.outOf] = [0, 0];
        moved.push(pb.chartID);
      }
    }
  } else {
    const entries = [
      ...others,
      ...pbs.map((p) => ({
        userID,
        chartID: p.chartID,
        order: pbOrderValue(gpt, p.scoreData),
        score: p.score,
        rankTime: p.rankTime ?? null,
        rank: 0,
        outOf: 0,
      })),
    ];
    for (const e of rankWithinCharts(entries)) {
      if (e.userID === userID) {
        const pb = mine.get(e.chartID)!;
        pb.rank = e.rank;
        pb.outOf = e.outOf;
      } else {
        changedOthers.push(e);
      }
    }
  }

  const emptied = chartIDs.filter((id) => !byChart.has(id));
  if (emptied.length) await tx.delete(personalBests).where(and(eq(personalBests.userID, userID), anyOf(personalBests.chartID, emptied)));
  // A chart with no stored score has no PB yet: those are plain inserts, the rest replace a PB.
  const hadPb = new Set(stored.map((s) => s.chartID));
  const rows = pbs.map(({ chart: _chart, song: _song, ...row }) => row);
  await insertRows(
    tx,
    personalBests,
    rows.filter((r) => !hadPb.has(r.chartID)),
  );
  await upsertRows(
    tx,
    personalBests,
    ['user_id', 'chart_id'],
    rows.filter((r) => hadPb.has(r.chartID)),
  );
  // One pb_ratings row per numeric rating, so "best PBs by algorithm" reads an index. Every
  // recomputed chart's rows go, including an emptied chart's (its PB is gone, and a later PB there
  // inserts them again).
  await tx.delete(pbRatings).where(and(eq(pbRatings.userID, userID), anyOf(pbRatings.chartID, chartIDs)));
  await insertRows(
    tx,
    pbRatings,
    pbs.flatMap((pb) =>
      Object.entries(pb.calculatedData)
        .filter((e): e is [string, number] => typeof e[1] === 'number' && Number.isFinite(e[1]))
        .map(([alg, value]) => ({ userID, chartID: pb.chartID, game: gpt.game, playtype: gpt.playtype, alg, value, isPrimary: pb.isPrimary })),
    ),
  );
  await writeRanks(tx, changedOthers);
  if (options.rerankOnlyMoved) {
    const hadStoredPb = new Set(before.map((e) => e.chartID));
    const rerank = [...moved, ...emptied.filter((id) => hadStoredPb.has(id))];
    if (rerank.length) {
      const ranked = rankWithinCharts(await rankedPbs(tx, gpt, rerank));
      await writeRanks(tx, ranked);
      const mineRanked = new Map(ranked.filter((e) => e.userID === userID).map((e) => [e.chartID, e]));
      for (const pb of pbs) {
        const e = mineRanked.get(pb.chartID);
        if (e) [pb.rank, pb.outOf] = [e.rank, e.outOf];
      }
    }
  }
  return pbs;
}

/** The PBs on these charts (all, all but one user's, or only one user's) as ranking reads them. */
async function rankedPbs(tx: Tx, gpt: GptSupport, chartIDs: readonly string[], who: { exceptUserID?: number; onlyUserID?: number } = {}): Promise<RankEntry[]> {
  const rows = await tx
    .select({
      userID: personalBests.userID,
      chartID: personalBests.chartID,
      percent: personalBests.percent,
      // Only a GPT with its own pbOrder needs the rest of the score data to rank.
      scoreData: gpt.pbOrder ? personalBests.scoreData : sql<null>`NULL`,
      score: personalBests.score,
      rankTime: personalBests.rankTime,
      rank: personalBests.rank,
      outOf: personalBests.outOf,
    })
    .from(personalBests)
    .where(
      and(
        anyOf(personalBests.chartID, chartIDs),
        who.exceptUserID === undefined ? undefined : ne(personalBests.userID, who.exceptUserID),
        who.onlyUserID === undefined ? undefined : eq(personalBests.userID, who.onlyUserID),
      ),
    );
  return rows.map(({ percent, scoreData, ...o }) => ({ ...o, order: scoreData ? pbOrderValue(gpt, scoreData) : percent }));
}

/**
 * Ranks the entries chart by chart (see compareForRank): unique ranks 1..N, outOf N. Returns the
 * entries whose rank or outOf differs from what they carry, with the new values.
 */
function rankWithinCharts(entries: readonly RankEntry[]): RankEntry[] {
  const changed: RankEntry[] = [];
  for (const chartEntries of groupBy(entries, (e) => e.chartID).values()) {
    chartEntries.sort(compareForRank);
    chartEntries.forEach((e, i) => {
      if (e.rank !== i + 1 || e.outOf !== chartEntries.length) changed.push({ ...e, rank: i + 1, outOf: chartEntries.length });
    });
  }
  return changed;
}

async function writeRanks(tx: Tx, changed: readonly RankEntry[]) {
  const CHUNK = 10_000;
  for (let i = 0; i < changed.length; i += CHUNK) {
    await tx.execute(sql`
      UPDATE ${personalBests} p SET rank = r.rank, out_of = r.out_of
      FROM jsonb_to_recordset(${JSON.stringify(changed.slice(i, i + CHUNK).map((e) => ({ user_id: e.userID, chart_id: e.chartID, rank: e.rank, out_of: e.outOf })))}::jsonb)
        AS r(user_id int, chart_id text, rank int, out_of int)
      WHERE p.user_id = r.user_id AND p.chart_id = r.chart_id`);
  }
}

/**
 * Recomputes rank and outOf of every PB on these charts of the GPT, writing only those that
 * changed; returns how many did. Imports keep ranks right as they go: this is for PBs written
 * with deferRanking (a bulk load) and for repairs after the ranking rules change
 * (`npm run cli -- rerank`).
 */
export async function rerankCharts(tx: Tx, gpt: GptSupport, chartIDs: readonly string[]): Promise<number> {
  if (chartIDs.length === 0) return 0;
  await lockCharts(tx, chartIDs);
  const changed = rankWithinCharts(await rankedPbs(tx, gpt, chartIDs));
  await writeRanks(tx, changed);
  return changed.length;
}
