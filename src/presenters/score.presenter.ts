import { ApiProperty } from '@nestjs/swagger';
import type { scores } from '../database/schema.js';
import type { ScoreData } from '../game-support/types.js';
import { ApiMapProperty, NULLABLE_NUMBER } from './api-schema.js';

export type ScoreRecord = typeof scores.$inferSelect;

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

export function toScoreDocument(s: ScoreRecord): ScoreDocument {
  return {
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
  };
}
