import { BadRequestException, Injectable, InternalServerErrorException, Logger, NotFoundException } from '@nestjs/common';
import { z } from 'zod';
import { AppConfig } from '../../config/app-config.js';
import { findGame } from '../../game-support/registry.js';
import type { GptSupport } from '../../game-support/types.js';
import { toChartDocument, toSongDocument } from '../../presenters/catalog.presenter.js';
import type { ImportDocument } from '../../presenters/import.presenter.js';
import { toScoreDocument } from '../../presenters/score.presenter.js';
import { CatalogRepository } from '../../repositories/catalog.repository.js';
import { GptLeaderboardsRepository } from '../../repositories/gpt-leaderboards.repository.js';
import { OrphanChartsRepository, type EnqueueOutcome, type OrphanChartKey } from '../../repositories/orphan-charts.repository.js';
import { ScoresRepository } from '../../repositories/scores.repository.js';
import { SCORE_ERROR } from '../../imports/import-errors.js';
import { ImportsService, type SubmitResult } from '../../imports/imports.service.js';
import { OrphansService } from '../../imports/orphans.service.js';
import type { ImportRequest } from '../../imports/import-types/types.js';
import { CLEARS, isQueueable, orphanChartRecords, type BeatorajaChart } from '../../imports/import-types/beatoraja/beatoraja.parser.js';
import type { BeatorajaImportedBody } from './beatoraja.responses.js';
import { beatorajaType } from '../../imports/import-types/beatoraja/beatoraja.type.js';
import { toBeatorajaRankingScore, type BeatorajaRankingScore } from './leaderboard.js';

/** The IR's answer, Tachi's `{success, description, body}`. */
export interface HookAnswer {
  success: boolean;
  description: string;
  body?: BeatorajaImportedBody | Record<string, never> | { set: string; value: string } | BeatorajaRankingScore[];
}

/** An answer and its HTTP status, when not the route's own (202 for an orphaned score, 400 for a refused one). */
export interface StatusAnswer {
  status?: number;
  answer: HookAnswer;
}

/** Most PBs one chart ranking lists, best first. */
const RANKING_LIMIT = 10_000;

const courseBody = z.looseObject({
  course: z.looseObject({
    charts: z.array(z.looseObject({ md5: z.string() })).length(4, 'must list the 4 charts of the course'),
    constraint: z.array(z.string()),
  }),
  score: z.looseObject({
    clear: z.enum(CLEARS),
    lntype: z.union([z.literal(0), z.literal(1), z.literal(2)]),
  }),
});

/** Course clears that give no class. */
const NOT_CLEARED: ReadonlySet<string> = new Set(['NoPlay', 'Failed', 'AssistEasy', 'LightAssistEasy', 'Easy']);

/** A submission's part in the orphan-chart queue: its chart's key and what queueing it did. */
interface Queued {
  key: OrphanChartKey;
  outcome: EnqueueOutcome;
}

/**
 * What the beatoraja / LR2oraja IR (Tachi's BokutachiIR) does: scores (with the orphan-chart
 * queue that creates a chart enough players sent), course (dan) clears and chart rankings, answered
 * as Tachi did.
 */
@Injectable()
export class BeatorajaIrService {
  private readonly logger = new Logger(BeatorajaIrService.name);

  constructor(
    private readonly imports: ImportsService,
    private readonly orphans: OrphansService,
    private readonly orphanCharts: OrphanChartsRepository,
    private readonly catalog: CatalogRepository,
    private readonly scores: ScoresRepository,
    private readonly leaderboards: GptLeaderboardsRepository,
    private readonly config: AppConfig,
  ) {}

  /**
   * One score. An unknown chart waits in the orphan-chart queue with the score: once
   * BEATORAJA_QUEUE_SIZE distinct players have sent it, its song and chart are created and every
   * one of those players' orphaned scores of the game is retried.
   */
  async submitScore(userID: number, body: unknown): Promise<StatusAnswer> {
    const request: ImportRequest = { body, fields: { timeReceived: Date.now() } };
    const parsed = beatorajaType.parse(beatorajaType.read(request), { maxScores: 1 });
    const [item] = parsed.items;
    const converted = beatorajaType.convert(item, parsed);
    const queued = converted.kind === 'score' ? await this.queueIfUnknown(userID, parsed.gpt, item.chart) : undefined;
    let result: SubmitResult;
    try {
      result = await this.imports.submit(userID, beatorajaType, request, false, { inline: true });
    } catch (err) {
      // Nothing of this submission was kept, so it does not count towards the chart.
      if (queued?.outcome.kind === 'queued' && queued.outcome.added) await this.orphanCharts.withdraw(queued.key, userID);
      throw err;
    }
    if (queued?.outcome.kind === 'created') await this.deorphan(queued.outcome.userIDs, parsed.gpt.game);
    return this.answer(completed(result), queued?.outcome);
  }

