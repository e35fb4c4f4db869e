import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, UseGuards } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { OwnerOnly, RequirePermissions } from '../http/auth/access.decorators.js';
import { ApiErrors } from '../http/openapi-errors.js';
import { Ugpt, UgptGuard, type UgptContext } from '../ugpt/ugpt.guard.js';
import { AddGoalDto } from './dto/targets.dto.js';
import {
  GoalOnlyResponse,
  GoalSubscribeResponse,
  QuestOnlyResponse,
  QuestSubscribeResponse,
  UserGoalResponse,
  UserGoalsResponse,
  UserQuestResponse,
  UserQuestsResponse,
  UserTargetSubsResponse,
} from './dto/targets.responses.js';
import { TargetsService } from './targets.service.js';

/**
 * A user's goal and quest subscriptions on a GPT (spec 4.8, UGPT targets). Reads are public;
 * writes need manage_targets and the user themselves.
 */
@ApiTags('targets')
@ApiNotFoundResponse({ description: 'Unknown user, game, playtype, goal or quest; the user has not played the GPT; or is not subscribed.' })
@Controller('users/:userID/games/:game/:playtype/targets')
@UseGuards(UgptGuard)
export class UgptTargetsController {
  constructor(private readonly targets: TargetsService) {}

  @Get('recently-achieved')
  @ApiOperation({
    summary: 'The user’s 100 goal subs and 50 quest subs achieved most recently (not at subscription), with goals, quests (also as quest) and user.',
  })
  @ApiOkResponse({ type: UserTargetSubsResponse })
  recentlyAchieved(@Ugpt() ugpt: UgptContext) {
    return this.targets.userRecentlyAchieved(ugpt.user, ugpt.gpt);
  }

  @Get('recently-raised')
  @ApiOperation({ summary: 'The user’s 100 goal subs and 50 quest subs whose progress moved most recently, not achieved.' })
  @ApiOkResponse({ type: UserTargetSubsResponse })
  recentlyRaised(@Ugpt() ugpt: UgptContext) {
    return this.targets.userRecentlyRaised(ugpt.user, ugpt.gpt);
  }

  @Get('quests')
  @ApiOperation({ summary: '{quests, questSubs}: the user’s quest subscriptions on the GPT.' })
  @ApiOkResponse({ type: UserQuestsResponse })
  quests(@Ugpt() ugpt: UgptContext) {
    return this.targets.userQuests(ugpt.user, ugpt.gpt);
  }

  @Get('quests/:questID')
  @ApiOperation({ summary: '{questSub, quest, goals, results}: 404 when the user is not subscribed.' })
  @ApiOkResponse({ type: UserQuestResponse })
  quest(@Ugpt() ugpt: UgptContext, @Param('questID') questID: string) {
    return this.targets.userQuest(ugpt.user, ugpt.gpt, questID);
  }

  @Put('quests/:questID')
  @RequirePermissions('manage_targets')
  @OwnerOnly()
  @ApiErrors(400, 409)
  @ApiOperation({
    summary:
      'Subscribes to the quest and each of its goals. 409 if already subscribed; 400 at 100 quest subscriptions on the GPT. Returns {goals, quest, goalResults, questSub}.',
  })
  @ApiOkResponse({ type: QuestSubscribeResponse })
  subscribeQuest(@Ugpt() ugpt: UgptContext, @Param('questID') questID: string) {
    return this.targets.subscribeQuest(ugpt.user, ugpt.gpt, questID);
  }

  @Delete('quests/:questID')
  @RequirePermissions('manage_targets')
  @OwnerOnly()
  @ApiErrors(409)
  @ApiOperation({ summary: 'Leaves the quest; its goal subs that nothing else keeps go too. 409 if not subscribed. Returns {quest}.' })
  @ApiOkResponse({ type: QuestOnlyResponse })
  unsubscribeQuest(@Ugpt() ugpt: UgptContext, @Param('questID') questID: string) {
    return this.targets.unsubscribeQuest(ugpt.user, ugpt.gpt, questID);
  }

  @Get('goals')
  @ApiOperation({ summary: '{goals, goalSubs, quests, questSubs, user}: the user’s goal and quest subscriptions on the GPT.' })
  @ApiOkResponse({ type: UserGoalsResponse })
  goals(@Ugpt() ugpt: UgptContext) {
    return this.targets.userGoals(ugpt.user, ugpt.gpt);
  }

  @Post('goals/add-goal')
  @HttpCode(200)
  @RequirePermissions('manage_targets')
  @OwnerOnly()
  @ApiErrors(409)
  @ApiOperation({
    summary:
      'Builds a goal from {charts, criteria}, checks it against the GPT (400 naming the problem), creates it when new and subscribes. 400 if already achieved or at 1,000 goal subscriptions; 409 if already subscribed. Returns {goal, goalSub}.',
  })
  @ApiOkResponse({ type: GoalSubscribeResponse })
  addGoal(@Ugpt() ugpt: UgptContext, @Body() dto: AddGoalDto) {
    return this.targets.addGoal(ugpt.user, ugpt.gpt, dto);
  }

  @Get('goals/:goalID')
  @ApiOperation({ summary: '{goalSub, goal, result (evaluated now), quests holding it, user}: 404 when the user is not subscribed.' })
  @ApiOkResponse({ type: UserGoalResponse })
  goal(@Ugpt() ugpt: UgptContext, @Param('goalID') goalID: string) {
    return this.targets.userGoal(ugpt.user, ugpt.gpt, goalID);
  }

  @Put('goals/:goalID')
  @RequirePermissions('manage_targets')
  @OwnerOnly()
  @ApiErrors(400, 409)
  @ApiOperation({ summary: 'Subscribes to an existing goal, as add-goal. Returns {goal, goalSub}.' })
  @ApiOkResponse({ type: GoalSubscribeResponse })
  subscribeGoal(@Ugpt() ugpt: UgptContext, @Param('goalID') goalID: string) {
    return this.targets.subscribeGoal(ugpt.user, ugpt.gpt, goalID);
  }

  @Delete('goals/:goalID')
  @RequirePermissions('manage_targets')
  @OwnerOnly()
  @ApiErrors(400)
  @ApiOperation({ summary: 'Unsubscribes from the goal. 404 if not subscribed; 400 while a subscribed quest holds it. Returns {goal}.' })
  @ApiOkResponse({ type: GoalOnlyResponse })
  removeGoal(@Ugpt() ugpt: UgptContext, @Param('goalID') goalID: string) {
    return this.targets.removeGoal(ugpt.user, ugpt.gpt, goalID);
  }
}
