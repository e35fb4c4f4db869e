import { Readable } from 'node:stream';
import { Body, Controller, Delete, Get, HttpCode, Param, Query, Res, StreamableFile, UseGuards } from '@nestjs/common';
import type { Response } from 'express';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import { PasswordConfirmationDto } from '../auth/dto/auth.dto.js';
import { OwnerOnly, SessionOnly } from '../http/auth/access.decorators.js';
import { ApiEmptyObjectResponse, type EmptyObject } from '../http/empty-object.js';
import { ApiErrors } from '../http/openapi-errors.js';
import { CachedRead } from '../http/read-cache/cached-read.decorator.js';
import { ugptPbScopes, ugptScopes } from '../http/read-cache/read-scopes.js';
import { RawResponse } from '../http/response-shapes.js';
import { Ugpt, UgptGuard, type UgptContext } from './ugpt.guard.js';
import { BestPbsQuery, PbQuery, SongSearchQuery } from './dto/profile.dto.js';
import { ScoreDocument } from '../presenters/score.presenter.js';
import {
  ChartNeighboursResponse,
  MostPlayedResponse,
  PbListResponse,
  PbWithChartResponse,
  ScoreListResponse,
  ScoreSearchResponse,
  UgptSummaryResponse,
} from './dto/profile.responses.js';
import { UgptExportService } from './ugpt-export.service.js';
import { UgptProfileService } from './ugpt-profile.service.js';
import { UgptRemovalService } from './ugpt-removal.service.js';

/** A user's profile, PBs and scores on one GPT (spec 4.8). Public; 404 when the user has not played the GPT. */
@ApiTags('ugpt')
@ApiNotFoundResponse({ description: 'Unknown user, game or playtype, or the user has not played this GPT.' })
@UseGuards(UgptGuard)
@Controller('users/:userID/games/:game/:playtype')
export class UgptProfileController {
  constructor(
    private readonly profile: UgptProfileService,
    private readonly exporter: UgptExportService,
    private readonly removal: UgptRemovalService,
  ) {}

  @Get()
  @ApiOperation({ summary: '{gameStats, firstScore, mostRecentScore, totalScores, rankingData}.' })
  @ApiOkResponse({ type: UgptSummaryResponse })
  summary(@Ugpt() ugpt: UgptContext): Promise<UgptSummaryResponse> {
    return this.profile.summary(ugpt);
  }

  @Delete()
  @HttpCode(200)
  @ApiErrors(409)
  @SessionOnly()
  @OwnerOnly()
  @ApiOperation({ summary: 'Deletes the profile (scores, PBs, sessions, stats); needs a session of the user and their !password (401 when wrong).' })
  @ApiEmptyObjectResponse()
  async delete(@Ugpt() ugpt: UgptContext, @Body() dto: PasswordConfirmationDto): Promise<EmptyObject> {
    await this.removal.deleteProfile(ugpt, dto['!password']);
    return {};
  }

  @Get('pbs')
  @ApiOperation({ summary: '{songs, charts, pbs}: up to 30 PBs on songs matching the search, best matches first.' })
  @ApiOkResponse({ type: PbListResponse })
  searchPbs(@Ugpt() ugpt: UgptContext, @Query() query: SongSearchQuery): Promise<PbListResponse> {
    return this.profile.searchPbs(ugpt, query.search);
  }

  @Get('pbs/best')
  @CachedRead(ugptPbScopes)
  @ApiOperation({ summary: '{songs, charts, pbs}: the 100 best PBs on primary charts under a score rating algorithm.' })
  @ApiOkResponse({ type: PbListResponse })
  bestPbs(@Ugpt() ugpt: UgptContext, @Query() query: BestPbsQuery): Promise<PbListResponse> {
    return this.profile.bestPbs(ugpt, query.alg);
  }

  @Get('pbs/all')
  @ApiOperation({ summary: '{pbs, songs, charts}: every PB, most recent first.' })
  @ApiOkResponse({ type: PbListResponse })
  allPbs(@Ugpt() ugpt: UgptContext): Promise<PbListResponse> {
    return this.profile.allPbs(ugpt);
  }

