import { ApiProperty } from '@nestjs/swagger';
import { UserDocument } from '../../presenters/user.presenter.js';
import { EvaluatedGoalResult, GoalDocument, GoalSubDocument, QuestDocument, QuestlineDocument, QuestSubDocument } from '../../presenters/targets.presenter.js';

export class TargetSubsResponse {
  @ApiProperty({ type: [GoalDocument], description: 'The goals of goalSubs, each once.' }) goals!: GoalDocument[];
  @ApiProperty({ type: [QuestDocument], description: 'The quests of questSubs, each once.' }) quests!: QuestDocument[];
  @ApiProperty({ type: [GoalSubDocument] }) goalSubs!: GoalSubDocument[];
  @ApiProperty({ type: [QuestSubDocument] }) questSubs!: QuestSubDocument[];
}

export class UserTargetSubsResponse extends TargetSubsResponse {
  @ApiProperty({ type: [QuestDocument], description: 'The same as quests (the spec names it quest).' }) quest!: QuestDocument[];
  @ApiProperty({ type: UserDocument }) user!: UserDocument;
}

export class UserGoalsResponse extends TargetSubsResponse {
  @ApiProperty({ type: UserDocument }) user!: UserDocument;
}

export class GoalResponse {
  @ApiProperty({ type: GoalDocument }) goal!: GoalDocument;
  @ApiProperty({ type: [GoalSubDocument], description: 'Every user’s subscription to the goal.' }) goalSubs!: GoalSubDocument[];
  @ApiProperty({ type: [UserDocument] }) users!: UserDocument[];
  @ApiProperty({ type: [QuestDocument], description: 'The quests holding the goal.' }) parentQuests!: QuestDocument[];
}

export class GoalEvaluation {
  @ApiProperty() achieved!: boolean;
  @ApiProperty({ type: Number, nullable: true }) progress!: number | null;
  @ApiProperty() progressHuman!: string;
  @ApiProperty() outOf!: number;
  @ApiProperty() outOfHuman!: string;
}

export class GoalEvaluateForResponse {
  @ApiProperty({ type: GoalDocument }) goal!: GoalDocument;
  @ApiProperty({ type: UserDocument }) user!: UserDocument;
  @ApiProperty({ type: GoalEvaluation, description: 'The evaluation (the spec’s key).' }) results!: GoalEvaluation;
  @ApiProperty({ type: GoalEvaluation, description: 'The same evaluation, under the key of the spec’s sample and Tachi.' }) result!: GoalEvaluation;
}

export class QuestResponse {
  @ApiProperty({ type: QuestDocument }) quest!: QuestDocument;
  @ApiProperty({ type: [QuestSubDocument] }) questSubs!: QuestSubDocument[];
  @ApiProperty({ type: [UserDocument] }) users!: UserDocument[];
  @ApiProperty({ type: [GoalDocument] }) goals!: GoalDocument[];
  @ApiProperty({ type: [QuestlineDocument] }) parentQuestlines!: QuestlineDocument[];
}

export class QuestEvaluateForResponse {
  @ApiProperty({ type: [GoalDocument] }) goals!: GoalDocument[];
  @ApiProperty({ type: [EvaluatedGoalResult] }) goalResults!: EvaluatedGoalResult[];
  @ApiProperty() achieved!: boolean;
  @ApiProperty({ type: 'integer', description: 'Goals achieved.' }) progress!: number;
  @ApiProperty({ type: 'integer', description: 'Goals needed: every goal of the quest.' }) outOf!: number;
}

export class QuestlineResponse {
  @ApiProperty({ type: QuestlineDocument }) questline!: QuestlineDocument;
  @ApiProperty({ type: [QuestDocument], description: 'In the questline’s order.' }) quests!: QuestDocument[];
  @ApiProperty({ type: [GoalDocument], description: 'The goals of the quests, each once.' }) goals!: GoalDocument[];
}

export class UserQuestsResponse {
  @ApiProperty({ type: [QuestDocument] }) quests!: QuestDocument[];
  @ApiProperty({ type: [QuestSubDocument] }) questSubs!: QuestSubDocument[];
  @ApiProperty({ type: [GoalDocument], description: 'The goals of the quests, each once.' }) goals!: GoalDocument[];
}

export class UserQuestResponse {
  @ApiProperty({ type: QuestSubDocument }) questSub!: QuestSubDocument;
  @ApiProperty({ type: QuestDocument }) quest!: QuestDocument;
  @ApiProperty({ type: [GoalDocument] }) goals!: GoalDocument[];
  @ApiProperty({ type: [EvaluatedGoalResult] }) results!: EvaluatedGoalResult[];
}

export class QuestSubscribeResponse {
  @ApiProperty({ type: [GoalDocument] }) goals!: GoalDocument[];
  @ApiProperty({ type: QuestDocument }) quest!: QuestDocument;
  @ApiProperty({ type: [EvaluatedGoalResult] }) goalResults!: EvaluatedGoalResult[];
  @ApiProperty({ type: QuestSubDocument }) questSub!: QuestSubDocument;
}

export class QuestOnlyResponse {
  @ApiProperty({ type: QuestDocument }) quest!: QuestDocument;
}

export class UserGoalResponse {
  @ApiProperty({ type: GoalSubDocument }) goalSub!: GoalSubDocument;
  @ApiProperty({ type: GoalDocument }) goal!: GoalDocument;
  @ApiProperty({ type: EvaluatedGoalResult, description: 'The goal evaluated now.' }) result!: EvaluatedGoalResult;
  @ApiProperty({ type: [QuestDocument], description: 'The quests holding the goal.' }) quests!: QuestDocument[];
  @ApiProperty({ type: UserDocument }) user!: UserDocument;
}

export class GoalSubscribeResponse {
  @ApiProperty({ type: GoalDocument }) goal!: GoalDocument;
  @ApiProperty({ type: GoalSubDocument }) goalSub!: GoalSubDocument;
}

export class GoalOnlyResponse {
  @ApiProperty({ type: GoalDocument }) goal!: GoalDocument;
}
