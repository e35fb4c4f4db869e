import { Body, Controller, Get, HttpCode, Param, Post, Query, Res, UploadedFile } from '@nestjs/common';
import { ApiBadRequestResponse, ApiBody, ApiConsumes, ApiOkResponse, ApiParam, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { CurrentUser, RequirePermissions, RequireUser } from '../../../http/auth/access.decorators.js';
import type { UserRow } from '../../../http/auth/auth-context.js';
import { FileUpload } from '../../../http/file-upload.js';
import { RawResponse } from '../../../http/response-shapes.js';
import { ChartRecordsRepository } from '../../../repositories/chart-records.repository.js';
import { ScoresRepository } from '../../../repositories/scores.repository.js';
import { StorageService } from '../../../storage/storage.service.js';
import { SCORE_ERROR } from '../../import-errors.js';
import { ImportsService } from '../../imports.service.js';
import { USC_PLAYTYPES, uscGpt, uscIr, type UscSubmission } from './usc-ir.js';
import { pbServerScore, playServerScore, reply, USC_STATUS, UscReply } from './usc-replies.js';

export const USC_IR_VERSION = '0.4.0-a';
export const REPLAY_LIMIT_BYTES = 1024 * 1024;
/** Neighbours shown on each side of a submitted score's rank. */
const ADJACENT = 3;
const LEADERBOARD_MAX = 10;

const NOT_TRACKED = 'This chart is not tracked by the IR.';

/** Tachi answers an unknown :playtype with a real 400 in the API's own shape, not a USC reply. */
function playtypeRefused(res: Response, playtype: string) {
  res.status(400);
  return { success: false, description: `'${playtype.slice(0, 50)}' is not a USC playtype: use ${USC_PLAYTYPES.join(' or ')}.` };
}

/**
 * USC's IR (USC-IR spec 0.4.0-a) for one playtype. Every answer is HTTP 200 with a USC status code
 * (errors raised before or inside a handler too: the format's error shape renders them).
 */
@ApiTags('ir')
@Controller('ir/usc/:playtype')
@ApiParam({ name: 'playtype', enum: USC_PLAYTYPES, description: "The USC playtype the client plays: a USC client's IR URL ends with it." })
@RawResponse()
@ApiOkResponse({ type: UscReply, description: 'Every answer, errors included, with a USC status code.' })
@ApiBadRequestResponse({ description: 'The :playtype is neither Controller nor Keyboard.' })
export class UscIrController {
  constructor(
    private readonly importsService: ImportsService,
    private readonly records: ChartRecordsRepository,
    private readonly scores: ScoresRepository,
    private readonly storage: StorageService,
  ) {}

  @Get()
  @RequireUser()
  heartbeat(@Param('playtype') playtype: string, @Res({ passthrough: true }) res: Response) {
    if (!uscGpt(playtype)) return playtypeRefused(res, playtype);
    return reply(USC_STATUS.success, 'IR is up.', {
      serverTime: Math.floor(Date.now() / 1000),
      serverName: 'Score tracking service',
      irVersion: USC_IR_VERSION,
    });
  }

  @Get('charts/:chartHash')
  @RequireUser()
  async chart(@Param('playtype') playtype: string, @Param('chartHash') hash: string, @Res({ passthrough: true }) res: Response) {
    if (!uscGpt(playtype)) return playtypeRefused(res, playtype);
    // An unknown chart's scores are still accepted (kept as orphans), so it is "not found", not "refused".
    return (await this.records.chartByHash('usc', playtype, hash))
      ? reply(USC_STATUS.success, 'This chart is tracked by the IR.')
      : reply(USC_STATUS.notFound, NOT_TRACKED);
  }

  @Get('charts/:chartHash/record')
  @RequireUser()
  async record(@Param('playtype') playtype: string, @Param('chartHash') hash: string, @Res({ passthrough: true }) res: Response) {
    if (!uscGpt(playtype)) return playtypeRefused(res, playtype);
    const chart = await this.records.chartByHash('usc', playtype, hash);
    if (!chart) return reply(USC_STATUS.notFound, NOT_TRACKED);
    const [top] = await this.records.rankedPbs(chart.chartID, 1, 1);
    return top
      ? reply(USC_STATUS.success, 'The server record on this chart.', pbServerScore(top))
      : reply(USC_STATUS.notFound, 'No one has a score on this chart yet.');
  }

  @Get('charts/:chartHash/leaderboard')
  @RequireUser()
  async leaderboard(
    @Param('playtype') playtype: string,
    @Param('chartHash') hash: string,
    @Query('mode') mode: unknown,
    @Query('n') n: unknown,
    @Res({ passthrough: true }) res: Response,
  ) {
    if (!uscGpt(playtype)) return playtypeRefused(res, playtype);
    if (mode === 'rivals') return reply(USC_STATUS.badRequest, 'This IR has no rivals: use mode=best.');
    if (mode !== 'best') return reply(USC_STATUS.badRequest, 'mode must be best (or rivals, which this IR does not support).');
    const count = typeof n === 'string' && /^\d{1,2}$/.test(n) ? Number(n) : NaN;
    if (!(count >= 1 && count <= LEADERBOARD_MAX)) return reply(USC_STATUS.badRequest, `n must be an integer from 1 to ${LEADERBOARD_MAX}.`);
    const chart = await this.records.chartByHash('usc', playtype, hash);
    if (!chart) return reply(USC_STATUS.notFound, NOT_TRACKED);
    const pbs = await this.records.rankedPbs(chart.chartID, 1, count);
    return reply(USC_STATUS.success, `The best ${pbs.length} scores on this chart.`, pbs.map(pbServerScore));
  }

  @Post('scores')
  @HttpCode(200)
  @RequirePermissions('submit_score')
  async submit(@Param('playtype') playtype: string, @CurrentUser() user: UserRow, @Body() body: unknown, @Res({ passthrough: true }) res: Response) {
    if (!uscGpt(playtype)) return playtypeRefused(res, playtype);
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

  @Post('replays')
  @HttpCode(200)
  @RequirePermissions('submit_score')
  @ApiConsumes('multipart/form-data')
  @ApiBody({
    schema: {
      type: 'object',
      required: ['identifier', 'replay'],
      properties: {
        identifier: { type: 'string', maxLength: 100, description: "The sendReplay of the score's submission." },
        replay: { type: 'string', format: 'binary', description: `The replay file, at most ${REPLAY_LIMIT_BYTES / 1024 / 1024} MiB.` },
      },
    },
  })
  @FileUpload('replay', { bytes: () => REPLAY_LIMIT_BYTES })
  async replay(
    @Param('playtype') playtype: string,
    @CurrentUser() user: UserRow,
    @Body() form: Record<string, unknown> | undefined,
    @Res({ passthrough: true }) res: Response,
    @UploadedFile() file?: Express.Multer.File,
  ) {
    if (!uscGpt(playtype)) return playtypeRefused(res, playtype);
    const identifier = form?.identifier;
    if (typeof identifier !== 'string' || !identifier || identifier.length > 100)
      return reply(USC_STATUS.badRequest, "Expected the score's identifier (the sendReplay of its submission) in the form field 'identifier'.");
    if (!file) return reply(USC_STATUS.badRequest, "Expected the replay file in the multipart field 'replay'.");
    const score = await this.scores.findById(identifier);
    if (!score || score.game !== 'usc' || score.playtype !== playtype)
      return reply(USC_STATUS.notFound, `No USC ${playtype} score has the identifier '${identifier}'.`);
    if (score.userID !== user.id) return reply(USC_STATUS.forbidden, 'That score is not yours.');
    await this.storage.put(`replays/usc/${score.scoreID}`, file.buffer);
    return reply(USC_STATUS.success, 'Saved replay.');
  }
}
