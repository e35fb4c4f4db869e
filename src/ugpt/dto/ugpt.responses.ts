import { ApiProperty, ApiPropertyOptional, getSchemaPath, type SchemaObject } from '@nestjs/swagger';
import type { StatDocument } from '../../database/schema.js';
import { ChartDocument, FolderDocument, SongDocument } from '../../presenters/catalog.presenter.js';
import { GameStatsDocument, RankingDocument } from '../../presenters/game-stats.presenter.js';
import { UserDocument } from '../../presenters/user.presenter.js';
import { CHART_STAT_PROPERTIES, FOLDER_STAT_PROPERTIES } from '../showcase-stats.js';

/** Spec StatDocument: a chart stat or a folder stat. */
const STAT_VARIANTS: SchemaObject[] = [
  {
    type: 'object',
    required: ['mode', 'chartID', 'property'],
    properties: { mode: { enum: ['chart'] }, chartID: { type: 'string' }, property: { enum: [...CHART_STAT_PROPERTIES] } },
  },
  {
    type: 'object',
    required: ['mode', 'folderID', 'property', 'gte'],
    properties: {
      mode: { enum: ['folder'] },
      folderID: { type: 'string' },
      property: { enum: [...FOLDER_STAT_PROPERTIES] },
      gte: { type: 'number' },
    },
  },
];

export const STAT_SCHEMA: SchemaObject = { oneOf: STAT_VARIANTS };

/** Spec UGPTSettingsDocument. */
export class UgptSettingsDocument {
  @ApiProperty({ type: String, nullable: true }) preferredScoreAlg!: string | null;
  @ApiProperty({ type: String, nullable: true }) preferredSessionAlg!: string | null;
  @ApiProperty({ type: String, nullable: true }) preferredProfileAlg!: string | null;
  @ApiProperty({ type: 'array', items: STAT_SCHEMA, description: 'The stat showcase.' }) stats!: StatDocument[];
}

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
  @ApiProperty({ oneOf: STAT_VARIANTS }) stat!: StatDocument;
  @ApiProperty({ type: StatResultDocument }) value!: StatResultDocument;
  @ApiProperty(RELATED) related!: ChartStatRelated | FolderStatRelated;
}

export class CustomStatResponse {
  @ApiProperty({ oneOf: STAT_VARIANTS }) stat!: StatDocument;
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
