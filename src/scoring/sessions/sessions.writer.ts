import { and, eq, getTableColumns, gt, inArray, lt, sql, type SQL } from 'drizzle-orm';
import { randomHex } from '../../common/crypto.js';
import { fitsOneWrite, insertRows, insertRowsStatement } from '../../database/bulk-write.js';
import { queryRows, type Tx } from '../../database/database.js';
import { charts, scores, sessions, songs, type CreatedSession, type SessionRow } from '../../database/schema.js';
import type { GptSupport, RatedScore } from '../../game-support/types.js';
import { toChartInfo, toSongInfo } from '../chart-info.js';
import { extendsSession, groupIntoSessions, SESSION_GAP_MS } from './session-grouping.js';
import { generateSessionName } from './session-names.js';
import { groupBy } from '../../common/collections.js';

export interface ScoreForSession {
  scoreID: string;
  timeAchieved: number | null;
  rated: RatedScore;
}

function sessionRatings(gpt: GptSupport, rated: readonly RatedScore[]): Record<string, number | null> {
  return Object.fromEntries(Object.entries(gpt.sessionRatingAlgs).map(([name, alg]) => [name, alg.calculate(rated)]));
}

/**
 * The session ratings of appended sessions from the best values alone, when every session
 * algorithm rates the best n values of one score rating (AggregateRatingAlg.best): one statement
 * reads, per session and score rating, the n best of the stored scores' values; the new scores'
 * values join them in memory. Undefined for a GPT with another kind of algorithm.
 */
async function ratingsFromBest(
  tx: Tx,
  gpt: GptSupport,
  appended: readonly { sessionID: string; added: readonly RatedScore[] }[],
): Promise<Map<string, Record<string, number | null>> | undefined> {
  const algs = Object.entries(gpt.sessionRatingAlgs);
  if (algs.length === 0 || !algs.every(([, alg]) => alg.best)) return undefined;
  const wanted = new Map<string, number>();
  for (const [, alg] of algs) wanted.set(alg.best!.alg, Math.max(wanted.get(alg.best!.alg) ?? 0, alg.best!.n));
  const rows = appended.length
    ? await queryRows<{ session_id: string; alg: string; value: number }>(
        tx,
        sql`SELECT x.session_id, x.alg, x.value FROM (
          SELECT sc.session_id, a.alg, a.n, (sc.calculated_data ->> a.alg)::float8 AS value,
            row_number() OVER (PARTITION BY sc.session_id, a.alg ORDER BY (sc.calculated_data ->> a.alg)::float8 DESC) AS r
          FROM ${scores} sc CROSS JOIN jsonb_to_recordset(${JSON.stringify([...wanted].map(([alg, n]) => ({ alg, n })))}::jsonb) AS a(alg text, n int)
          WHERE sc.session_id = ANY(${sql.param(appended.map((a) => a.sessionID))}::text[]) AND jsonb_typeof(sc.calculated_data -> a.alg) = 'number'
        ) x WHERE x.r <= x.n`,
      )
    : [];
  const stored = new Map<string, number[]>();
  for (const r of rows) {
    const key = `${r.session_id}\u0000${r.alg}`;
    const list = stored.get(key) ?? [];
    list.push(Number(r.value));
    stored.set(key, list);
  }
  return new Map(
    appended.map(({ sessionID, added }) => [
      sessionID,
      Object.fromEntries(
        algs.map(([name, alg]) => {
          const { alg: scoreAlg, n, of } = alg.best!;
          const values = [...(stored.get(`${sessionID}\u0000${scoreAlg}`) ?? [])];
          for (const s of added) {
            const v = s.calculatedData[scoreAlg];
            if (typeof v === 'number' && Number.isFinite(v)) values.push(v);
          }
          return [name, of(values.sort((a, b) => b - a).slice(0, n))];
        }),
      ),
    ]),
  );
}

