import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth, CurrentUser, RequirePermissions } from '../http/auth/access.decorators.js';
import type { AuthContext, UserRow } from '../http/auth/auth-context.js';
import { ApiEmptyObjectResponse, type EmptyObject } from '../http/empty-object.js';
import { ScoreDocument } from '../presenters/score.presenter.js';
import { ScoreWithRelatedResponse } from './dto/score.responses.js';
import { GetScoreQuery, PatchScoreDto } from './dto/scores.dto.js';
import { ScoresService } from './scores.service.js';
import { ApiErrors } from '../http/openapi-errors.js';

@ApiTags('scores')
@Controller('scores/:scoreID')
export class ScoresController {
  constructor(private readonly scoresService: ScoresService) {}

  @Get()
  @ApiOperation({ summary: '{score}, plus song and chart with getRelated.' })
  @ApiOkResponse({ type: ScoreWithRelatedResponse })
  get(@Param('scoreID') scoreID: string, @Query() query: GetScoreQuery): Promise<ScoreWithRelatedResponse> {
    return this.scoresService.get(scoreID, query.getRelated !== undefined);
  }

  @Patch()
  @RequirePermissions('customise_score')
  @ApiOperation({ summary: 'Set the comment and/or highlight of your own score. Returns the ScoreDocument.' })
  @ApiOkResponse({ type: ScoreDocument })
  patch(@CurrentUser() user: UserRow, @Param('scoreID') scoreID: string, @Body() dto: PatchScoreDto): Promise<ScoreDocument> {
    return this.scoresService.patch(user, scoreID, dto);
  }

  @Delete()
  @ApiErrors(409)
  @HttpCode(200)
  @RequirePermissions('delete_score')
  @ApiOperation({ summary: 'Delete a score (owner or administrator); PB, ranks, session, import and profile are recomputed.' })
  @ApiEmptyObjectResponse()
  async delete(@Auth() auth: AuthContext, @Param('scoreID') scoreID: string): Promise<EmptyObject> {
    await this.scoresService.delete(auth, scoreID);
    return {};
  }
}
