import { and, eq, inArray, sql } from 'drizzle-orm';
import { anyOf, copies, copyRows, fitsOneWrite, insertRowsIgnoringConflicts, insertRowsStatement, writeTogether } from '../database/bulk-write.js';
import type { Database, Tx } from '../database/database.js';
import {
  imports,
  importInputs,
  orphanScores,
  scores,
  type ClassDelta,
  type CreatedSession,
  type ImportError,
  type ImportRow,
  type NewImportRow,
  type NewScoreRow,
} from '../database/schema.js';
import type { ChartInfo, GptSupport, RatedScore, SongInfo } from '../game-support/types.js';
import { loadUserChartState, recomputePersonalBests, type ChartContext } from './pbs/personal-bests.writer.js';
import { assignSessions } from './sessions/sessions.writer.js';
import { recomputeGameStats } from './profiles/game-stats.writer.js';
import type { HeldUserLock } from './import-lock.js';
import { reevaluateTargets, type GoalInfoEntry, type QuestInfoEntry } from './targets/target-progress.writer.js';

/**
 * The import's write transaction: converted scores (src/imports/import-pipeline.ts converts them)
 * are written with everything derived from them, set-based, as the rest of the core: scores,
 * orphans, sessions, PBs and chart ranks, game stats with classes, goals and quests, and the
 * ImportDocument.
 */

/** Per-score error types in the ImportDocument's `errors`. */
export const SCORE_ERROR = {
  /** The score element is invalid (bad lamp, out of range, missing difficulty, unsupported match type…). */
  invalid: 'InvalidDatapoint',
  /** No song or chart matched: the score is kept as an orphan. */
  notFound: 'SongOrChartNotFound',
} as const;

/** Where a batch's scores come from (an import's ImportContext), as scores and orphans store it. */
export interface ScoreSource {
  /** A score's `service`. */
  service: string;
  /** The game version the scores were played on; null when the import does not say. */
  version: string | null;
}

/** Whose scores a batch holds, of which GPT, and from where. */
export interface WriteBatch {
  userID: number;
  gpt: GptSupport;
  context: ScoreSource;
  importType: string;
  /** Provided classes of this batch's GPT, by class set (an import's; orphan retries have none). */
  classes?: Readonly<Record<string, string>>;
  /** The classes create the profile of a GPT never played (ParsedImport.classesCreateProfile). */
  classesCreateProfile?: boolean;
}

export interface BuiltScore {
  index: number;
  row: NewScoreRow;
  /** A re-send of this score highlights the stored one (a new score is stored highlighted). */
  highlight?: boolean;
  chart: ChartInfo;
  song: SongInfo;
}

export interface OrphanCandidate {
  index: number;
  orphanID: string;
  raw: unknown;
  message: string;
}

/** A converted batch: the scores built, the elements left unmatched (orphans) and the invalid ones. */
export interface Converted {
  built: BuiltScore[];
  orphans: OrphanCandidate[];
  /** Rejected elements, by position. */
  invalid: { index: number; message: string }[];
}

export interface WriteResult {
  scoreIDs: string[];
  errors: ImportError[];
  createdSessions: CreatedSession[];
  classDeltas: ClassDelta[];
  /** The user's goal and quest subscriptions the new scores moved (spec ImportDocument goalInfo, questInfo). */
  goalInfo: GoalInfoEntry[];
  questInfo: QuestInfoEntry[];
}

const errorAt = (index: number, message: string) => `scores[${index}]: ${message}`;

/** A session that one batch of an import created and a later batch appended to is reported once, as created. */
function onePerSession(sessions: readonly CreatedSession[]): CreatedSession[] {
  const byID = new Map<string, CreatedSession>();
  for (const s of sessions) if (!byID.has(s.sessionID) || s.type === 'Created') byID.set(s.sessionID, s);
  return [...byID.values()];
}

function rated(b: BuiltScore): RatedScore {
  return { scoreData: b.row.scoreData, calculatedData: b.row.calculatedData, chart: b.chart, song: b.song };
}

/**
 * Writes a converted batch inside the caller's transaction: new scores (re-sent ones are
 * skipped without error), orphans, sessions, PBs and ranks of the touched charts, and the
 * game stats with classes. Returns what the ImportDocument reports. `deferRanking` (bulk loads
 * only) leaves the chart ranks to a rerankCharts call afterwards.
 */