/** The scores already in these sessions, rated, by session. */
async function sessionScores(tx: Tx, sessionIDs: readonly string[]): Promise<Map<string, RatedScore[]>> {
  if (sessionIDs.length === 0) return new Map();
  const rows = await tx
    .select({
      sessionID: scores.sessionID,
      scoreData: scores.scoreData,
      calculatedData: scores.calculatedData,
      chart: getTableColumns(charts),
      song: getTableColumns(songs),
    })
    .from(scores)
    .innerJoin(charts, eq(charts.chartID, scores.chartID))
    .innerJoin(songs, and(eq(songs.game, charts.game), eq(songs.id, charts.songID)))
    .where(inArray(scores.sessionID, [...sessionIDs]));
  const grouped = groupBy(rows, (r) => r.sessionID!);
  return new Map(
    [...grouped].map(([id, list]) => [
      id,
      list.map((r) => ({ scoreData: r.scoreData, calculatedData: r.calculatedData, chart: toChartInfo(r.chart), song: toSongInfo(r.song) })),
    ]),
  );
}

/**
 * Puts new timestamped scores into sessions: runs of scores under two hours apart form a group;
 * a group within two hours of an existing session extends it ("Appended"), otherwise it becomes a
 * new session ("Created"). Returns the session of each new score, each touched session once, and
 * the writes of the session rows, which the caller runs with (or before) the scores' insert
 * (writeTogether parts).
 */
export async function assignSessions(
  tx: Tx,
  userID: number,
  gpt: GptSupport,
  newScores: readonly ScoreForSession[],
): Promise<{ sessionOf: Map<string, string>; touched: CreatedSession[]; writes: SQL[] }> {
  const sessionOf = new Map<string, string>();
  const timed = newScores.filter((s): s is ScoreForSession & { timeAchieved: number } => s.timeAchieved !== null);
  if (timed.length === 0) return { sessionOf, touched: [], writes: [] };
  const groups = groupIntoSessions(timed);
  const first = groups[0][0].timeAchieved;
  const last = groups.at(-1)!.at(-1)!.timeAchieved;
  const nearby = await tx
    .select()
    .from(sessions)
    .where(
      and(
        eq(sessions.userID, userID),
        eq(sessions.game, gpt.game),
        eq(sessions.playtype, gpt.playtype),
        gt(sessions.timeEnded, first - SESSION_GAP_MS),
        lt(sessions.timeStarted, last + SESSION_GAP_MS),
      ),
    );

  const working: { row: SessionRow; created: boolean; added: RatedScore[] }[] = nearby.map((row) => ({ row: { ...row }, created: false, added: [] }));
  for (const group of groups) {
    const start = group[0].timeAchieved;
    const end = group.at(-1)!.timeAchieved;
    // Of the sessions this group could extend, the nearest in time.
    const gap = (w: (typeof working)[number]) => Math.max(0, w.row.timeStarted - end, start - w.row.timeEnded);
    let target = working.filter((w) => extendsSession(w.row, start, end)).sort((a, b) => gap(a) - gap(b) || a.row.timeStarted - b.row.timeStarted)[0];
    if (target) {
      target.row.timeStarted = Math.min(target.row.timeStarted, start);
      target.row.timeEnded = Math.max(target.row.timeEnded, end);
    } else {
      const now = Date.now();
      target = {
        row: {
          sessionID: `Q${randomHex(20)}`,
          userID,
          game: gpt.game,
          playtype: gpt.playtype,
          name: generateSessionName(),
          desc: null,
          calculatedData: {},
          highlighted: false,
          timeInserted: now,
          timeStarted: start,
          timeEnded: end,
        },
        created: true,
        added: [],
      };
      working.push(target);
    }
    for (const s of group) {
      target.added.push(s.rated);
      sessionOf.set(s.scoreID, target.row.sessionID);
    }
  }

  const touched = working.filter((w) => w.added.length > 0);
  const appended = touched.filter((w) => !w.created);
  const fromBest = await ratingsFromBest(
    tx,
    gpt,
    appended.map((w) => ({ sessionID: w.row.sessionID, added: w.added })),
  );
  const existing = fromBest
    ? new Map<string, RatedScore[]>()
    : await sessionScores(
        tx,
        appended.map((w) => w.row.sessionID),
      );
  for (const w of touched)
    w.row.calculatedData = (!w.created && fromBest?.get(w.row.sessionID)) || sessionRatings(gpt, [...(existing.get(w.row.sessionID) ?? []), ...w.added]);
  // The session rows are written with the scores (writeTogether parts: the scores' references to
  // them are checked at the end of that statement), or now when there are too many for one part.
  const created = touched.filter((w) => w.created).map((w) => w.row);
  const updates = touched
    .filter((t) => !t.created)
    .map((w) => ({ session_id: w.row.sessionID, time_started: w.row.timeStarted, time_ended: w.row.timeEnded, calculated_data: w.row.calculatedData }));
  const writes: SQL[] = [];
  if (created.length) {
    if (fitsOneWrite(created)) writes.push(sql`sessions_new AS (${insertRowsStatement(sessions, created)})`);
    else await insertRows(tx, sessions, created);
  }
  if (updates.length)
    writes.push(sql`sessions_appended AS (UPDATE ${sessions} s SET time_started = u.time_started, time_ended = u.time_ended, calculated_data = u.calculated_data
      FROM jsonb_to_recordset(${JSON.stringify(updates)}::jsonb) AS u(session_id text, time_started bigint, time_ended bigint, calculated_data jsonb)
      WHERE s.session_id = u.session_id)`);
  return { sessionOf, touched: touched.map((w) => ({ sessionID: w.row.sessionID, type: w.created ? 'Created' : 'Appended' })), writes };
}

