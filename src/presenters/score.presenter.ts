import { ApiProperty } from '@nestjs/swagger';
import type { ScoreRow } from '../database/schema.js';
import { toHeadScoreData } from '../game-support/common/head-names.js';
import { findGpt } from '../game-support/registry.js';
import type { ScoreData } from '../game-support/types.js';
import { ApiMapProperty, NULLABLE_NUMBER } from './api-schema.js';
import { definePresenter } from './profile.js';

/** scoreData of a score or PB: the generic fields; `optional` holds the game's optional metrics. */
export class ScoreDataDocument {
  @ApiProperty() score!: number;
  @ApiProperty() percent!: number;
  @ApiProperty() lamp!: string;
  @ApiProperty({ type: 'integer', description: "Index of the lamp in the GPT's lamps." }) lampIndex!: number;
  @ApiProperty() grade!: string;
  @ApiProperty({ type: 'integer', description: "Index of the grade in the GPT's grades." }) gradeIndex!: number;
  @ApiMapProperty(NULLABLE_NUMBER, 'Judgement name → count.') judgements!: ScoreData['judgements'];
  @ApiMapProperty(true, "The game's optional metrics.") optional!: ScoreData['optional'];
}

/**
 * Tachi's (HEAD) enum indexes of a scoreData: its lamp's and grade's places in the GPT's lists, and those of HEAD's own
 * enum metrics where the GPT has them (CHUNITHM noteLamp and clearLamp, ONGEKI noteLamp and bellLamp, pop'n clearMedal).
 */
export class EnumIndexesDocument {
  @ApiProperty({ type: 'integer' }) lamp!: number;
  @ApiProperty({ type: 'integer' }) grade!: number;
  [metric: string]: number;
}

/**
 * Tachi's (HEAD) scoreData: `enumIndexes` for the spec's lampIndex and gradeIndex, and today's Tachi names of the
 * GPT's metrics beside the older ones, for clients written before and after HEAD renamed them: CHUNITHM noteLamp and
 * clearLamp, ONGEKI noteLamp, bellLamp and platinumScore, pop'n clearMedal, jubeat musicRate, ITG scorePercent,
 * survivedPercent and finalPercent (src/game-support/<game>/head-names.ts).
 */
export class TachiScoreDataDocument {
  @ApiProperty() score!: number;
  @ApiProperty() percent!: number;
  @ApiProperty() lamp!: string;
  @ApiProperty() grade!: string;
  @ApiMapProperty(NULLABLE_NUMBER, 'Judgement name → count.') judgements!: ScoreData['judgements'];
  @ApiMapProperty(true, "The game's optional metrics.") optional!: ScoreData['optional'];
  @ApiProperty({ type: EnumIndexesDocument }) enumIndexes!: EnumIndexesDocument;
  [headMetric: string]: unknown;
}

/** A scoreData of this game and playtype in Tachi's (HEAD) shape. */
export function toTachiScoreData(scoreData: ScoreData, game: string, playtype: string): TachiScoreDataDocument {
  const { score, percent, lamp, grade, judgements, optional, lampIndex, gradeIndex } = scoreData;
  const gpt = findGpt(game, playtype);
  const head = gpt ? toHeadScoreData(gpt, scoreData) : { metrics: {}, enumIndexes: { lamp: lampIndex, grade: gradeIndex } };
  return { ...head.metrics, score, percent, lamp, grade, judgements, optional, enumIndexes: head.enumIndexes as EnumIndexesDocument };
}

/** Spec ScoreDocument, with the import's provenance and the judgements also at the top level. */
export class ScoreDocument {
  @ApiProperty() scoreID!: string;
  @ApiProperty({ type: 'integer' }) userID!: number;
  @ApiProperty() game!: string;
  @ApiProperty() playtype!: string;
  @ApiProperty({ type: 'integer' }) songID!: number;
  @ApiProperty() chartID!: string;
  @ApiProperty() isPrimary!: boolean;
  @ApiProperty({ type: ScoreDataDocument }) scoreData!: ScoreData;
  @ApiMapProperty(NULLABLE_NUMBER, 'Judgement name → count (scoreData.judgements).') judgements!: ScoreData['judgements'];
  @ApiMapProperty(NULLABLE_NUMBER, 'Score rating algorithm → rating.') calculatedData!: Record<string, number | null>;
  @ApiMapProperty(true, 'Game-specific score meta.') scoreMeta!: Record<string, unknown>;
  @ApiProperty({ type: 'integer', nullable: true, description: 'Unix ms; null when the import gave no time.' }) timeAchieved!: number | null;
  @ApiProperty({ type: 'integer', description: 'Unix ms.' }) timeAdded!: number;
  @ApiProperty() service!: string;
  @ApiProperty() importType!: string;
  @ApiProperty({ type: String, nullable: true }) importID!: string | null;
  @ApiProperty({ type: String, nullable: true }) comment!: string | null;
  @ApiProperty() highlighted!: boolean;
}

/** Tachi's ScoreDocument: `highlight` for the spec's `highlighted`, Tachi's scoreData; no top-level `judgements` (they are in scoreData). */
export class TachiScoreDocument {
  @ApiProperty() scoreID!: string;
  @ApiProperty({ type: 'integer' }) userID!: number;
  @ApiProperty() game!: string;
  @ApiProperty() playtype!: string;
  @ApiProperty({ type: 'integer' }) songID!: number;
  @ApiProperty() chartID!: string;
  @ApiProperty() isPrimary!: boolean;
  @ApiProperty({ type: TachiScoreDataDocument }) scoreData!: TachiScoreDataDocument;
  @ApiMapProperty(NULLABLE_NUMBER, 'Score rating algorithm → rating.') calculatedData!: Record<string, number | null>;
  @ApiMapProperty(true, 'Game-specific score meta.') scoreMeta!: Record<string, unknown>;
  @ApiProperty({ type: 'integer', nullable: true, description: 'Unix ms; null when the import gave no time.' }) timeAchieved!: number | null;
  @ApiProperty({ type: 'integer', description: 'Unix ms.' }) timeAdded!: number;
  @ApiProperty() service!: string;
  @ApiProperty() importType!: string;
  @ApiProperty({ type: String, nullable: true }) importID!: string | null;
  @ApiProperty({ type: String, nullable: true }) comment!: string | null;
  @ApiProperty() highlight!: boolean;
}

export const toScoreDocument = definePresenter('score', {
  spec: (s: ScoreRow): ScoreDocument => ({
    scoreID: s.scoreID,
    userID: s.userID,
    game: s.game,
    playtype: s.playtype,
    songID: s.songID,
    chartID: s.chartID,
    isPrimary: s.isPrimary,
    scoreData: s.scoreData,
    judgements: s.scoreData.judgements,
    calculatedData: s.calculatedData,
    scoreMeta: s.scoreMeta,
    timeAchieved: s.timeAchieved,
    timeAdded: s.timeAdded,
    service: s.service,
    importType: s.importType,
    importID: s.importID,
    comment: s.comment,
    highlighted: s.highlighted,
  }),
  tachi: (_s, { judgements: _judgements, highlighted, scoreData, ...shared }): TachiScoreDocument => ({
    ...shared,
    scoreData: toTachiScoreData(scoreData, shared.game, shared.playtype),
    highlight: highlighted,
  }),
  schemas: { spec: ScoreDocument, tachi: TachiScoreDocument },
});
