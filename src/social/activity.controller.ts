import { Controller, Get, Query, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { TargetUser } from '../http/auth/access.decorators.js';
import type { UserRow } from '../http/auth/auth-context.js';
import { Gpt } from '../http/gpt.decorator.js';
import type { GptSupport } from '../game-support/types.js';
import { ActivityDocument, RecentSummaryDocument, UserStatsDocument } from '../presenters/activity.presenter.js';
import { Ugpt, UgptGuard, type UgptContext } from '../ugpt/ugpt.guard.js';
import { ActivityQuery, UserActivityQuery } from './dto/social.dto.js';
import { SocialService } from './social.service.js';

const yes = (v: string | undefined) => v === 'true';

/**
 * The activity feeds (sessions, and in their window class raises, highlighted scores and achieved goals and quests;
 * newest first; page with startTime), a user's recent summary and counts. All public.
 */
@ApiTags('social')
@Controller()
export class ActivityController {
  constructor(private readonly social: SocialService) {}

  @Get('activity')
  @ApiOperation({
    summary:
      'Site-wide activity: the latest sessions (30 by default, 10–100) started before startTime; since the earliest, the class raises, highlighted scores and achieved goals and quests.',
  })
  @ApiOkResponse({ type: ActivityDocument })
  global(@Query() query: ActivityQuery): Promise<ActivityDocument> {
    return this.social.activity(query);
  }

  @Get('games/:game/:playtype/activity')
  @ApiOperation({ summary: "A GPT's activity, as /activity." })
  @ApiOkResponse({ type: ActivityDocument })
  gpt(@Gpt() gpt: GptSupport, @Query() query: ActivityQuery): Promise<ActivityDocument> {
    return this.social.activity(query, gpt);
  }

  @Get('users/:userID/activity')
  @ApiOperation({
    summary:
      "A user's activity on every GPT; includeRivals=true adds their rivals' (of every GPT), includeFollowers=true (or includeFollowing) the users they follow.",
  })
  @ApiOkResponse({ type: ActivityDocument })
  user(@TargetUser() user: UserRow, @Query() query: UserActivityQuery): Promise<ActivityDocument> {
    return this.social.userActivity(user, query, {
      includeRivals: yes(query.includeRivals),
      includeFollowing: yes(query.includeFollowers) || yes(query.includeFollowing),
    });
  }

  @Get('users/:userID/games/:game/:playtype/activity')
  @UseGuards(UgptGuard)
  @ApiOperation({ summary: "A user's activity on the GPT; includeRivals=true adds their rivals' there, includeFollowers=true the users they follow." })
  @ApiOkResponse({ type: ActivityDocument })
  ugpt(@Ugpt() ugpt: UgptContext, @Query() query: UserActivityQuery): Promise<ActivityDocument> {
    return this.social.userActivity(ugpt.user, query, {
      gpt: ugpt.gpt,
      includeRivals: yes(query.includeRivals),
      includeFollowing: yes(query.includeFollowers) || yes(query.includeFollowing),
    });
  }

  @Get('users/:userID/recent-summary')
  @ApiOperation({
    summary: 'What the user did in the last 16 hours: scores imported, sessions ended, goals achieved and goals whose progress moved (with the goals). Public.',
  })
  @ApiOkResponse({ type: RecentSummaryDocument })
  recentSummary(@TargetUser() user: UserRow): Promise<RecentSummaryDocument> {
    return this.social.recentSummary(user);
  }

  @Get('users/:userID/stats')
  @ApiOperation({ summary: 'How many scores and sessions the user has: {scores, sessions}.' })
  @ApiOkResponse({ type: UserStatsDocument })
  stats(@TargetUser() user: UserRow): Promise<UserStatsDocument> {
    return this.social.stats(user);
  }
}
