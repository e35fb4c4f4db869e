import { and, asc, eq, getTableColumns, gte, lte, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { anyOf } from '../../database/bulk-write.js';
import type { Database, Tx } from '../../database/database.js';
import { charts, personalBests, scores, songs } from '../../database/schema.js';
import { findGpt } from '../../game-support/registry.js';
import { groupBy } from '../../common/collections.js';
import { canonicalJson } from '../../common/canonical-json.js';
import { toChartInfo, toSongInfo } from '../chart-info.js';
import { rateScore } from '../pbs/pb-merge.js';
import { loadChartContexts, recomputePersonalBests } from '../pbs/personal-bests.writer.js';
import { lockCharts, writeChartRanks } from '../pbs/chart-ranks.writer.js';
import { refreshSessions } from '../sessions/sessions.writer.js';
import { recomputeGameStats } from '../profiles/game-stats.writer.js';
import { reevaluateTargets } from '../targets/target-progress.writer.js';

/** Which scores a recalc covers: every field is optional; none means every score. */
export interface ScoreFilter {
  game?: string;
  playtype?: string;
  chartID?: string;
  userID?: number;
  importType?: string;
  service?: string;
  timeAddedFrom?: number;
  timeAddedTo?: number;
}

/** Which PBs a resync covers (the users' PB keys, whether or not a PB row exists yet). */
export interface PbFilter {
  game?: string;
  playtype?: string;
  chartID?: string;
  userID?: number;
}

/** Rows per transaction: each batch commits on its own, so a long run never holds one giant transaction. */
const BATCH = 1000;

type Keyed = Record<'userID' | 'game' | 'playtype' | 'chartID', AnyPgColumn>;

function pbConditions(t: Keyed, filter: PbFilter, userIDs?: readonly number[]): (SQL | undefined)[] {
  return [
    filter.game === undefined ? undefined : eq(t.game, filter.game),
    filter.playtype === undefined ? undefined : eq(t.playtype, filter.playtype),
    filter.chartID === undefined ? undefined : eq(t.chartID, filter.chartID),
    filter.userID === undefined ? undefined : eq(t.userID, filter.userID),
    userIDs === undefined ? undefined : anyOf(t.userID, userIDs),
  ];
}

function scoreWhere(filter: ScoreFilter): SQL | undefined {
  return and(
    ...pbConditions(scores, filter),
    filter.importType === undefined ? undefined : eq(scores.importType, filter.importType),
    filter.service === undefined ? undefined : eq(scores.service, filter.service),
    filter.timeAddedFrom === undefined ? undefined : gte(scores.timeAdded, filter.timeAddedFrom),
    filter.timeAddedTo === undefined ? undefined : lte(scores.timeAdded, filter.timeAddedTo),
  );
}

export async function countScores(database: Database, filter: ScoreFilter): Promise<number> {
  const [row] = await database.db
    .select({ n: sql<number>`count(*)::int` })
    .from(scores)
    .where(scoreWhere(filter));
  return row.n;
}

/**
 * Recomputes the user's PBs (and the ranks on those charts), then their profile and their goals on
 * those charts, for each user and GPT of these keys. Every chart's rank lock is taken first, in one sorted statement, so that
 * a batch spanning many users cannot deadlock with an import.
 */
async function resyncKeys(
  tx: Tx,
  keys: readonly { userID: number; game: string; playtype: string; chartID: string }[],
  options: { repairRanks?: boolean } = {},
) {
  await lockCharts(tx, [...new Set(keys.map((k) => k.chartID))]);
  const contexts = await loadChartContexts(tx, [...new Set(keys.map((k) => k.chartID))]);
  for (const group of groupBy(keys, (k) => `${k.userID}:${k.game}:${k.playtype}`).values()) {
    const gpt = findGpt(group[0].game, group[0].playtype);
    if (!gpt) continue;
    const mine = new Map(group.filter((k) => contexts.has(k.chartID)).map((k) => [k.chartID, contexts.get(k.chartID)!]));
    await recomputePersonalBests(tx, group[0].userID, gpt, mine);
    // A repair also re-ranks and recounts those charts at once, whatever was stored before.
    if (options.repairRanks) await writeChartRanks(tx, gpt, [...new Set(group.map((k) => k.chartID))]);
    await recomputeGameStats(tx, group[0].userID, gpt);
    // recomputed PBs move goals as an import's do
    await reevaluateTargets(tx, group[0].userID, gpt.game, gpt.playtype, { chartIDs: [...mine.keys()] });
  }
}

/**
 * Recomputes the calculatedData of the matching scores, then the PBs, ranks, sessions and
 * profiles they feed, batch by batch (by user and chart, so a batch touches few profiles). Safe to
 * re-run: every value is derived from scoreData again. Returns how many scores were recalculated.
 */
export async function recalcScores(database: Database, filter: ScoreFilter, onBatch?: (done: number) => void): Promise<number> {
  const where = scoreWhere(filter);
  let done = 0;
  let after: { userID: number; chartID: string; scoreID: string } | undefined;
  for (;;) {
    const batch = await database.transaction(async (tx) => {
      const rows = await tx
        .select({ score: getTableColumns(scores), chart: getTableColumns(charts), song: getTableColumns(songs) })
        .from(scores)
        .innerJoin(charts, eq(charts.chartID, scores.chartID))
        .innerJoin(songs, and(eq(songs.game, charts.game), eq(songs.id, charts.songID)))
        .where(and(where, after && sql`(${scores.userID}, ${scores.chartID}, ${scores.scoreID}) > (${after.userID}, ${after.chartID}, ${after.scoreID})`))
        .orderBy(asc(scores.userID), asc(scores.chartID), asc(scores.scoreID))
        .limit(BATCH);
      if (rows.length === 0) return undefined;

      const changed: { score_id: string; calculated_data: Record<string, number | null> }[] = [];
      for (const { score, chart, song } of rows) {
        const gpt = findGpt(score.game, score.playtype);
        if (!gpt) continue;
        const calculatedData = rateScore(gpt, score.scoreData, toChartInfo(chart), toSongInfo(song));
        if (canonicalJson(calculatedData) !== canonicalJson(score.calculatedData)) changed.push({ score_id: score.scoreID, calculated_data: calculatedData });
      }
      if (changed.length)
        await tx.execute(sql`
          UPDATE ${scores} s SET calculated_data = r.calculated_data
          FROM jsonb_to_recordset(${JSON.stringify(changed)}::jsonb) AS r(score_id text, calculated_data jsonb)
          WHERE s.score_id = r.score_id`);

      const keys = rows.map(({ score }) => ({ userID: score.userID, game: score.game, playtype: score.playtype, chartID: score.chartID }));
      // Re-rating rarely re-orders a chart: a PB whose ranking key did not move keeps its rank, and
      // no other player's PB is written (a moved one marks its chart for the rank refresher).
      await resyncKeys(tx, keys);
      for (const group of groupBy(rows, (r) => `${r.score.game}:${r.score.playtype}`).values()) {
        const gpt = findGpt(group[0].score.game, group[0].score.playtype);
        const sessionIDs = [...new Set(group.map((r) => r.score.sessionID).filter((id): id is string => id !== null))];
        if (gpt) await refreshSessions(tx, gpt, sessionIDs);
      }
      const last = rows.at(-1)!.score;
      return { count: rows.length, last: { userID: last.userID, chartID: last.chartID, scoreID: last.scoreID } };
    });
    // Moved on only after the commit: a retried transaction reads the same batch again.
    if (!batch) return done;
    after = batch.last;
    done += batch.count;
    onBatch?.(done);
  }
}

/**
 * Recomputes the PBs of the given users (all users when userIDs is undefined) that match the
 * filter, from the scores stored, and re-ranks and recounts their charts; a PB whose scores are
 * gone is removed. Returns how
 * many (user, chart) PBs were recomputed.
 */
export async function resyncPersonalBests(database: Database, userIDs: readonly number[] | undefined, filter: PbFilter): Promise<number> {
  const fromScores = database.db
    .selectDistinct({ userID: scores.userID, game: scores.game, playtype: scores.playtype, chartID: scores.chartID })
    .from(scores)
    .where(and(...pbConditions(scores, filter, userIDs)));
  const fromPbs = database.db
    .selectDistinct({ userID: personalBests.userID, game: personalBests.game, playtype: personalBests.playtype, chartID: personalBests.chartID })
    .from(personalBests)
    .where(and(...pbConditions(personalBests, filter, userIDs)));
  const keys = await fromScores.union(fromPbs).orderBy(sql`1`, sql`4`);
  for (let i = 0; i < keys.length; i += BATCH) {
    const batch = keys.slice(i, i + BATCH);
    await database.transaction((tx) => resyncKeys(tx, batch, { repairRanks: true }));
  }
  return keys.length;
}