export async function writeConvertedBatch(
  tx: Tx,
  batch: Pick<WriteBatch, 'userID' | 'gpt' | 'context' | 'importType' | 'classesCreateProfile'>,
  converted: Converted,
  provided: Readonly<Record<string, string>>,
  options: { deferRanking?: boolean } = {},
): Promise<WriteResult> {
  const { userID, gpt } = batch;
  const errors: { index: number; error: ImportError }[] = converted.invalid.map((e) => ({
    index: e.index,
    error: { type: SCORE_ERROR.invalid, message: errorAt(e.index, e.message) },
  }));

  // The user's scores and PBs on the charts of this batch, read once: a score already stored (or
  // repeated within this batch) is a re-send, skipped silently (a score's id names its user and
  // chart, so a stored one is among them); the PB merge below takes the rest.
  const seen = new Set<string>();
  const preloaded = await loadUserChartState(tx, userID, [...new Set(converted.built.map((b) => b.row.chartID))]);
  const stored = new Set(preloaded.stored.map((r) => r.scoreID));
  const fresh = converted.built.filter((b) => {
    if (stored.has(b.row.scoreID) || seen.has(b.row.scoreID)) return false;
    seen.add(b.row.scoreID);
    return true;
  });

  await writeOrphans(tx, batch, converted.orphans, errors);

  // A re-sent score marked highlight highlights the stored one; its PB is recomputed with the new ones.
  const rehighlighted = converted.built.filter((b) => b.highlight && stored.has(b.row.scoreID));
  const highlightedNow = new Set(rehighlighted.map((b) => b.row.scoreID));
  for (const r of preloaded.stored) if (highlightedNow.has(r.scoreID)) r.highlighted = true;
  if (rehighlighted.length)
    await tx
      .update(scores)
      .set({ highlighted: true })
      .where(
        and(
          anyOf(
            scores.scoreID,
            rehighlighted.map((b) => b.row.scoreID),
          ),
          eq(scores.highlighted, false),
        ),
      );

  const {
    sessionOf,
    touched,
    writes: sessionWrites,
  } = await assignSessions(
    tx,
    userID,
    gpt,
    fresh.map((b) => ({ scoreID: b.row.scoreID, timeAchieved: b.row.timeAchieved ?? null, rated: rated(b) })),
  );
  const charts = new Map<string, ChartContext>([...fresh, ...rehighlighted].map((b) => [b.chart.chartID, { chart: b.chart, song: b.song }]));
  const scoreRows = fresh.map((b) => ({ ...b.row, sessionID: sessionOf.get(b.row.scoreID) ?? null }));
  // A few new scores are written in the PBs' statement; many are COPYed (or batched) after it.
  const scoresTogether = scoreRows.length && !copies(tx, scoreRows) && fitsOneWrite(scoreRows);
  const together = [...sessionWrites, ...(scoresTogether ? [sql`new_scores AS (${insertRowsStatement(scores, scoreRows)})`] : [])];
  // PBs merge the stored scores with the new ones held in memory.
  const pbs = await recomputePersonalBests(
    tx,
    userID,
    gpt,
    charts,
    fresh.map((b) => ({
      chartID: b.row.chartID,
      scoreID: b.row.scoreID,
      scoreData: b.row.scoreData,
      timeAchieved: b.row.timeAchieved ?? null,
      highlighted: b.row.highlighted ?? false,
    })),
    { ...options, preloaded, together },
  );
  if (!scoresTogether) await copyRows(tx, scores, scoreRows);
  const classDeltas =
    fresh.length > 0 || Object.keys(provided).length > 0
      ? await recomputeGameStats(tx, userID, gpt, provided, {
          touchedPbs: pbs,
          hasScores: fresh.length > 0 || undefined,
          createProfile: batch.classesCreateProfile,
        })
      : [];
  // the subscriptions on the charts these scores touched, re-evaluated against the new PBs
  const targets =
    fresh.length > 0 ? await reevaluateTargets(tx, userID, gpt.game, gpt.playtype, { chartIDs: [...charts.keys()] }) : { goalInfo: [], questInfo: [] };

  return {
    scoreIDs: fresh.sort((a, b) => a.index - b.index).map((b) => b.row.scoreID),
    errors: errors.sort((a, b) => a.index - b.index).map((e) => e.error),
    createdSessions: touched,
    classDeltas,
    goalInfo: targets.goalInfo,
    questInfo: targets.questInfo,
  };
}

