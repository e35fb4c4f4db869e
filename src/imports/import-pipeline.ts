import { Injectable } from '@nestjs/common';
import { sha256Hex } from '../common/crypto.js';
import { Database, type Tx } from '../database/database.js';
import type { ChartInfo, GptSupport } from '../game-support/types.js';
import { canonicalJson } from '../common/canonical-json.js';
import { ChartMatchRepository } from '../repositories/chart-match.repository.js';
import { toChartInfo, toSongInfo } from '../scoring/chart-info.js';
import { rateScore } from '../scoring/pbs/pb-merge.js';
import {
  commitImport,
  saveRetriedOrphans,
  type CommitOptions,
  writeConvertedBatch,
  type Converted,
  type WriteBatch,
  type WriteResult,
} from '../scoring/import-write.js';
import type { ImportContext } from './import-types/types.js';
import type { ImportRow } from '../database/schema.js';
import { validateScoreElement, type ScoreCandidate } from './score-element.js';

/** One batch of score elements sharing a GPT and context: an import, or a group of orphans. */
export interface ConvertBatch extends WriteBatch {
  context: ImportContext;
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

/**
 * The import's path to the database: converts score elements (read-only), then hands them to the
 * scoring core's write transaction (scoring/import-write.ts), which writes them with everything
 * derived from them.
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

  /** Writes a converted batch inside the caller's transaction (see writeConvertedBatch); bulk loads pass `deferRanking`. */
  write(
    tx: Tx,
    batch: Pick<ConvertBatch, 'userID' | 'gpt' | 'context' | 'importType' | 'classesCreateProfile'>,
    converted: Converted,
    provided: Readonly<Record<string, string>>,
    options: { deferRanking?: boolean } = {},
  ): Promise<WriteResult> {
    return writeConvertedBatch(tx, batch, converted, provided, options);
  }

  /** Writes a converted import and completes its row, in one transaction, and returns the row (see commitImport). */
  commitImport(
    importID: string,
    batches: readonly { batch: ConvertBatch; converted: Converted }[],
    timeStarted: number,
    options: CommitOptions = {},
  ): Promise<ImportRow> {
    return commitImport(this.database, importID, batches, timeStarted, options);
  }

  /** Saves retried orphans in one transaction; returns how many new scores each group saved (see saveRetriedOrphans). */
  saveRetriedOrphans(groups: readonly { batch: ConvertBatch; converted: Converted; orphanIDs: readonly string[] }[]): Promise<number[]> {
    return saveRetriedOrphans(this.database, groups);
  }
}
