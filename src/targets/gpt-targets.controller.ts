import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiExtraModels, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags, getSchemaPath } from '@nestjs/swagger';
import type { GptSupport } from '../game-support/types.js';
import { Auth } from '../http/auth/access.decorators.js';
import type { AuthContext } from '../http/auth/auth-context.js';
import { Gpt } from '../http/gpt.decorator.js';
import { ApiErrors } from '../http/openapi-errors.js';
import { GoalNameDocument, PopularGoalDocument, QuestDocument, QuestlineDocument, TachiQuestlineList } from '../presenters/targets.presenter.js';
import { AddGoalDto, EvaluateForQuery, TargetSearchQuery } from './dto/targets.dto.js';
import {
  GoalEvaluateForResponse,
  GoalResponse,
  QuestEvaluateForResponse,
  QuestlineResponse,
  QuestResponse,
  TargetSubsResponse,
} from './dto/targets.responses.js';
import { TargetsService } from './targets.service.js';

/** Goals, quests and questlines of one GPT (spec 4.6). All public. */
@ApiTags('targets')
@ApiExtraModels(GoalNameDocument, TachiQuestlineList)
@ApiNotFoundResponse({ description: 'Unknown game, playtype, goal, quest, questline or user.' })
@Controller('games/:game/:playtype/targets')
export class GptTargetsController {
  constructor(private readonly targets: TargetsService) {}

  @Get('recently-achieved')
  @ApiOperation({
    summary: 'The 100 goal subs and 50 quest subs achieved most recently (not those achieved at subscription), newest first, with their goals and quests.',
  })
  @ApiOkResponse({ type: TargetSubsResponse })
  recentlyAchieved(@Gpt() gpt: GptSupport) {
    return this.targets.recentlyAchieved(gpt);
  }

  @Get('recently-raised')
  @ApiOperation({ summary: 'The 100 goal subs and 50 quest subs whose progress or outOf changed most recently, not achieved, newest first.' })
  @ApiOkResponse({ type: TargetSubsResponse })
  recentlyRaised(@Gpt() gpt: GptSupport) {
    return this.targets.recentlyRaised(gpt);
  }

  @Get('goals/popular')
  @ApiOperation({ summary: 'The 100 goals with the most subscriptions, each with __subscriptions, most first.' })
  @ApiOkResponse({ type: [PopularGoalDocument] })
  popularGoals(@Gpt() gpt: GptSupport) {
    return this.targets.popularGoals(gpt);
  }

  @Post('goals/format')
  @HttpCode(200)
  @ApiErrors(400)
  @ApiOperation({
    summary:
      'The name the goal {charts, criteria} would get ({name}; under API_PROFILE=tachi the bare string), checked as add-goal checks it: 400 "Invalid goal: …" naming the problem. Creates nothing.',
  })
  @ApiOkResponse({
    description: 'spec: {name}; API_PROFILE=tachi: the name itself (a JSON string), as Tachi answers.',
    schema: { oneOf: [{ $ref: getSchemaPath(GoalNameDocument) }, { type: 'string' }] },
  })
  formatGoal(@Gpt() gpt: GptSupport, @Body() dto: AddGoalDto) {
    return this.targets.formatGoal(gpt, dto);
  }

  @Get('goals/:goalID')
  @ApiOperation({ summary: '{goal, goalSubs, users, parentQuests}.' })
  @ApiOkResponse({ type: GoalResponse })
  goal(@Gpt() gpt: GptSupport, @Param('goalID') goalID: string) {
    return this.targets.goal(gpt, goalID);
  }

  @Get('goals/:goalID/evaluate-for')
  @ApiOperation({ summary: '{goal, user, results}: the goal evaluated for the user now (also under result).' })
  @ApiOkResponse({ type: GoalEvaluateForResponse })
  evaluateGoal(@Gpt() gpt: GptSupport, @Param('goalID') goalID: string, @Query() query: EvaluateForQuery, @Auth() auth: AuthContext) {
    return this.targets.evaluateGoalFor(gpt, goalID, query.userID, auth.user);
  }

  @Get('quests')
  @ApiOperation({ summary: 'QuestDocument[]: the quests whose name contains search, or all of the GPT’s, by name (at most 100).' })
  @ApiOkResponse({ type: [QuestDocument] })
  quests(@Gpt() gpt: GptSupport, @Query() query: TargetSearchQuery) {
    return this.targets.quests(gpt, query.search);
  }

  @Get('quests/:questID')
  @ApiOperation({ summary: '{quest, questSubs, users, goals, parentQuestlines}.' })
  @ApiOkResponse({ type: QuestResponse })
  quest(@Gpt() gpt: GptSupport, @Param('questID') questID: string) {
    return this.targets.quest(gpt, questID);
  }

  @Get('quests/:questID/evaluate-for')
  @ApiOperation({ summary: '{goals, goalResults, achieved, progress (goals achieved), outOf (goals needed)}, evaluated for the user now.' })
  @ApiOkResponse({ type: QuestEvaluateForResponse })
  evaluateQuest(@Gpt() gpt: GptSupport, @Param('questID') questID: string, @Query() query: EvaluateForQuery, @Auth() auth: AuthContext) {
    return this.targets.evaluateQuestFor(gpt, questID, query.userID, auth.user);
  }

  @Get('questlines')
  @ApiOperation({
    summary:
      'QuestlineDocument[]: the questlines whose name contains search, or all of the GPT’s, by name. Under API_PROFILE=tachi: {questlines, standalone (the quests in no questline), standaloneGoals (their goals)}.',
  })
  @ApiOkResponse({
    description: 'spec: QuestlineDocument[]; API_PROFILE=tachi: {questlines, standalone, standaloneGoals}.',
    schema: { oneOf: [{ type: 'array', items: { $ref: getSchemaPath(QuestlineDocument) } }, { $ref: getSchemaPath(TachiQuestlineList) }] },
  })
  questlines(@Gpt() gpt: GptSupport, @Query() query: TargetSearchQuery) {
    return this.targets.questlines(gpt, query.search);
  }

  @Get('questlines/:questlineID')
  @ApiOperation({ summary: '{questline, quests, goals}: the quests in the questline’s order, and their goals.' })
  @ApiOkResponse({ type: QuestlineResponse })
  questline(@Gpt() gpt: GptSupport, @Param('questlineID') questlineID: string) {
    return this.targets.questline(gpt, questlineID);
  }
}
