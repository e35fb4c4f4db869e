import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ChartDocument, SongDocument } from '../../presenters/catalog.presenter.js';
import { ImportDocument } from '../../presenters/import.presenter.js';
import { ScoreDocument } from '../../presenters/score.presenter.js';
import { SessionDocument } from '../../presenters/session.presenter.js';
import { UserDocument } from '../../presenters/user.presenter.js';

/** 202: the import waits in the queue; poll `url`. */
export class QueuedImportResponse {
  @ApiProperty({ description: 'The poll-status URL.' }) url!: string;
  @ApiProperty() importID!: string;
}

/** One import type of a user's recent imports, and how many of them. */
export class RecentImportTypeDocument {
  @ApiProperty({ description: 'The import type (file/batch-manual, ir/direct-manual, …).' }) importType!: string;
  @ApiProperty({ type: 'integer', description: 'Completed imports of this type in the window.' }) count!: number;
}

export class OrphanRetryResponse {
  @ApiProperty({ type: 'integer', description: 'Orphans attempted.' }) processed!: number;
  @ApiProperty({ type: 'integer', description: 'Still unmatched: kept as orphans.' }) failed!: number;
  @ApiProperty({ type: 'integer', description: 'Matched and saved as scores.' }) success!: number;
  @ApiProperty({ type: 'integer', description: 'Matched but invalid, or already saved: dropped.' }) removed!: number;
}

export class ImportWithRelatedResponse {
  @ApiProperty({ type: [ScoreDocument] }) scores!: ScoreDocument[];
  @ApiProperty({ type: [SongDocument] }) songs!: SongDocument[];
  @ApiProperty({ type: [ChartDocument] }) charts!: ChartDocument[];
  @ApiProperty({ type: [SessionDocument], description: 'The sessions the import created.' }) sessions!: SessionDocument[];
  @ApiProperty({ type: ImportDocument }) import!: ImportDocument;
  @ApiProperty({ type: UserDocument, nullable: true }) user!: UserDocument | null;
}

export class ImportProgressDocument {
  @ApiProperty() description!: string;
}

export class ImportPollResponse {
  @ApiProperty({ enum: ['ongoing', 'completed'] }) importStatus!: 'ongoing' | 'completed';
  @ApiPropertyOptional({ type: ImportProgressDocument, description: 'Only while ongoing.' }) progress?: ImportProgressDocument;
  @ApiPropertyOptional({ type: ImportDocument, description: 'Only when completed.' }) import?: ImportDocument;
}
