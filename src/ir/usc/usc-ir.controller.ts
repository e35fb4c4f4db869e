import { Body, Controller, Get, HttpCode, Param, Post, Query, Res, UploadedFile } from '@nestjs/common';
import { ApiBadRequestResponse, ApiBody, ApiConsumes, ApiOkResponse, ApiParam, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { CurrentUser, RequirePermissions, RequireUser } from '../../http/auth/access.decorators.js';
import type { UserRow } from '../../http/auth/auth-context.js';
import { FileUpload } from '../../http/file-upload.js';
import { RawResponse } from '../../http/response-shapes.js';
import { USC_PLAYTYPES, uscGpt } from '../../imports/import-types/usc/usc-ir.js';
import { UscIrService } from './usc-ir.service.js';
import { reply, USC_STATUS, UscReply } from './usc-replies.js';

export const USC_IR_VERSION = '0.4.0-a';
export const REPLAY_LIMIT_BYTES = 1024 * 1024;
const LEADERBOARD_MAX = 10;

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
  constructor(private readonly usc: UscIrService) {}

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
    return this.usc.chart(playtype, hash);
  }

  @Get('charts/:chartHash/record')
  @RequireUser()
  async record(@Param('playtype') playtype: string, @Param('chartHash') hash: string, @Res({ passthrough: true }) res: Response) {
    if (!uscGpt(playtype)) return playtypeRefused(res, playtype);
    return this.usc.record(playtype, hash);
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
    return this.usc.leaderboard(playtype, hash, count);
  }

  @Post('scores')
  @HttpCode(200)
  @RequirePermissions('submit_score')
  async submit(@Param('playtype') playtype: string, @CurrentUser() user: UserRow, @Body() body: unknown, @Res({ passthrough: true }) res: Response) {
    if (!uscGpt(playtype)) return playtypeRefused(res, playtype);
    return this.usc.submit(user, playtype, body);
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
    return this.usc.saveReplay(user.id, playtype, identifier, file.buffer);
  }
}