/**
 * New orphans are stored and reported as not found. One stored before is a re-send of the same
 * element: skipped silently, as a re-sent score is (a re-sent file reports no errors).
 */
async function writeOrphans(
  tx: Tx,
  batch: Pick<WriteBatch, 'userID' | 'gpt' | 'context' | 'importType'>,
  orphans: readonly OrphanCandidate[],
  errors: { index: number; error: ImportError }[],
) {
  if (orphans.length === 0) return;
  const existing = new Set(
    (
      await tx
        .select({ id: orphanScores.orphanID })
        .from(orphanScores)
        .where(
          anyOf(
            orphanScores.orphanID,
            orphans.map((o) => o.orphanID),
          ),
        )
    ).map((r) => r.id),
  );
  const now = Date.now();
  const fresh = orphans.filter((o) => !existing.has(o.orphanID));
  await insertRowsIgnoringConflicts(
    tx,
    orphanScores,
    fresh.map((o) => ({
      orphanID: o.orphanID,
      userID: batch.userID,
      game: batch.gpt.game,
      playtype: batch.gpt.playtype,
      importType: batch.importType,
      data: o.raw ?? null,
      context: batch.context,
      errMsg: o.message,
      timeInserted: now,
    })),
  );
  for (const o of fresh) {
    errors.push({
      index: o.index,
      error: {
        type: SCORE_ERROR.notFound,
        message: errorAt(o.index, `${o.message} The score is kept as an orphan and will be retried when the chart is known.`),
      },
    });
  }
}

/**
 * Writes a converted import and completes its row, in one transaction, and returns the row. A run
 * of an import that another run (a redelivered job) finished first writes nothing and returns the
 * row that run completed; the row lock orders two runs. With `insert` (score hooks, which nobody
 * polls while they run) the import has no row yet: it is inserted completed, with its scores,
 * its input and the release of its `lock` in one statement. The lock is released inside the
 * transaction, so that the commit releases it.
 */
export async function commitImport(
  database: Database,
  importID: string,
  batches: readonly { batch: WriteBatch; converted: Converted }[],
  timeStarted: number,
  options: CommitOptions = {},
): Promise<ImportRow> {
  return database.transaction(async (tx) => {
    if (!options.insert) {
      const [row] = await tx.select().from(imports).where(eq(imports.importID, importID)).for('update');
      if (row?.status === 'completed') return row;
      if (row?.status !== 'queued' && row?.status !== 'ongoing') throw new Error(`The import ${importID} is ${row?.status ?? 'gone'}; it cannot complete.`);
    }
    const written: { gpt: GptSupport; result: WriteResult }[] = [];
    for (const { batch, converted } of batches) written.push({ gpt: batch.gpt, result: await writeConvertedBatch(tx, batch, converted, batch.classes ?? {}) });
    const saved = written.reduce((n, w) => n + w.result.scoreIDs.length, 0);
    const errors = written.reduce((n, w) => n + w.result.errors.length, 0);
    const emptyReason = saved === 0 ? (options.emptyReason?.(errors) ?? null) : null;
    if (options.insert) {
      // A hook's import: its row (known in full: nothing else writes it), its input and the lock's
      // release in one statement.
      const row: ImportRow = { ...options.insert, ...completed(written, timeStarted, emptyReason), importID, failure: null };
      await writeTogether(tx, [
        sql`import_row AS (${insertRowsStatement(imports, [row])})`,
        ...(options.input !== undefined
          ? [sql`import_input AS (${insertRowsStatement(importInputs, [{ importID, userID: row.userID, input: options.input, storedAt: Date.now() }])})`]
          : []),
        ...(options.lock ? [sql`import_unlock AS (${options.lock.releaseStatement()})`] : []),
      ]);
      await options.afterWrite?.(tx, row);
      await options.beforeCommit?.();
      return row;
    }
    const row = await complete(tx, importID, written, timeStarted, emptyReason);
    if (options.input !== undefined) await tx.insert(importInputs).values({ importID, userID: row.userID, input: options.input, storedAt: Date.now() });
    await options.afterWrite?.(tx, row);
    await options.lock?.releaseIn(tx);
    await options.beforeCommit?.();
    return row;
  });
}