  // Declared after pbs/best and pbs/all, which it would otherwise capture.
  @Get('pbs/:chartID')
  @ApiOperation({ summary: '{pb, chart}, plus scores (those composing the PB) with getComposition.' })
  @ApiOkResponse({ type: PbWithChartResponse })
  pb(@Ugpt() ugpt: UgptContext, @Param('chartID') chartID: string, @Query() query: PbQuery): Promise<PbWithChartResponse> {
    return this.profile.pb(ugpt, chartID, query.getComposition !== undefined);
  }

  @Get('pbs/:chartID/leaderboard-adjacent')
  @ApiOperation({
    summary:
      "{pb, chart, adjacentAbove, adjacentBelow, users}: the player's PB on the chart and up to 5 PBs ranked just above and 5 just below it, nearest first.",
  })
  @ApiOkResponse({ type: ChartNeighboursResponse })
  chartNeighbours(@Ugpt() ugpt: UgptContext, @Param('chartID') chartID: string): Promise<ChartNeighboursResponse> {
    return this.profile.chartNeighbours(ugpt, chartID);
  }

  @Get('scores')
  @ApiOperation({ summary: '{songs (with __textScore), charts, scores}: up to 30 scores on songs matching the search.' })
  @ApiOkResponse({ type: ScoreSearchResponse })
  searchScores(@Ugpt() ugpt: UgptContext, @Query() query: SongSearchQuery): Promise<ScoreSearchResponse> {
    return this.profile.searchScores(ugpt, query.search);
  }

  @Get('scores/recent')
  @CachedRead((_answer, req) => ugptScopes(req))
  @ApiOperation({ summary: '{songs, charts, scores}: the 100 latest scores by timeAchieved.' })
  @ApiOkResponse({ type: ScoreListResponse })
  recentScores(@Ugpt() ugpt: UgptContext): Promise<ScoreListResponse> {
    return this.profile.recentScores(ugpt);
  }

  // Declared after scores/recent, which it would otherwise capture.
  @Get('scores/:chartID')
  @ApiOperation({
    summary: "ScoreDocument[]: the player's scores on the chart, the latest first (those without a time last). 404 when the player has no PB on it.",
  })
  @ApiOkResponse({ type: ScoreDocument, isArray: true })
  scoresOnChart(@Ugpt() ugpt: UgptContext, @Param('chartID') chartID: string): Promise<ScoreDocument[]> {
    return this.profile.scoresOnChart(ugpt, chartID);
  }

  @Get('most-played')
  @ApiOperation({ summary: '{songs, charts, pbs with __playcount}: the 100 most played charts.' })
  @ApiOkResponse({ type: MostPlayedResponse })
  mostPlayed(@Ugpt() ugpt: UgptContext): Promise<MostPlayedResponse> {
    return this.profile.mostPlayed(ugpt);
  }

  @Get('export')
  @RawResponse()
  @ApiOperation({
    summary: 'Every score of the profile as a batch-manual file (a download, not enveloped) that re-imports to the same scores.',
  })
  @ApiProduces('application/json')
  @ApiOkResponse({
    description: 'A batch-manual document: {meta: {game, playtype, service}, scores: [score elements]}.',
    schema: {
      type: 'object',
      properties: {
        meta: { type: 'object', properties: { game: { type: 'string' }, playtype: { type: 'string' }, service: { type: 'string' } } },
        scores: { type: 'array', items: { type: 'object', additionalProperties: true } },
      },
    },
  })
  export(@Ugpt() ugpt: UgptContext, @Res({ passthrough: true }) res: Response): StreamableFile {
    res.setHeader('Content-Disposition', `attachment; filename="${ugpt.user.username}-${ugpt.gpt.game}-${ugpt.gpt.playtype}.json"`);
    return new StreamableFile(Readable.from(this.exporter.batchManual(ugpt)), { type: 'application/json' });
  }
}
