import { ApiProperty } from '@nestjs/swagger';
import type { GameStatsRow, GameStatsSnapshotRow } from '../database/schema.js';
import { ApiMapProperty, NULLABLE_NUMBER, RANKING } from './api-schema.js';
import { definePresenter } from './profile.js';

/** Spec UserGameStatsDocument. */
export class GameStatsDocument {
  @ApiProperty({ type: 'integer' }) userID!: number;
  @ApiProperty() game!: string;
  @ApiProperty() playtype!: string;
  @ApiMapProperty(NULLABLE_NUMBER, 'Profile rating algorithm → rating.') ratings!: Record<string, number | null>;
  @ApiMapProperty({ type: 'string' }, 'Class set → class value id.') classes!: Record<string, string>;
}

export function toGameStatsDocument(s: GameStatsRow): GameStatsDocument {
  return { userID: s.userID, game: s.game, playtype: s.playtype, ratings: s.ratings, classes: s.classes };
}

/** A player's place under one profile rating algorithm: 1 + the players strictly better, out of every player of the GPT. */
export class RankingDocument {
  @ApiProperty({ type: 'integer' }) ranking!: number;
  @ApiProperty({ type: 'integer' }) outOf!: number;
}

/** Spec UserGameStatsSnapshot: the profile as it stood at a UTC midnight. */
export class GameStatsSnapshotDocument {
  @ApiMapProperty({ type: 'string' }, 'Class set → class value id.') classes!: Record<string, string>;
  @ApiMapProperty(NULLABLE_NUMBER, 'Profile rating algorithm → rating.') ratings!: Record<string, number | null>;
  @ApiProperty({ type: 'integer', description: 'Unix ms of the UTC midnight.' }) timestamp!: number;
  @ApiProperty({ type: 'integer', description: 'Scores on the GPT.' }) playcount!: number;
  @ApiProperty({ type: 'integer', description: "Place under the GPT's default profile rating algorithm." }) ranking!: number;
}

/** Tachi's UserGameStatsSnapshot: whose it is, and the place under every profile rating algorithm (`rankings`). */
export class TachiGameStatsSnapshotDocument {
  @ApiProperty({ type: 'integer' }) userID!: number;
  @ApiProperty() game!: string;
  @ApiProperty() playtype!: string;
  @ApiMapProperty({ type: 'string' }, 'Class set → class value id.') classes!: Record<string, string>;
  @ApiMapProperty(NULLABLE_NUMBER, 'Profile rating algorithm → rating.') ratings!: Record<string, number | null>;
  @ApiProperty({ type: 'integer', description: 'Unix ms of the UTC midnight.' }) timestamp!: number;
  @ApiProperty({ type: 'integer', description: 'Scores on the GPT.' }) playcount!: number;
  @ApiMapProperty(RANKING, 'Profile rating algorithm → {ranking, outOf}.') rankings!: Record<string, RankingDocument>;
}

export const toGameStatsSnapshotDocument = definePresenter('gameStatsSnapshot', {
  spec: (s: GameStatsSnapshotRow): GameStatsSnapshotDocument => ({
    classes: s.classes,
    ratings: s.ratings,
    timestamp: s.timestamp,
    playcount: s.playcount,
    ranking: s.ranking,
  }),
  tachi: (s): TachiGameStatsSnapshotDocument => ({
    userID: s.userID,
    game: s.game,
    playtype: s.playtype,
    classes: s.classes,
    ratings: s.ratings,
    timestamp: s.timestamp,
    playcount: s.playcount,
    rankings: s.rankings,
  }),
  schemas: { spec: GameStatsSnapshotDocument, tachi: TachiGameStatsSnapshotDocument },
});

/** A profile's history: the stored daily snapshots (newest first) and the profile as it is now. */
export interface GameStatsHistorySource {
  live: GameStatsSnapshotRow;
  stored: readonly GameStatsSnapshotRow[];
}

/**
 * GET UGPT/history. spec: the stored daily snapshots, newest first (the spec's list). tachi: as
 * Tachi, the profile as it is now (timestamp: the time of the request) first, then the stored ones.
 */
export const toGameStatsHistory = definePresenter('gameStatsHistory', {
  spec: ({ stored }: GameStatsHistorySource): GameStatsSnapshotDocument[] => stored.map(toGameStatsSnapshotDocument),
  tachi: ({ live }, spec): GameStatsSnapshotDocument[] => [toGameStatsSnapshotDocument(live), ...spec],
});
