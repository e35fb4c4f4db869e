import { Injectable } from '@nestjs/common';
import { and, eq, inArray } from 'drizzle-orm';
import { sha256Hex } from '../common/crypto.js';
import { anyOf, copyRows, insertRowsIgnoringConflicts } from '../database/bulk-write.js';
import { Database, type Tx } from '../database/database.js';
import { imports, orphanScores, scores, type ClassDelta, type CreatedSession, type ImportError } from '../database/schema.js';
import type { ChartInfo, GptSupport, RatedScore, SongInfo } from '../game-support/types.js';
import { canonicalJson } from '../common/canonical-json.js';
import { ChartMatchRepository } from '../repositories/chart-match.repository.js';
import { toChartInfo, toSongInfo } from '../scoring/chart-info.js';
import { rateScore } from '../scoring/pb-merge.js';
import { recomputePersonalBests, type ChartContext } from '../scoring/personal-bests.writer.js';
import { assignSessions } from '../scoring/sessions.writer.js';
import { recomputeGameStats } from '../scoring/game-stats.writer.js';
import { reevaluateTargets, type GoalInfoEntry, type QuestInfoEntry } from '../scoring/targets/target-progress.writer.js';
import { SCORE_ERROR } from './import-errors.js';
import type { ImportContext } from './import-types/types.js';
import { validateScoreElement, type ScoreCandidate } from './score-element.js';

export type ScoreRow = typeof scores.$inferInsert;

/** One batch of score elements sharing a GPT and context: an import, or a group of orphans. */
export interface ConvertBatch {
  userID: number;
  gpt: GptSupport;
  context: ImportContext;
  importType: string;
  importID: string | null;
  /**
   * The score elements, each with the position of its item, which errors report; `highlight`: see
   * ConvertedItem; `check`: the import type's checkMatch of the item, made once its chart is matched.
   */
  elements: { index: number; raw: unknown; highlight?: boolean; check?: (chart: ChartInfo) => string | undefined }[];
  /** Items the import type's converter refused, by position: reported with the invalid elements. */
  rejected?: { index: number; message: string }[];
  /** false: the scores' times are not their plays' own, so score ids leave them out (ImportType.timesIdentifyPlays). */
  timeIdentifiesPlay?: boolean;
  /** Provided classes of this batch's GPT, by class set (an import's; orphan retries have none). */
  classes?: Readonly<Record<string, string>>;
  /** The classes create the profile of a GPT never played (ParsedImport.classesCreateProfile). */
  classesCreateProfile?: boolean;
}