  /** A dan course clear: its class goes through the import pipeline as a provided class. */
  async submitCourse(userID: number, body: unknown): Promise<HookAnswer> {
    const checked = courseBody.safeParse(body);
    if (!checked.success)
      throw new BadRequestException(`Invalid Course Submission: ${checked.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ')}`);
    const { course, score } = checked.data;
    if (NOT_CLEARED.has(score.clear)) return { success: true, description: 'Class not updated: the course was not cleared.' };
    if (score.lntype !== 0) throw new BadRequestException('Only LN mode is supported for dans.');
    if (course.constraint.includes('CN')) throw new BadRequestException('CN mode is not allowed in dans.');
    if (course.constraint.includes('HCN')) throw new BadRequestException('HCN mode is not allowed in dans.');
    if (course.constraint.some((c) => c.startsWith('GAUGE_') && c !== 'GAUGE_LR2')) throw new BadRequestException('A dan must be played on GAUGE_LR2.');

    const found = await this.catalog.bmsCourse(course.charts.map((c) => c.md5.toLowerCase()).join(''));
    if (!found) throw new NotFoundException('Unsupported course.');
    const resolved = { playtype: found.playtype, set: found.set, value: found.value };
    const document = completed(await this.imports.submit(userID, beatorajaType, { fields: { course: resolved } }, false, { inline: true }));
    const raised = document.classDeltas.some((d) => d.set === found.set);
    return { success: true, description: raised ? 'Successfully updated class.' : 'Class not updated.', body: { set: found.set, value: found.value } };
  }

  /** The chart's PBs, best first, as beatoraja's IR ranking; the requester's own PB goes unnamed. A BMS chart wins over a PMS one; PMS Controller over Keyboard. */
  async chartRanking(userID: number, sha256: string): Promise<HookAnswer> {
    const hash = sha256.toLowerCase();
    const chart = /^[0-9a-f]{64}$/.test(hash)
      ? ((await this.catalog.chartsWithHash('bms', hash))[0] ?? (await this.catalog.chartsWithHash('pms', hash))[0])
      : undefined;
    if (!chart) throw new NotFoundException('Chart does not exist on IR yet.');
    const page = await this.leaderboards.chartPbs(chart.chartID, 1, RANKING_LIMIT);
    const notecount = typeof chart.data.notecount === 'number' ? chart.data.notecount : 0;
    const body = page.map(({ pb, owner }) => toBeatorajaRankingScore(pb, hash, pb.userID === userID ? '' : owner.username, notecount));
    return { success: true, description: `Successfully returned ${body.length}`, body };
  }

  /** Queues a chart the catalog does not know (when it can be created from what the client sent). */
  private async queueIfUnknown(userID: number, gpt: GptSupport, chart: BeatorajaChart): Promise<Queued | undefined> {
    if (!isQueueable(chart)) return undefined;
    const key: OrphanChartKey = {
      game: gpt.game,
      playtype: gpt.playtype,
      hash: chart.sha256.toLowerCase(),
      hashPerPlaytype: findGame(gpt.game)?.uniqueChartKeys?.some((k) => k.perPlaytype) ?? false,
    };
    if (await this.orphanCharts.chartExists(key)) return undefined;
    return { key, outcome: await this.orphanCharts.enqueue(key, userID, orphanChartRecords(gpt, chart), this.config.BEATORAJA_QUEUE_SIZE) };
  }

  /** The chart now exists: the orphans of the players who sent it are retried. Their scores are kept either way, so a failure here is only logged. */
  private async deorphan(userIDs: readonly number[], game: string): Promise<void> {
    try {
      const result = await this.orphans.retryForUsers(userIDs, [game]);
      if (result.skippedUsers) this.logger.warn(`${result.skippedUsers} player(s) were importing; their orphans wait for their next retry.`);
    } catch (err) {
      this.logger.error(`Retrying the orphans of a created ${game} chart failed: ${(err as Error).stack ?? String(err)}`);
    }
  }

  /** Tachi's translation of a one-score import into the IR's answers. */
  private async answer(document: ImportDocument, queued: EnqueueOutcome | undefined): Promise<StatusAnswer> {
    const [first] = document.errors;
    if (first?.type === SCORE_ERROR.notFound) {
      if (queued?.kind === 'queued') {
        return {
          status: 202,
          answer: {
            success: true,
            description: `Chart and score have been orphaned. This chart will be un-orphaned when ${this.config.BEATORAJA_QUEUE_SIZE} players have played the chart (Currently: ${queued.players}).`,
            body: {},
          },
        };
      }
      return { status: 400, answer: { success: false, description: 'This chart is not supported.' } };
    }
    if (first) return { status: 400, answer: { success: false, description: `[${first.type}] - ${first.message.replace(/^scores\[\d+\]: /, '')}` } };
    if (document.scoreIDs.length === 0) return { status: 400, answer: { success: false, description: 'No scores were imported.' } };
    const score = await this.scores.findById(document.scoreIDs[0]);
    const found = score && (await this.catalog.chartWithSong(score.chartID));
    if (!score || !found) throw new InternalServerErrorException(`Score ${document.scoreIDs[0]} was imported but cannot be read back.`);
    return {
      answer: {
        success: true,
        description: 'Imported score.',
        body: { score: toScoreDocument(score), song: toSongDocument(found.song), chart: toChartDocument(found.chart), import: document },
      },
    };
  }
}

/** Hook imports run inline (`inline: true`), so they always complete in the request. */
function completed(result: SubmitResult): ImportDocument {
  if (result.kind !== 'completed') throw new Error('A hook import was queued instead of run inline.');
  return result.document;
}
