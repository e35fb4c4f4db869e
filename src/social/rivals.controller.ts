import { Body, Controller, Get, Param, Put, Query, UseGuards } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { OwnerOnly, RequirePermissions } from '../http/auth/access.decorators.js';
import { ActivityDocument } from '../presenters/activity.presenter.js';
import { UserDocument } from '../presenters/user.presenter.js';
import { Ugpt, UgptGuard, type UgptContext } from '../ugpt/ugpt.guard.js';
import { ActivityQuery, PutRivalsDto, RivalPbLeaderboardQuery } from './dto/social.dto.js';
import { RivalChartPbsResponse, RivalPbLeaderboardResponse } from './dto/social.responses.js';
import { SocialService } from './social.service.js';

/** A user's rivals on a GPT, who rivals them, and their rivals' activity. */
@ApiTags('social')
@ApiNotFoundResponse({ description: 'Unknown user, game or playtype, or the user has not played the GPT.' })
@Controller('users/:userID/games/:game/:playtype/rivals')
@UseGuards(UgptGuard)
export class RivalsController {
  constructor(private readonly social: SocialService) {}

  @Get()
  @ApiOperation({ summary: "The user's rivals on the GPT (user documents). Public." })
  @ApiOkResponse({ type: UserDocument, isArray: true })
  list(@Ugpt() ugpt: UgptContext): Promise<UserDocument[]> {
    return this.social.rivals(ugpt.user, ugpt.gpt);
  }

  @Put()
  @RequirePermissions('manage_rivals')
  @OwnerOnly()
  @ApiOperation({
    summary:
      "Replaces the user's rivals on the GPT with {rivalIDs}: at most MAX_RIVALS (default 5), not yourself, no repeats, each a player of the GPT (400 otherwise). New rivals get a RIVALED_BY notification. Returns the rivals.",
  })
  @ApiOkResponse({ type: UserDocument, isArray: true })
  put(@Ugpt() ugpt: UgptContext, @Body() dto: PutRivalsDto): Promise<UserDocument[]> {
    return this.social.setRivals(ugpt.user, ugpt.gpt, dto.rivalIDs);
  }

  @Get('challengers')
  @ApiOperation({ summary: 'The users who have this user as a rival on the GPT. Public.' })
  @ApiOkResponse({ type: UserDocument, isArray: true })
  challengers(@Ugpt() ugpt: UgptContext): Promise<UserDocument[]> {
    return this.social.challengers(ugpt.user, ugpt.gpt);
  }

  @Get('pb-leaderboard')
  @ApiOperation({
    summary:
      "{pbs, songs, charts, users}: the best PBs (limit 1–100, default 100) of the user and their rivals on the GPT under a score rating algorithm (alg, default the GPT's). Public.",
  })
  @ApiOkResponse({ type: RivalPbLeaderboardResponse })
  pbLeaderboard(@Ugpt() ugpt: UgptContext, @Query() query: RivalPbLeaderboardQuery): Promise<RivalPbLeaderboardResponse> {
    return this.social.rivalPbLeaderboard(ugpt.user, ugpt.gpt, query);
  }

  @Get('activity')
  @ApiOperation({ summary: "The activity of the user's rivals on the GPT (sessions, class raises), newest first. Public." })
  @ApiOkResponse({ type: ActivityDocument })
  activity(@Ugpt() ugpt: UgptContext, @Query() query: ActivityQuery): Promise<ActivityDocument> {
    return this.social.userActivity(ugpt.user, query, { gpt: ugpt.gpt, onlyRivals: true });
  }
}

/** A user's rivals' PBs on one chart. */
@ApiTags('social')
@ApiNotFoundResponse({ description: 'Unknown user, game, playtype or chart, or the user has not played the GPT.' })
@Controller('users/:userID/games/:game/:playtype/pbs/:chartID/rivals')
@UseGuards(UgptGuard)
export class RivalChartPbsController {
  constructor(private readonly social: SocialService) {}

  @Get()
  @ApiOperation({ summary: "{pbs, rivals}: the rivals' PBs on the chart, best first, then the user's own (when they have one); the rivals. Public." })
  @ApiOkResponse({ type: RivalChartPbsResponse })
  get(@Ugpt() ugpt: UgptContext, @Param('chartID') chartID: string): Promise<RivalChartPbsResponse> {
    return this.social.rivalChartPbs(ugpt.user, ugpt.gpt, chartID);
  }
}
