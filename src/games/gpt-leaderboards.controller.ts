import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiOperation, ApiTags, getSchemaPath } from '@nestjs/swagger';
import { Gpt } from '../http/gpt.decorator.js';
import { CachedRead } from '../http/read-cache/cached-read.decorator.js';
import { chartPbScopes, gptLeaderboardScopes } from '../http/read-cache/read-scopes.js';
import type { GptSupport } from '../game-support/types.js';
import { UserDocument } from '../presenters/user.presenter.js';
import {
  ChartPbsQuery,
  HighlightedScoresQuery,
  LeaderboardQuery,
  PbLeaderboardQuery,
  PlayerDistributionQuery,
  UsernameSearchQuery,
} from './dto/leaderboards.dto.js';
import {
  ChartPbsResponse,
  GptLeaderboardResponse,
  HighlightedScoresResponse,
  PbLeaderboardResponse,
  RecentClassesResponse,
  type ClassDistribution,
} from './dto/leaderboards.responses.js';
import { GptLeaderboardsService } from './gpt-leaderboards.service.js';

/** Leaderboards and activity of one GPT (spec 4.5). All public. */
@ApiTags('leaderboards')
@ApiExtraModels(RecentClassesResponse)
@Controller('games/:game/:playtype')
export class GptLeaderboardsController {
  constructor(private readonly leaderboards: GptLeaderboardsService) {}

  @Get('leaderboard')
  @CachedRead(gptLeaderboardScopes)
  @ApiOperation({ summary: '{gameStats, users}: profiles by a profile rating, best first (no rating last, ties by user id).' })
  @ApiOkResponse({ type: GptLeaderboardResponse })
  leaderboard(@Gpt() gpt: GptSupport, @Query() query: LeaderboardQuery): Promise<GptLeaderboardResponse> {
    return this.leaderboards.leaderboard(gpt, query);
  }

  @Get('charts/:chartID/pbs')
  @CachedRead(chartPbScopes)
  @ApiOperation({ summary: '{pbs, users}: the 100 PBs on the chart from startRanking on, by rank.' })
  @ApiOkResponse({ type: ChartPbsResponse })
  chartPbs(@Gpt() gpt: GptSupport, @Param('chartID') chartID: string, @Query() query: ChartPbsQuery): Promise<ChartPbsResponse> {
    return this.leaderboards.chartPbs(gpt, chartID, query);
  }

  @Get('charts/:chartID/pbs/search')
  @ApiOperation({ summary: '{pbs, users}: up to 25 PBs on the chart of players whose username contains the text; exact username first, then by rank.' })
  @ApiOkResponse({ type: ChartPbsResponse })
  searchChartPbs(@Gpt() gpt: GptSupport, @Param('chartID') chartID: string, @Query() query: UsernameSearchQuery): Promise<ChartPbsResponse> {
    return this.leaderboards.searchChartPbs(gpt, chartID, query.search);
  }

  @Get('players')
  @ApiOperation({ summary: 'UserDocument[]: up to 25 players of the GPT whose username contains the text; the exact username first, then by user id.' })
  @ApiOkResponse({ type: UserDocument, isArray: true })
  players(@Gpt() gpt: GptSupport, @Query() query: UsernameSearchQuery): Promise<UserDocument[]> {
    return this.leaderboards.players(gpt, query.search);
  }

  @Get('pb-leaderboard')
  @ApiOperation({ summary: '{pbs, songs, charts, users}: the best PBs of the GPT under a score rating algorithm.' })
  @ApiOkResponse({ type: PbLeaderboardResponse })
  pbLeaderboard(@Gpt() gpt: GptSupport, @Query() query: PbLeaderboardQuery): Promise<PbLeaderboardResponse> {
    return this.leaderboards.pbLeaderboard(gpt, query);
  }

  @Get('player-distribution')
  @ApiOperation({
    summary: 'With class: {<value>: players}. Without: {users, classes}, the latest class updates (limit 1–50, default 10).',
    description: 'The class distribution is cached per server process for 60 seconds, so a class change can take up to a minute to show in it.',
  })
  @ApiOkResponse({
    schema: {
      oneOf: [
        { type: 'object', additionalProperties: { type: 'integer' }, description: 'With class: class value → players holding it.' },
        { $ref: getSchemaPath(RecentClassesResponse) },
      ],
    },
  })
  playerDistribution(@Gpt() gpt: GptSupport, @Query() query: PlayerDistributionQuery): Promise<ClassDistribution | RecentClassesResponse> {
    return this.leaderboards.playerDistribution(gpt, query);
  }

  @Get('scores/highlighted')
  @ApiOperation({ summary: '{scores, users, songs, charts}: the most recent highlighted scores.' })
  @ApiOkResponse({ type: HighlightedScoresResponse })
  highlightedScores(@Gpt() gpt: GptSupport, @Query() query: HighlightedScoresQuery): Promise<HighlightedScoresResponse> {
    return this.leaderboards.highlightedScores(gpt, query);
  }
}
