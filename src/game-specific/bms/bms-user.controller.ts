import { Controller, Get, Param } from '@nestjs/common';
import { ApiBadRequestResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { TargetUser } from '../../http/auth/access.decorators.js';
import type { UserRow } from '../../http/auth/auth-context.js';
import { resolveGpt } from '../../http/gpt.decorator.js';
import { BmsBestScoreResponse } from '../dto/game-specific.responses.js';
import { BmsUserService } from './bms-user.service.js';

/** BMS's own user routes (Tachi's, under the player's route). Public, as a player's PBs are. */
@ApiTags('game-specific')
@ApiNotFoundResponse({ description: 'Unknown user, a playtype BMS does not have, no chart with that checksum, or no PB on it.' })
@Controller('users/:userID/games/bms/:bmsPlaytype')
export class BmsUserController {
  constructor(private readonly bms: BmsUserService) {}

  @Get('best-score/:checksum')
  @ApiOperation({ summary: "{pb, chart, song}: the player's best score (their PB) on the playtype's chart whose MD5 or SHA-256 is the checksum." })
  @ApiOkResponse({ type: BmsBestScoreResponse })
  @ApiBadRequestResponse({ description: 'The checksum is neither 32 nor 64 hex digits.' })
  bestScore(@TargetUser() user: UserRow, @Param('bmsPlaytype') playtype: string, @Param('checksum') checksum: string): Promise<BmsBestScoreResponse> {
    return this.bms.bestScore(user.id, resolveGpt('bms', playtype), checksum);
  }
}
