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
  TargetSubsResponse,
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

  @Get('all-subs')
  @ApiOperation({ summary: '{goals, quests, goalSubs, questSubs}: every goal and quest subscription of the user on the GPT.' })
  @ApiOkResponse({ type: TargetSubsResponse })
  allSubs(@Ugpt() ugpt: UgptContext) {
    return this.targets.userAllSubs(ugpt.user, ugpt.gpt);
  }

  @Get('on-chart/:chartID')
  @ApiOperation({
    summary:
      '{goals, goalSubs, quests, questSubs}: the user’s goal subs concerning the chart (a goal naming it, or on a folder holding it) and their subscribed quests holding those goals. 404 for a chart not on the GPT.',
  })
  @ApiOkResponse({ type: TargetSubsResponse })
  onChart(@Ugpt() ugpt: UgptContext, @Param('chartID') chartID: string) {
    return this.targets.userTargetsOnChart(ugpt.user, ugpt.gpt, chartID);
  }

  @Get('on-folder/:folderID')
  @ApiOperation({
    summary:
      '{goals, goalSubs, quests, questSubs}: the user’s goal subs concerning the folder (a goal on it, or naming one of its charts) and their subscribed quests holding those goals. 404 for a folder not on the GPT.',
  })
  @ApiOkResponse({ type: TargetSubsResponse })
  onFolder(@Ugpt() ugpt: UgptContext, @Param('folderID') folderID: string) {
    return this.targets.userTargetsOnFolder(ugpt.user, ugpt.gpt, folderID);
  }

  @Get('quests')
  @ApiOperation({ summary: '{quests, questSubs, goals}: the user’s quest subscriptions on the GPT, and the quests’ goals.' })
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
      'Subscribes to the quest and each of its goals. 409 if already subscribed; 400 at MAX_QUEST_SUBSCRIPTIONS (100 by default) quest subscriptions on the GPT. Returns {goals, quest, goalResults, questSub}.',
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
      'Builds a goal from {charts, criteria}, checks it against the GPT (400 naming the problem), creates it when new and subscribes. 400 if already achieved or at MAX_GOAL_SUBSCRIPTIONS (1,000 by default); 409 if already subscribed. Returns {goal, goalSub}.',
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