/** What an import adds to its commit: why it brought no scores, and a write of its own in the same transaction (a from-api sync's cursor). */
export interface CommitOptions {
  /** Asked only when the import saved no new score, with the number of its errors (items refused or not found). */
  emptyReason?: (errors: number) => string | null;
  /** What the import read, as JSON text: stored in import_inputs with the import (none when absent). */
  input?: string;
  /** Runs in the import's transaction after its writes, with its completed row (a from-api sync's cursor, the webhook events). */
  afterWrite?: (tx: Tx, row: ImportRow) => Promise<void>;
  /** A hook's import: its row is inserted completed with the scores instead of updated (see ImportsService.submit). */
  insert?: NewImportRow;
  /** The user's import lock, released in the transaction (with its commit). */
  lock?: HeldUserLock;
  /** Runs just before the commit (IMPORT_STEP_PAUSE_MS's 'written' step). */
  beforeCommit?: () => Promise<void>;
}

/**
 * Saves retried orphans in one transaction: each group's matched scores are written, and the
 * orphans that matched or proved invalid are deleted (unmatched ones stay). `orphanIDs[i]` is the
 * orphan of element index i. Returns how many new scores each group saved.
 */
export async function saveRetriedOrphans(
  database: Database,
  groups: readonly { batch: WriteBatch; converted: Converted; orphanIDs: readonly string[] }[],
): Promise<number[]> {
  return database.transaction(async (tx) => {
    const saved: number[] = [];
    const resolved: string[] = [];
    for (const { batch, converted, orphanIDs } of groups) {
      const written = await writeConvertedBatch(tx, batch, { built: converted.built, orphans: [], invalid: [] }, {});
      saved.push(written.scoreIDs.length);
      for (const b of [...converted.built, ...converted.invalid]) resolved.push(orphanIDs[b.index]);
    }
    if (resolved.length) await tx.delete(orphanScores).where(inArray(orphanScores.orphanID, resolved));
    return saved;
  });
}

/**
 * The import's row in its final state, written in the same transaction as its scores: `insert`ed
 * (a hook's import, which had no row), or updated from queued or running. Only a queued or running
 * import completes: otherwise this throws, and the transaction rolls back.
 */
async function complete(
  tx: Tx,
  importID: string,
  written: readonly { gpt: GptSupport; result: WriteResult }[],
  timeStarted: number,
  emptyReason: string | null,
): Promise<ImportRow> {
  const [updated] = await tx
    .update(imports)
    .set(completed(written, timeStarted, emptyReason))
    .where(and(eq(imports.importID, importID), inArray(imports.status, ['queued', 'ongoing'])))
    .returning();
  if (!updated) throw new Error(`The import ${importID} is no longer queued or running; it cannot complete.`);
  return updated;
}

/** The columns of an import's row in its final state. */
function completed(written: readonly { gpt: GptSupport; result: WriteResult }[], timeStarted: number, emptyReason: string | null) {
  const all = (pick: (r: WriteResult) => readonly unknown[]) => written.flatMap((w) => pick(w.result));
  return {
    status: 'completed' as const,
    progress: null,
    input: null,
    game: written[0].gpt.game,
    idStrings: [...new Set(written.filter((w) => w.result.scoreIDs.length).map((w) => `${w.gpt.game}:${w.gpt.playtype}`))],
    scoreIDs: all((r) => r.scoreIDs) as string[],
    errors: all((r) => r.errors) as ImportError[],
    createdSessions: onePerSession(all((r) => r.createdSessions) as CreatedSession[]),
    classDeltas: all((r) => r.classDeltas) as ClassDelta[],
    goalInfo: all((r) => r.goalInfo),
    questInfo: all((r) => r.questInfo),
    emptyReason,
    timeStarted,
    timeFinished: Date.now(),
  };
}
