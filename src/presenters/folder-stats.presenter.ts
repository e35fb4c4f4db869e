import { ApiProperty } from '@nestjs/swagger';
import type { RecentFolderViewRow } from '../database/schema.js';
import { ApiMapProperty } from './api-schema.js';
import { definePresenter } from './profile.js';

/** What a folder's stats are built from (ugpt/folder-stats.ts counts them). */
export interface FolderStatsSource {
  folderID: string;
  chartCount: number;
  /** Lamp → how many of the player's PBs in the folder have it, every lamp of the GPT in its order. */
  lamps: Record<string, number>;
  /** Grade → how many of the player's PBs in the folder have it, every grade of the GPT in its order. */
  grades: Record<string, number>;
}

/** A player's lamp and grade distributions on a folder. */
export class FolderStatsDocument {
  @ApiProperty() folderID!: string;
  @ApiProperty({ type: 'integer', description: "The folder's charts." }) chartCount!: number;
  @ApiMapProperty({ type: 'integer' }, "Lamp → the player's PBs in the folder with that lamp (every lamp of the GPT, in its order).") lamps!: Record<
    string,
    number
  >;
  @ApiMapProperty({ type: 'integer' }, "Grade → the player's PBs in the folder with that grade (every grade of the GPT, in its order).") grades!: Record<
    string,
    number
  >;
}

/** Tachi's FolderStatsInfo: the distributions under `stats`, keyed by the enum metric (`lamp`, `grade`). */
export class TachiFolderStatsDocument {
  @ApiProperty() folderID!: string;
  @ApiProperty({ type: 'integer' }) chartCount!: number;
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'object', additionalProperties: { type: 'integer' } },
    description: 'Enum metric (lamp, grade) → value → count.',
  })
  stats!: Record<string, Record<string, number>>;
}

export const toFolderStatsDocument = definePresenter('folderStats', {
  spec: (s: FolderStatsSource): FolderStatsDocument => ({ folderID: s.folderID, chartCount: s.chartCount, lamps: s.lamps, grades: s.grades }),
  tachi: (s): TachiFolderStatsDocument => ({ folderID: s.folderID, chartCount: s.chartCount, stats: { lamp: s.lamps, grade: s.grades } }),
  schemas: { spec: FolderStatsDocument, tachi: TachiFolderStatsDocument },
});

/** A folder the player viewed, and when last (Tachi's RecentlyViewedFolderDocument; the same in both profiles). */
export class RecentFolderViewDocument {
  @ApiProperty({ type: 'integer' }) userID!: number;
  @ApiProperty() game!: string;
  @ApiProperty() playtype!: string;
  @ApiProperty() folderID!: string;
  @ApiProperty({ type: 'integer', description: 'Unix ms.' }) lastViewed!: number;
}

export function toRecentFolderViewDocument(v: RecentFolderViewRow): RecentFolderViewDocument {
  return { userID: v.userID, game: v.game, playtype: v.playtype, folderID: v.folderID, lastViewed: v.lastViewed };
}
