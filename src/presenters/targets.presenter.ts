import { ApiProperty } from '@nestjs/swagger';
import type { GoalRow, GoalSubRow, QuestlineRow, QuestRow, QuestSection, QuestSubRow } from '../database/schema.js';
import { definePresenter } from './profile.js';

/** Spec GoalDocument: charts is {type: single|multi|folder, data}, criteria {key, value, mode, countNum?}. */
export class GoalDocument {
  @ApiProperty() goalID!: string;
  @ApiProperty() name!: string;
  @ApiProperty() game!: string;
  @ApiProperty() playtype!: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: '{type: "single", data: chartID} | {type: "multi", data: chartID[]} | {type: "folder", data: folderID}',
  })
  charts!: GoalRow['charts'];
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: '{key: score|percent|lamp|grade, value, mode: single|absolute|proportion, countNum (not in mode single)}',
  })
  criteria!: GoalRow['criteria'];
}

export class PopularGoalDocument extends GoalDocument {
  @ApiProperty({ type: 'integer', description: 'How many users are subscribed to the goal.' }) __subscriptions!: number;
}

export class QuestGoalReference {
  @ApiProperty() goalID!: string;
  @ApiProperty({ required: false }) note?: string;
}

export class QuestSectionDocument {
  @ApiProperty() title!: string;
  @ApiProperty({ required: false }) desc?: string;
  @ApiProperty({ type: [QuestGoalReference] }) goals!: QuestGoalReference[];
}

export class QuestDocument {
  @ApiProperty() questID!: string;
  @ApiProperty() name!: string;
  @ApiProperty() desc!: string;
  @ApiProperty() game!: string;
  @ApiProperty() playtype!: string;
  @ApiProperty({ type: [QuestSectionDocument] }) questData!: QuestSection[];
}

export class QuestlineDocument {
  @ApiProperty() questlineID!: string;
  @ApiProperty() name!: string;
  @ApiProperty() desc!: string;
  @ApiProperty() game!: string;
  @ApiProperty() playtype!: string;
  @ApiProperty({ type: [String], description: 'questIDs, in order.' }) quests!: string[];
}

export class GoalSubDocument {
  @ApiProperty({ type: 'integer' }) userID!: number;
  @ApiProperty() goalID!: string;
  @ApiProperty() game!: string;
  @ApiProperty() playtype!: string;
  @ApiProperty() achieved!: boolean;
  @ApiProperty({ type: 'integer', nullable: true, description: 'Unix ms; null while not achieved.' }) timeAchieved!: number | null;
  @ApiProperty({ type: 'integer', nullable: true, description: 'Unix ms of the last change of progress or outOf; null since subscribing.' })
  lastInteraction!: number | null;
  @ApiProperty({ type: Number, nullable: true }) progress!: number | null;
  @ApiProperty() progressHuman!: string;
  @ApiProperty() outOf!: number;
  @ApiProperty() outOfHuman!: string;
  @ApiProperty() wasInstantlyAchieved!: boolean;
  @ApiProperty({ description: 'Subscribed directly, not (only) through a quest.' }) wasAssignedStandalone!: boolean;
}

export class QuestSubDocument {
  @ApiProperty({ type: 'integer' }) userID!: number;
  @ApiProperty() questID!: string;
  @ApiProperty() game!: string;
  @ApiProperty() playtype!: string;
  @ApiProperty() achieved!: boolean;
  @ApiProperty({ type: 'integer', nullable: true }) timeAchieved!: number | null;
  @ApiProperty({ type: 'integer', nullable: true }) lastInteraction!: number | null;
  @ApiProperty({ type: 'integer', description: 'Goals of the quest achieved.' }) progress!: number;
  @ApiProperty() wasInstantlyAchieved!: boolean;
}

