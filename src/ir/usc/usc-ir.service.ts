import { Injectable } from '@nestjs/common';
import type { UserRow } from '../../database/schema.js';
import { ChartRecordsRepository } from '../../repositories/chart-records.repository.js';
import { ScoresRepository } from '../../repositories/scores.repository.js';
import { StorageService } from '../../storage/storage.service.js';
import { SCORE_ERROR } from '../../imports/import-errors.js';
import { ImportsService } from '../../imports/imports.service.js';
import { uscIr, type UscSubmission } from '../../imports/import-types/usc/usc-ir.js';
import { pbServerScore, playServerScore, reply, USC_STATUS } from './usc-replies.js';

/** Neighbours shown on each side of a submitted score's rank. */
const ADJACENT = 3;

const NOT_TRACKED = 'This chart is not tracked by the IR.';

/** What USC's IR routes do for one playtype (checked by the controller), each answered as a USC reply. */
@Injectable()
export class UscIrService {
  constructor(
    private readonly importsService: ImportsService,
    private readonly records: ChartRecordsRepository,
    private readonly scores: ScoresRepository,
    private readonly storage: StorageService,
  ) {}

  /** Whether the chart is tracked. An unknown chart's scores are still accepted (kept as orphans), so it is "not found", not "refused". */
  async chart(playtype: string, hash: string) {
    return (await this.records.chartByHash('usc', playtype, hash))
      ? reply(USC_STATUS.success, 'This chart is tracked by the IR.')
      : reply(USC_STATUS.notFound, NOT_TRACKED);
  }

  /** The chart's best PB. */
  async record(playtype: string, hash: string) {
    const chart = await this.records.chartByHash('usc', playtype, hash);
    if (!chart) return reply(USC_STATUS.notFound, NOT_TRACKED);
    const [top] = await this.records.rankedPbs(chart.chartID, 1, 1);
    return top
      ? reply(USC_STATUS.success, 'The server record on this chart.', pbServerScore(top))
      : reply(USC_STATUS.notFound, 'No one has a score on this chart yet.');
  }

  /** The chart's `count` best PBs. */
  async leaderboard(playtype: string, hash: string, count: number) {
    const chart = await this.records.chartByHash('usc', playtype, hash);
    if (!chart) return reply(USC_STATUS.notFound, NOT_TRACKED);
    const pbs = await this.records.rankedPbs(chart.chartID, 1, count);
    return reply(USC_STATUS.success, `The best ${pbs.length} scores on this chart.`, pbs.map(pbServerScore));
  }

  /** One score, imported in the request; a success answers with the play, the server record and the PBs ranked around the player's. */
  async submit(user: UserRow, playtype: string, body: unknown) {
    const result = await this.importsService.submit(user.id, uscIr, { body, fields: { playtype } }, false, { inline: true });
    if (result.kind !== 'completed') return reply(USC_STATUS.serverError, 'The score was queued instead of imported.');
    const doc = result.document;
    // The import parsed the body: it is a valid submission.
    const hash = (body as UscSubmission).chart.chartHash;
    const [error] = doc.errors;
    if (error && error.type !== SCORE_ERROR.notFound) return reply(USC_STATUS.badRequest, `${error.type} ${error.message}`);
    const chart = await this.records.chartByHash('usc', playtype, hash);
    // An orphan; re-sent, it is kept once and silently, so it has no error either.
    if (!chart) return reply(USC_STATUS.accepted, 'This score has been saved, but the chart is not currently on the IR.');
    if (error) return reply(USC_STATUS.badRequest, `${error.type} ${error.message}`);
    if (!doc.scoreIDs.length) return reply(USC_STATUS.success, 'Score was identical to another score you already have.');
    return this.submitted(user, chart.chartID, doc.scoreIDs[0]);
  }

  /** The success body: the play, the server record, and the PBs ranked around the player's. */
  private async submitted(user: UserRow, chartID: string, scoreID: string) {
    const [score, pb] = await Promise.all([this.scores.findById(scoreID), this.records.pbOf(user.id, chartID)]);
    if (!score || !pb) return reply(USC_STATUS.serverError, 'The score was imported but could not be read back.');
    const [[top], around] = await Promise.all([
      this.records.rankedPbs(chartID, 1, 1),
      this.records.rankedPbs(chartID, Math.max(1, pb.rank - ADJACENT), pb.rank + ADJACENT),
    ]);
    return reply(USC_STATUS.success, 'Score submitted.', {
      score: playServerScore(score, pb.rank, user.username),
      serverRecord: top ? pbServerScore(top) : null,
      isServerRecord: top?.pb.userID === user.id,
      isPB: pb.composedFrom[0]?.scoreID === scoreID,
      sendReplay: scoreID,
      adjacentAbove: around.filter((r) => r.pb.rank < pb.rank).map(pbServerScore),
      adjacentBelow: around.filter((r) => r.pb.rank > pb.rank).map(pbServerScore),
    });
  }

  /** Stores the replay of one of the user's scores of this playtype, named by its score id (the submission's sendReplay). */
  async saveReplay(userID: number, playtype: string, identifier: string, replay: Buffer) {
    const score = await this.scores.findById(identifier);
    if (!score || score.game !== 'usc' || score.playtype !== playtype)
      return reply(USC_STATUS.notFound, `No USC ${playtype} score has the identifier '${identifier}'.`);
    if (score.userID !== userID) return reply(USC_STATUS.forbidden, 'That score is not yours.');
    await this.storage.put(`replays/usc/${score.scoreID}`, replay);
    return reply(USC_STATUS.success, 'Saved replay.');
  }
}
