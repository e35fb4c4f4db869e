import { ApiProperty } from '@nestjs/swagger';
import { ChartDocument, FolderDocument, SongDocument, TableDocument } from '../../presenters/catalog.presenter.js';

export class SongWithChartsResponse {
  @ApiProperty({ type: SongDocument }) song!: SongDocument;
  @ApiProperty({ type: [ChartDocument], description: "The song's charts of this playtype." }) charts!: ChartDocument[];
}

export class PlayedChartDocument extends ChartDocument {
  @ApiProperty({ type: 'integer', description: 'Unique players of the chart.' }) __playcount!: number;
}

export class ChartListResponse {
  @ApiProperty({ type: [PlayedChartDocument], description: 'Most played first.' }) charts!: PlayedChartDocument[];
  @ApiProperty({ type: [SongDocument] }) songs!: SongDocument[];
}

export class SongAndChartResponse {
  @ApiProperty({ type: SongDocument, nullable: true }) song!: SongDocument | null;
  @ApiProperty({ type: ChartDocument }) chart!: ChartDocument;
}

export class PlaycountResponse {
  @ApiProperty({ type: 'integer', description: 'Unique players of the chart.' }) count!: number;
}

export class FolderWithChartsResponse {
  @ApiProperty({ type: [SongDocument] }) songs!: SongDocument[];
  @ApiProperty({ type: [ChartDocument] }) charts!: ChartDocument[];
  @ApiProperty({ type: FolderDocument }) folder!: FolderDocument;
}

/** `{tables}` under spec; under tachi the bare array (the presenter documents both). */
export { TableListResponse } from '../../presenters/catalog.presenter.js';

export class TableWithFoldersResponse {
  @ApiProperty({ type: [FolderDocument], description: 'In table order.' }) folders!: FolderDocument[];
  @ApiProperty({ type: TableDocument }) table!: TableDocument;
}
