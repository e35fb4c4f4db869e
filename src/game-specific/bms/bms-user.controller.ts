import { Controller, Get, Param, Res } from '@nestjs/common';
import type { Response } from 'express';
import { ApiBadRequestResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import { TargetUser } from '../../http/auth/access.decorators.js';
import type { UserRow } from '../../http/auth/auth-context.js';
import { resolveGpt } from '../../http/gpt.decorator.js';
import { RawResponse } from '../../http/response-shapes.js';
import { BmsBestScoreResponse } from '../dto/game-specific.responses.js';
import { BmsToolsService } from './bms-tools.service.js';
import { BmsUserService } from './bms-user.service.js';
import type { BmsTableEntry, BmsTableHeader } from './custom-tables.js';

/** BMS's own user routes (Tachi's, under the player's route): a best score by checksum, the player's custom tables. Public, as a player's PBs are. */
@ApiTags('game-specific')
@ApiNotFoundResponse({ description: 'Unknown user, a playtype BMS does not have, no chart with that checksum, or no PB on it.' })
@Controller('users/:userID/games/bms/:bmsPlaytype')
export class BmsUserController {
  constructor(
    private readonly bms: BmsUserService,
    private readonly tools: BmsToolsService,
  ) {}

  @Get('best-score/:checksum')
  @ApiOperation({ summary: "{pb, chart, song}: the player's best score (their PB) on the playtype's chart whose MD5 or SHA-256 is the checksum." })
  @ApiOkResponse({ type: BmsBestScoreResponse })
  @ApiBadRequestResponse({ description: 'The checksum is neither 32 nor 64 hex digits.' })
  bestScore(@TargetUser() user: UserRow, @Param('bmsPlaytype') playtype: string, @Param('checksum') checksum: string): Promise<BmsBestScoreResponse> {
    return this.bms.bestScore(user.id, resolveGpt('bms', playtype), checksum);
  }

  @Get('custom-tables/:urlName')
  @RawResponse()
  @ApiProduces('text/html')
  @ApiOperation({ summary: "The player's copy of the table, for BMS clients: its bmstable meta tag names the player's header.json." })
  @ApiOkResponse({ schema: { type: 'string' } })
  async page(
    @TargetUser() user: UserRow,
    @Param('bmsPlaytype') playtype: string,
    @Param('urlName') urlName: string,
    @Res({ passthrough: true }) res: Response,
  ): Promise<string> {
    const page = await this.tools.page(resolveGpt('bms', playtype), urlName, user.id);
    res.type('text/html; charset=utf-8');
    return page;
  }

  @Get('custom-tables/:urlName/header.json')
  @RawResponse()
  @ApiOperation({ summary: "The player's table's header.json: the site-wide table's, its data_url the player's body.json (never enveloped)." })
  @ApiOkResponse({ schema: { type: 'object', additionalProperties: true } })
  header(@TargetUser() user: UserRow, @Param('bmsPlaytype') playtype: string, @Param('urlName') urlName: string): Promise<BmsTableHeader> {
    return this.tools.header(resolveGpt('bms', playtype), urlName, user.id);
  }

  @Get('custom-tables/:urlName/body.json')
  @RawResponse()
  @ApiOperation({
    summary: "The player's table's body.json: [{level, md5, title, artist, lamp?}], lamp being the player's on each chart they played (never enveloped).",
  })
  @ApiOkResponse({ schema: { type: 'array', items: { type: 'object', additionalProperties: true } } })
  body(@TargetUser() user: UserRow, @Param('bmsPlaytype') playtype: string, @Param('urlName') urlName: string): Promise<BmsTableEntry[]> {
    return this.tools.body(resolveGpt('bms', playtype), urlName, user.id);
  }
}
