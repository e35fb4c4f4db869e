import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsString, Length } from 'class-validator';
import { OptionalNotNull } from '../../common/validation/validators.js';
import { SearchTextOrEmpty } from '../../http/query-params.js';
import { ChartDocument, FolderDocument, SongDocument, TableDocument } from '../../presenters/catalog.presenter.js';
import { FolderStatsDocument, RecentFolderViewDocument } from '../../presenters/folder-stats.presenter.js';
import { PbDocument } from '../../presenters/pb.presenter.js';
import { ScoreDocument } from '../../presenters/score.presenter.js';

export const TIMELINE_CRITERIA = ['lamp', 'grade'] as const;

export class UgptFolderSearchQuery {
  @SearchTextOrEmpty('Text to find in folder titles and search terms.')
  search!: string;

  @ApiPropertyOptional({ description: 'Presence parameter: include folders superseded by newer versions.' })
  @OptionalNotNull()
  @IsString()
  inactive?: string;
}

export class FolderTimelineQuery {
  @ApiProperty({ enum: TIMELINE_CRITERIA, description: 'Which enum metric the criterion is on.' })
  @IsIn(TIMELINE_CRITERIA)
  criteriaType!: (typeof TIMELINE_CRITERIA)[number];

  @ApiProperty({ description: "A lamp or grade of the GPT, by name (`HARD CLEAR`) or by its index in the GPT's order (`5`)." })
  @IsString()
  @Length(1, 100)
  criteriaValue!: string;
}

export class FolderSearchWithStatsResponse {
  @ApiProperty({ type: [FolderDocument] }) folders!: FolderDocument[];
  @ApiProperty({ type: [FolderStatsDocument], description: "The player's distributions on each folder." }) stats!: FolderStatsDocument[];
}

export class RecentFoldersResponse {
  @ApiProperty({ type: [RecentFolderViewDocument], description: 'Newest first.' }) views!: RecentFolderViewDocument[];
  @ApiProperty({ type: [FolderDocument] }) folders!: FolderDocument[];
  @ApiProperty({ type: [FolderStatsDocument] }) stats!: FolderStatsDocument[];
}

export class UgptFolderResponse {
  @ApiProperty({ type: [SongDocument] }) songs!: SongDocument[];
  @ApiProperty({ type: [ChartDocument], description: 'Every chart of the folder.' }) charts!: ChartDocument[];
  @ApiProperty({ type: [PbDocument], description: "The player's PBs on them." }) pbs!: PbDocument[];
  @ApiProperty({ type: FolderDocument }) folder!: FolderDocument;
  @ApiProperty({ type: FolderStatsDocument }) stats!: FolderStatsDocument;
}

export class FolderTimelineResponse {
  @ApiProperty({ type: [SongDocument] }) songs!: SongDocument[];
  @ApiProperty({ type: [ChartDocument] }) charts!: ChartDocument[];
  @ApiProperty({ type: [ScoreDocument], description: 'On each chart, the first score reaching the criterion, earliest first (scores without a time last).' })
  scores!: ScoreDocument[];
  @ApiProperty({ type: FolderDocument }) folder!: FolderDocument;
}

export class UgptTableResponse {
  @ApiProperty({ type: [FolderDocument], description: 'In table order.' }) folders!: FolderDocument[];
  @ApiProperty({ type: [FolderStatsDocument] }) stats!: FolderStatsDocument[];
  @ApiProperty({ type: TableDocument }) table!: TableDocument;
}
