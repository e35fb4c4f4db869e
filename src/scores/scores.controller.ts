import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth, CurrentUser, RequirePermissions } from '../http/auth/access.decorators.js';
import type { AuthContext, UserRow } from '../http/auth/auth-context.js';
import { GetScoreQuery, PatchScoreDto } from './dto/scores.dto.js';
import { ScoresService } from './scores.service.js';

@ApiTags('scores')
@Controller('scores/:scoreID')
export class ScoresController {
  constructor(private readonly scoresService: ScoresService) {}

  @Get()
  @ApiOperation({ summary: '{score}, plus song and chart with getRelated.' })
  get(@Param('scoreID') scoreID: string, @Query() query: GetScoreQuery) {
    return this.scoresService.get(scoreID, query.getRelated !== undefined);
  }

  @Patch()
  @RequirePermissions('customise_score')
  @ApiOperation({ summary: 'Set the comment and/or highlight of your own score. Returns the ScoreDocument.' })
  patch(@CurrentUser() user: UserRow, @Param('scoreID') scoreID: string, @Body() dto: PatchScoreDto) {
    return this.scoresService.patch(user, scoreID, dto);
  }

  @Delete()
  @HttpCode(200)
  @RequirePermissions('delete_score')
  @ApiOperation({ summary: 'Delete a score (owner or administrator); PB, ranks, session, import and profile are recomputed.' })
  async delete(@Auth() auth: AuthContext, @Param('scoreID') scoreID: string) {
    await this.scoresService.delete(auth, scoreID);
    return {};
  }
}