/** Spec EvaluatedGoalResult. */
export class EvaluatedGoalResult {
  @ApiProperty() goalID!: string;
  @ApiProperty() achieved!: boolean;
  @ApiProperty({ type: Number, nullable: true, description: 'null when the user has no data on the goal’s charts.' }) progress!: number | null;
  @ApiProperty() outOf!: number;
  @ApiProperty() progressHuman!: string;
  @ApiProperty() outOfHuman!: string;
}

export function toGoalDocument(g: GoalRow): GoalDocument {
  return { goalID: g.goalID, name: g.name, game: g.game, playtype: g.playtype, charts: g.charts, criteria: g.criteria };
}

export function toQuestDocument(q: QuestRow): QuestDocument {
  return { questID: q.questID, name: q.name, desc: q.desc, game: q.game, playtype: q.playtype, questData: q.questData };
}

export function toQuestlineDocument(q: QuestlineRow): QuestlineDocument {
  return { questlineID: q.questlineID, name: q.name, desc: q.desc, game: q.game, playtype: q.playtype, quests: q.quests };
}

export function toGoalSubDocument(s: GoalSubRow): GoalSubDocument {
  return {
    userID: s.userID,
    goalID: s.goalID,
    game: s.game,
    playtype: s.playtype,
    achieved: s.achieved,
    timeAchieved: s.timeAchieved,
    lastInteraction: s.lastInteraction,
    progress: s.progress,
    progressHuman: s.progressHuman,
    outOf: s.outOf,
    outOfHuman: s.outOfHuman,
    wasInstantlyAchieved: s.wasInstantlyAchieved,
    wasAssignedStandalone: s.wasAssignedStandalone,
  };
}

export function toQuestSubDocument(s: QuestSubRow): QuestSubDocument {
  return {
    userID: s.userID,
    questID: s.questID,
    game: s.game,
    playtype: s.playtype,
    achieved: s.achieved,
    timeAchieved: s.timeAchieved,
    lastInteraction: s.lastInteraction,
    progress: s.progress,
    wasInstantlyAchieved: s.wasInstantlyAchieved,
  };
}

/** A goal sub's stored evaluation as an EvaluatedGoalResult. */
export function goalSubResult(s: GoalSubRow): EvaluatedGoalResult {
  return { goalID: s.goalID, achieved: s.achieved, progress: s.progress, outOf: s.outOf, progressHuman: s.progressHuman, outOfHuman: s.outOfHuman };
}

/** Tachi's answer to GET /games/:game/:playtype/targets/questlines. */
export class TachiQuestlineList {
  @ApiProperty({ type: [QuestlineDocument] }) questlines!: QuestlineDocument[];
  @ApiProperty({ type: [QuestDocument], description: 'The quests in no questline.' }) standalone!: QuestDocument[];
  @ApiProperty({ type: [GoalDocument], description: 'The goals of the standalone quests.' }) standaloneGoals!: GoalDocument[];
}

/**
 * The questlines list: the spec's QuestlineDocument[]; under tachi, Tachi's
 * {questlines, standalone, standaloneGoals} (the quests in no questline and their goals).
 */
export const toQuestlineList = definePresenter('questlineList', {
  spec: (s: { questlines: QuestlineRow[]; standalone: QuestRow[]; standaloneGoals: GoalRow[] }): QuestlineDocument[] => s.questlines.map(toQuestlineDocument),
  // not `spec` itself: that array is this presenter's document, which would be presented again
  tachi: (s): TachiQuestlineList => ({
    questlines: s.questlines.map(toQuestlineDocument),
    standalone: s.standalone.map(toQuestDocument),
    standaloneGoals: s.standaloneGoals.map(toGoalDocument),
  }),
});

/** POST …/targets/goals/format's answer in the spec profile. */
export class GoalNameDocument {
  @ApiProperty({ description: 'The goal’s name, as the goal would be named if created.' }) name!: string;
}

/** A formatted goal name: {name}; under tachi the bare string, as Tachi answers. */
export const toGoalNameDocument = definePresenter('goalName', {
  spec: (name: string): GoalNameDocument => ({ name }),
  tachi: (name: string): string => name,
});