export interface BuiltScore {
  index: number;
  row: ScoreRow;
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

export interface Converted {
  built: BuiltScore[];
  orphans: OrphanCandidate[];
  /** Rejected elements, by position. */
  invalid: { index: number; message: string }[];
}

/**
 * A score's id, stable across re-imports of the same play: the user, chart, numbers, judgements,
 * time and identifying optional metrics. Two plays with equal numbers but another time or other
 * judgements get different ids, so both are kept. Without `timeIdentifiesPlay` (the time is a
 * receipt, not the play's) the time is left out: an identical result on the chart is the same score.
 */
export function computeScoreID(userID: number, chartID: string, candidate: ScoreCandidate, gpt: GptSupport, timeIdentifiesPlay = true): string {
  const identity = Object.fromEntries(gpt.identityMetrics.map((m) => [m, candidate.input.optional[m] ?? null]));
  return `S${sha256Hex(
    canonicalJson({
      userID,
      chartID,
      score: candidate.input.score,
      lamp: candidate.input.lamp,
      percent: candidate.input.percent ?? null,
      judgements: candidate.input.judgements,
      timeAchieved: timeIdentifiesPlay ? candidate.timeAchieved : null,
      identity,
    }),
  )}`;
}

/**
 * An unmatched score's id, stable across re-sends: the same element from the same source is one
 * orphan. Without `timeIdentifiesPlay` the element's time is left out, as it is of a score's id.
 */
export function computeOrphanID(userID: number, importType: string, gpt: GptSupport, context: ImportContext, raw: unknown, timeIdentifiesPlay = true): string {
  const data = !timeIdentifiesPlay && raw !== null && typeof raw === 'object' && !Array.isArray(raw) ? { ...raw, timeAchieved: null } : (raw ?? null);
  return `O${sha256Hex(canonicalJson({ userID, importType, game: gpt.game, playtype: gpt.playtype, context, data }))}`;
}

const errorAt = (index: number, message: string) => `scores[${index}]: ${message}`;

/** A session that one batch of an import created and a later batch appended to is reported once, as created. */
function onePerSession(sessions: readonly CreatedSession[]): CreatedSession[] {
  const byID = new Map<string, CreatedSession>();
  for (const s of sessions) if (!byID.has(s.sessionID) || s.type === 'Created') byID.set(s.sessionID, s);
  return [...byID.values()];
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

/**
 * The import's write path: converts score elements, then writes them with everything derived from
 * them in one transaction (a set-based writer, as the scoring core's).
 */
@Injectable()
export class ImportPipeline {
  constructor(
    private readonly database: Database,
    private readonly charts: ChartMatchRepository,
  ) {}

  /**
   * Validates each element, matches all of them to charts (one query per match type), derives
   * percent and grade and rates them. Read-only: nothing is written here.
   */
  async convert(batch: ConvertBatch): Promise<Converted> {
    const { gpt } = batch;
    const now = Date.now();
    const result: Converted = { built: [], orphans: [], invalid: [...(batch.rejected ?? [])] };
    const candidates: ScoreCandidate[] = [];
    const highlighted = new Set(batch.elements.filter((e) => e.highlight).map((e) => e.index));
    const checks = new Map(batch.elements.flatMap((e) => (e.check ? [[e.index, e.check] as const] : [])));
    for (const { index, raw } of batch.elements) {
      const v = validateScoreElement(raw, index, gpt, now);
      if (v.ok) candidates.push(v.candidate);
      else result.invalid.push({ index, message: v.message });
    }
    const matches = await this.charts.resolve(gpt, batch.context.version, candidates);
    candidates.forEach((candidate, i) => {
      const r = matches[i];
      if (r.kind === 'invalid') return void result.invalid.push({ index: candidate.index, message: r.message });
      if (r.kind === 'notFound') {
        return void result.orphans.push({
          index: candidate.index,
          orphanID: computeOrphanID(batch.userID, batch.importType, gpt, batch.context, candidate.raw, batch.timeIdentifiesPlay !== false),
          raw: candidate.raw,
          message: r.message,
        });
      }
      const chart = toChartInfo(r.chart);
      const song = toSongInfo(r.song);
      const problem = checks.get(candidate.index)?.(chart);
      if (problem !== undefined) return void result.invalid.push({ index: candidate.index, message: problem });
      const derived = gpt.deriveScore(candidate.input, chart);
      if (!derived.ok) return void result.invalid.push({ index: candidate.index, message: derived.error });
      const { scoreData } = derived;
      const highlight = highlighted.has(candidate.index);
      result.built.push({
        index: candidate.index,
        ...(highlight ? { highlight } : {}),
        chart,
        song,
        row: {
          scoreID: computeScoreID(batch.userID, chart.chartID, candidate, gpt, batch.timeIdentifiesPlay !== false),
          userID: batch.userID,
          game: gpt.game,
          playtype: gpt.playtype,
          chartID: chart.chartID,
          songID: chart.songID,
          isPrimary: chart.isPrimary,
          score: scoreData.score,
          percent: scoreData.percent,
          lampIndex: scoreData.lampIndex,
          gradeIndex: scoreData.gradeIndex,
          scoreData,
          calculatedData: rateScore(gpt, scoreData, chart, song),
          scoreMeta: candidate.scoreMeta,
          timeAchieved: candidate.timeAchieved,
          timeAdded: now,
          service: batch.context.service,
          importType: batch.importType,
          importID: batch.importID,
          comment: candidate.comment,
          highlighted: highlight,
        },
      });
    });
    return result;
  }

  /**
   * Writes a converted batch inside the caller's transaction: new scores (re-sent ones are
   * skipped without error), orphans, sessions, PBs and ranks of the touched charts, and the
   * game stats with classes. Returns what the ImportDocument reports. `deferRanking` (bulk loads
   * only) leaves the chart ranks to a rerankCharts call afterwards.
   */
  async write(
    tx: Tx,
    batch: Pick<ConvertBatch, 'userID' | 'gpt' | 'context' | 'importType' | 'classesCreateProfile'>,
    converted: Converted,
    provided: Readonly<Record<string, string>>,
    options: { deferRanking?: boolean } = {},
  ): Promise<WriteResult> {
    const { userID, gpt } = batch;
    const errors: { index: number; error: ImportError }[] = converted.invalid.map((e) => ({
      index: e.index,
      error: { type: SCORE_ERROR.invalid, message: errorAt(e.index, e.message) },
    }));

    // Scores already stored (or repeated within this batch) are re-sends: skipped silently.
    const seen = new Set<string>();
    const candidateIDs = converted.built.map((b) => b.row.scoreID);
    const stored = candidateIDs.length
      ? new Set((await tx.select({ id: scores.scoreID }).from(scores).where(anyOf(scores.scoreID, candidateIDs))).map((r) => r.id))
      : new Set<string>();
    const fresh = converted.built.filter((b) => {
      if (stored.has(b.row.scoreID) || seen.has(b.row.scoreID)) return false;
      seen.add(b.row.scoreID);
      return true;
    });

    await this.writeOrphans(tx, batch, converted.orphans, errors);

    // A re-sent score marked highlight highlights the stored one; its PB is recomputed with the new ones.
    const rehighlighted = converted.built.filter((b) => b.highlight && stored.has(b.row.scoreID));
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

    const { sessionOf, touched } = await assignSessions(
      tx,
      userID,
      gpt,
      fresh.map((b) => ({ scoreID: b.row.scoreID, timeAchieved: b.row.timeAchieved ?? null, rated: this.rated(b) })),
    );
    const charts = new Map<string, ChartContext>([...fresh, ...rehighlighted].map((b) => [b.chart.chartID, { chart: b.chart, song: b.song }]));
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
      options,
    );
    await copyRows(
      tx,
      scores,
      fresh.map((b) => ({ ...b.row, sessionID: sessionOf.get(b.row.scoreID) ?? null })),
    );
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

  private rated(b: BuiltScore): RatedScore {
    return { scoreData: b.row.scoreData, calculatedData: b.row.calculatedData, chart: b.chart, song: b.song };
  }

  /**
   * New orphans are stored and reported as not found. One stored before is a re-send of the same
   * element: skipped silently, as a re-sent score is (a re-sent file reports no errors).
   */
  private async writeOrphans(
    tx: Tx,
    batch: Pick<ConvertBatch, 'userID' | 'gpt' | 'context' | 'importType'>,
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
   * Writes a converted import and completes its row, in one transaction. A run of an import that
   * another run (a redelivered job) finished first writes nothing; the row lock orders two runs.
   */
  async commitImport(importID: string, batches: readonly { batch: ConvertBatch; converted: Converted }[], timeStarted: number): Promise<void> {
    await this.database.transaction(async (tx) => {
      const [row] = await tx.select({ status: imports.status }).from(imports).where(eq(imports.importID, importID)).for('update');
      if (row?.status === 'completed') return;
      if (row?.status !== 'queued' && row?.status !== 'ongoing') throw new Error(`The import ${importID} is ${row?.status ?? 'gone'}; it cannot complete.`);
      const written: { gpt: GptSupport; result: WriteResult }[] = [];
      for (const { batch, converted } of batches) written.push({ gpt: batch.gpt, result: await this.write(tx, batch, converted, batch.classes ?? {}) });
      await this.complete(tx, importID, written, timeStarted);
    });
  }

  /**
   * Saves retried orphans in one transaction: each group's matched scores are written, and the
   * orphans that matched or proved invalid are deleted (unmatched ones stay). `orphanIDs[i]` is the
   * orphan of element index i. Returns how many new scores each group saved.
   */
  async saveRetriedOrphans(groups: readonly { batch: ConvertBatch; converted: Converted; orphanIDs: readonly string[] }[]): Promise<number[]> {
    return this.database.transaction(async (tx) => {
      const saved: number[] = [];
      const resolved: string[] = [];
      for (const { batch, converted, orphanIDs } of groups) {
        const written = await this.write(tx, batch, { built: converted.built, orphans: [], invalid: [] }, {});
        saved.push(written.scoreIDs.length);
        for (const b of [...converted.built, ...converted.invalid]) resolved.push(orphanIDs[b.index]);
      }
      if (resolved.length) await tx.delete(orphanScores).where(inArray(orphanScores.orphanID, resolved));
      return saved;
    });
  }

  /**
   * The import's row in its final state, written in the same transaction as its scores. Only a
   * queued or running import completes: otherwise this throws, and the transaction rolls back.
   */
  private async complete(tx: Tx, importID: string, written: readonly { gpt: GptSupport; result: WriteResult }[], timeStarted: number): Promise<void> {
    const all = (pick: (r: WriteResult) => readonly unknown[]) => written.flatMap((w) => pick(w.result));
    const updated = await tx
      .update(imports)
      .set({
        status: 'completed',
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
        timeStarted,
        timeFinished: Date.now(),
      })
      .where(and(eq(imports.importID, importID), inArray(imports.status, ['queued', 'ongoing'])))
      .returning({ importID: imports.importID });
    if (updated.length === 0) throw new Error(`The import ${importID} is no longer queued or running; it cannot complete.`);
  }
}
