import { ApiProperty } from '@nestjs/swagger';
import type { personalBests } from '../database/schema.js';
import type { ScoreData } from '../game-support/types.js';
import { ApiMapProperty, NULLABLE_NUMBER } from './api-schema.js';
import { ScoreDataDocument } from './score.presenter.js';

export type PbRecord = typeof personalBests.$inferSelect;

export class PbRankingData {
  @ApiProperty({ type: 'integer', description: 'Place on the chart, from 1.' }) rank!: number;
  @ApiProperty({ type: 'integer', description: 'PBs on the chart.' }) outOf!: number;
}

/** A play the PB took a part from. */
export class PbComposition {
  @ApiProperty({ description: "What was taken, e.g. 'Best Score' or 'Best Lamp'." }) name!: string;
  @ApiProperty() scoreID!: string;
}

/** Spec PBDocument, with rankingData {rank, outOf} and how the PB was composed. */
export class PbDocument {
  @ApiProperty({ type: 'integer' }) userID!: number;
  @ApiProperty() chartID!: string;
  @ApiProperty({ type: 'integer' }) songID!: number;
  @ApiProperty() game!: string;
  @ApiProperty() playtype!: string;
  @ApiProperty() isPrimary!: boolean;
  @ApiProperty({ type: ScoreDataDocument }) scoreData!: ScoreData;
  @ApiMapProperty(NULLABLE_NUMBER, 'Score rating algorithm → rating.') calculatedData!: Record<string, number | null>;
  @ApiProperty({ type: PbRankingData }) rankingData!: PbRankingData;
  @ApiProperty({ type: [PbComposition] }) composedFrom!: PbComposition[];
  @ApiProperty({ type: 'integer', nullable: true, description: 'Unix ms.' }) timeAchieved!: number | null;
  @ApiProperty() highlighted!: boolean;
}

export function toPbDocument(pb: PbRecord): PbDocument {
  return {
    userID: pb.userID,
    chartID: pb.chartID,
    songID: pb.songID,
    game: pb.game,
    playtype: pb.playtype,
    isPrimary: pb.isPrimary,
    scoreData: pb.scoreData,
    calculatedData: pb.calculatedData,
    rankingData: { rank: pb.rank, outOf: pb.outOf },
    composedFrom: pb.composedFrom,
    timeAchieved: pb.timeAchieved,
    highlighted: pb.highlighted,
  };
}