/**
 * After scores left these sessions: a session with no score left is deleted; the others get their
 * span and ratings recomputed from the scores that remain.
 */
export async function refreshSessions(tx: Tx, gpt: GptSupport, sessionIDs: readonly string[]): Promise<void> {
  if (sessionIDs.length === 0) return;
  const remaining = await sessionScores(tx, sessionIDs);
  const spans = await tx
    .select({ sessionID: scores.sessionID, timeAchieved: scores.timeAchieved })
    .from(scores)
    .where(inArray(scores.sessionID, [...sessionIDs]));
  const empty = sessionIDs.filter((id) => !remaining.has(id));
  if (empty.length) await tx.delete(sessions).where(inArray(sessions.sessionID, empty));
  const times = groupBy(
    spans.filter((s) => s.timeAchieved !== null),
    (s) => s.sessionID!,
  );
  const rows = [...remaining].map(([sessionID, rated]) => {
    const at = (times.get(sessionID) ?? []).map((s) => s.timeAchieved!);
    return {
      session_id: sessionID,
      calculated_data: sessionRatings(gpt, rated),
      time_started: at.length ? Math.min(...at) : null,
      time_ended: at.length ? Math.max(...at) : null,
    };
  });
  // One statement for them all, writing only the sessions whose values changed.
  const CHUNK = 5_000;
  for (let i = 0; i < rows.length; i += CHUNK)
    await tx.execute(sql`
      UPDATE ${sessions} s SET calculated_data = r.calculated_data, time_started = r.time_started, time_ended = r.time_ended
      FROM jsonb_to_recordset(${JSON.stringify(rows.slice(i, i + CHUNK))}::jsonb)
        AS r(session_id text, calculated_data jsonb, time_started bigint, time_ended bigint)
      WHERE s.session_id = r.session_id
        AND (s.calculated_data IS DISTINCT FROM r.calculated_data OR s.time_started IS DISTINCT FROM r.time_started OR s.time_ended IS DISTINCT FROM r.time_ended)`);
}
