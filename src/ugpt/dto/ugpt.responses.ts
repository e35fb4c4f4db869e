import { ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import type { StatDocument } from '../../database/schema.js';
import { ChartDocument, FolderDocument, SongDocument } from '../../presenters/catalog.presenter.js';
import { GameStatsDocument, RankingDocument } from '../../presenters/game-stats.presenter.js';
import { UserDocument } from '../../presenters/user.presenter.js';

import { STAT_SCHEMA } from '../../presenters/ugpt-settings.presenter.js';

export { STAT_SCHEMA, UgptSettingsDocument } from '../../presenters/ugpt-settings.presenter.js';

/** A stat's result: a chart stat's value (null when never played), or a folder stat's count of charts reaching gte out of the folder's charts. */
export class StatResultDocument {
  @ApiProperty({ type: 'number', nullable: true }) value!: number | null;
  @ApiPropertyOptional({ type: 'integer', description: 'Folder stats: the charts in the folder.' }) outOf?: number;
}

export class ChartStatRelated {
  @ApiProperty({ type: SongDocument }) song!: SongDocument;
  @ApiProperty({ type: ChartDocument }) chart!: ChartDocument;
}

export class FolderStatRelated {
  @ApiProperty({ type: [FolderDocument] }) folders!: FolderDocument[];
}

const RELATED = { oneOf: [{ $ref: getSchemaPath(ChartStatRelated) }, { $ref: getSchemaPath(FolderStatRelated) }] };

/** Spec StatShowcaseResults item. */
export class StatShowcaseResult {
  @ApiProperty({ oneOf: STAT_SCHEMA.oneOf, description: STAT_SCHEMA.description }) stat!: StatDocument;
  @ApiProperty({ type: StatResultDocument }) value!: StatResultDocument;
  @ApiProperty(RELATED) related!: ChartStatRelated | FolderStatRelated;
}

export class CustomStatResponse {
  @ApiProperty({ oneOf: STAT_SCHEMA.oneOf, description: STAT_SCHEMA.description }) stat!: StatDocument;
  @ApiProperty({ type: StatResultDocument }) result!: StatResultDocument;
  @ApiProperty(RELATED) related!: ChartStatRelated | FolderStatRelated;
}

export class LeaderboardAdjacentResponse {
  @ApiProperty({ type: [GameStatsDocument], description: 'Up to 5 players strictly better, best first.' }) above!: GameStatsDocument[];
  @ApiProperty({ type: [GameStatsDocument], description: 'Up to 5 players rated the same or worse, best first.' }) below!: GameStatsDocument[];
  @ApiProperty({ type: [UserDocument] }) users!: UserDocument[];
  @ApiProperty({ type: GameStatsDocument }) thisUsersStats!: GameStatsDocument;
  @ApiProperty({ type: RankingDocument }) thisUsersRanking!: RankingDocument;
}
