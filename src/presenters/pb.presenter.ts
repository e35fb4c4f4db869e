import { ApiProperty } from '@nestjs/swagger';
import type { PbReadRow } from '../database/schema.js';
import type { ScoreData } from '../game-support/types.js';
import { ApiMapProperty, NULLABLE_NUMBER } from './api-schema.js';
import { definePresenter, tachiOf } from './profile.js';
import { ScoreDataDocument, TachiScoreDataDocument, toTachiScoreData } from './score.presenter.js';

export class PbRankingData {
  @ApiProperty({ type: 'integer', description: 'Place on the chart, from 1.' }) rank!: number;
  @ApiProperty({ type: 'integer', description: 'PBs on the chart.' }) outOf!: number;
}

/** Tachi's rankingData: with `rivalRank`, the place among the owner's rivals on the GPT. */
export class TachiPbRankingData extends PbRankingData {
  @ApiProperty({ type: 'integer', nullable: true, description: 'Place among the owner and their rivals on the chart, from 1; null: the owner has no rivals.' })
  rivalRank!: number | null;
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

/** Tachi's PBDocument: `highlight` for the spec's `highlighted`, Tachi's scoreData, rankingData with rivalRank. */
export class TachiPbDocument {
  @ApiProperty({ type: 'integer' }) userID!: number;
  @ApiProperty() chartID!: string;
  @ApiProperty({ type: 'integer' }) songID!: number;
  @ApiProperty() game!: string;
  @ApiProperty() playtype!: string;
  @ApiProperty() isPrimary!: boolean;
  @ApiProperty({ type: TachiScoreDataDocument }) scoreData!: TachiScoreDataDocument;
  @ApiMapProperty(NULLABLE_NUMBER, 'Score rating algorithm → rating.') calculatedData!: Record<string, number | null>;
  @ApiProperty({ type: TachiPbRankingData }) rankingData!: TachiPbRankingData;
  @ApiProperty({ type: [PbComposition] }) composedFrom!: PbComposition[];
  @ApiProperty({ type: 'integer', nullable: true, description: 'Unix ms.' }) timeAchieved!: number | null;
  @ApiProperty() highlight!: boolean;
}

export const toPbDocument = definePresenter('pb', {
  spec: (pb: PbReadRow): PbDocument => ({
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
  }),
  tachi: (pb, { highlighted, scoreData, rankingData, ...shared }): TachiPbDocument => ({
    ...shared,
    scoreData: toTachiScoreData(scoreData, pb.game, pb.playtype),
    rankingData: { ...rankingData, rivalRank: pb.rivalRank },
    highlight: highlighted,
  }),
  schemas: { spec: PbDocument, tachi: TachiPbDocument },
});

/** A PB with how many scores the user has on its chart (most-played). */
export class PlayedPbDocument extends PbDocument {
  @ApiProperty({ type: 'integer', description: "The user's scores on the chart." }) __playcount!: number;
}

export class TachiPlayedPbDocument extends TachiPbDocument {
  @ApiProperty({ type: 'integer', description: "The user's scores on the chart." }) __playcount!: number;
}

export const toPlayedPbDocument = definePresenter('playedPb', {
  spec: (pb: PbReadRow & { playcount: number }): PlayedPbDocument => ({ ...toPbDocument(pb), __playcount: pb.playcount }),
  tachi: (pb): TachiPlayedPbDocument => ({ ...tachiOf<TachiPbDocument>(toPbDocument(pb)), __playcount: pb.playcount }),
  schemas: { spec: PlayedPbDocument, tachi: TachiPlayedPbDocument },
});
