import { ApiProperty } from '@nestjs/swagger';
import { ChartDocument, SongDocument } from '../../presenters/catalog.presenter.js';
import { GameStatsDocument } from '../../presenters/game-stats.presenter.js';
import { PbDocument } from '../../presenters/pb.presenter.js';
import { ScoreDocument } from '../../presenters/score.presenter.js';
import { UserDocument } from '../../presenters/user.presenter.js';

/** Spec ClassAchievementDocument: a class raise (a first value counts as one). */
export class ClassAchievementDocument {
  @ApiProperty({ type: 'integer' }) userID!: number;
  @ApiProperty() game!: string;
  @ApiProperty() playtype!: string;
  @ApiProperty() classSet!: string;
  @ApiProperty({ type: String, nullable: true }) classOldValue!: string | null;
  @ApiProperty() classValue!: string;
  @ApiProperty({ type: 'integer', description: 'Unix ms.' }) timeAchieved!: number;
}

export class GptLeaderboardResponse {
  @ApiProperty({ type: [GameStatsDocument], description: 'Best first.' }) gameStats!: GameStatsDocument[];
  @ApiProperty({ type: [UserDocument] }) users!: UserDocument[];
}

export class ChartPbsResponse {
  @ApiProperty({ type: [PbDocument] }) pbs!: PbDocument[];
  @ApiProperty({ type: [UserDocument] }) users!: UserDocument[];
}

export class PbLeaderboardResponse {
  @ApiProperty({ type: [PbDocument], description: 'Best first.' }) pbs!: PbDocument[];
  @ApiProperty({ type: [SongDocument] }) songs!: SongDocument[];
  @ApiProperty({ type: [ChartDocument] }) charts!: ChartDocument[];
  @ApiProperty({ type: [UserDocument] }) users!: UserDocument[];
}

/** player-distribution with class: class value → players holding it (values nobody holds are absent). */
export type ClassDistribution = Record<string, number>;

/** player-distribution without class: the latest class raises. */
export class RecentClassesResponse {
  @ApiProperty({ type: [UserDocument] }) users!: UserDocument[];
  @ApiProperty({ type: [ClassAchievementDocument], description: 'Newest first.' }) classes!: ClassAchievementDocument[];
}

export class HighlightedScoresResponse {
  @ApiProperty({ type: [ScoreDocument], description: 'Most recent first.' }) scores!: ScoreDocument[];
  @ApiProperty({ type: [UserDocument] }) users!: UserDocument[];
  @ApiProperty({ type: [SongDocument] }) songs!: SongDocument[];
  @ApiProperty({ type: [ChartDocument] }) charts!: ChartDocument[];
}
