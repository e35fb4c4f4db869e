import {
  BadRequestException,
  Body,
  Controller,
  Get,
  HttpCode,
  Injectable,
  Param,
  Post,
  Res,
  UseGuards,
  type CanActivate,
  type ExecutionContext,
} from '@nestjs/common';
import { ApiAcceptedResponse, ApiHeader, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { CurrentUser, RequirePermissions, RequireUser } from '../../http/auth/access.decorators.js';
import type { UserRow } from '../../http/auth/auth-context.js';
import { RawResponse } from '../../http/response-shapes.js';
import { BeatorajaCourseResponse, BeatorajaImportedResponse, BeatorajaOrphanedResponse, BeatorajaRankingResponse } from './beatoraja.responses.js';
import { BeatorajaIrService, type HookAnswer } from './beatoraja.service.js';

/** Every /ir/beatoraja route needs the client's X-TachiIR-Version: v2 or v3. Runs after authentication. */
@Injectable()
class TachiIRVersionGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const version = context.switchToHttp().getRequest<Request>().headers['x-tachiir-version'];
    if (typeof version !== 'string' || !/^v[23]/.test(version)) throw new BadRequestException('Invalid X-TachiIR-Version.');
    return true;
  }
}

/**
 * The beatoraja / LR2oraja IR (Tachi's BokutachiIR): scores, course (dan) clears and chart
 * rankings, answered as `{success, description, body}` with the statuses its client expects.
 */
@ApiTags('ir')
@ApiHeader({ name: 'X-TachiIR-Version', required: true, description: 'The IR client version: v2… or v3….' })
@Controller('ir/beatoraja')
@UseGuards(TachiIRVersionGuard)
@RawResponse()
export class BeatorajaController {
  constructor(private readonly beatoraja: BeatorajaIrService) {}

  /** One score; an unknown chart waits in the orphan-chart queue with it (202) until BEATORAJA_QUEUE_SIZE players have sent it. */
  @Post('submit-score')
  @HttpCode(200)
  @RequirePermissions('submit_score')
  @ApiOkResponse({ type: BeatorajaImportedResponse })
  @ApiAcceptedResponse({ type: BeatorajaOrphanedResponse })
  async submitScore(@CurrentUser() user: UserRow, @Body() body: unknown, @Res({ passthrough: true }) res: Response): Promise<HookAnswer> {
    const { status, answer } = await this.beatoraja.submitScore(user.id, body);
    if (status !== undefined) res.status(status);
    return answer;
  }

  /** A dan course clear: its class goes through the import pipeline as a provided class. */
  @Post('submit-course')
  @HttpCode(200)
  @RequirePermissions('submit_score')
  @ApiOkResponse({ type: BeatorajaCourseResponse })
  submitCourse(@CurrentUser() user: UserRow, @Body() body: unknown): Promise<HookAnswer> {
    return this.beatoraja.submitCourse(user.id, body);
  }

  /** The chart's PBs, best first, as beatoraja's IR ranking. A BMS chart wins over a PMS one; PMS Controller over Keyboard. */
  @Get('charts/:sha256/scores')
  @RequireUser()
  @ApiOkResponse({ type: BeatorajaRankingResponse })
  chartScores(@CurrentUser() user: UserRow, @Param('sha256') sha256: string): Promise<HookAnswer> {
    return this.beatoraja.chartRanking(user.id, sha256);
  }
}
