import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ChartDocument, SongDocument } from '../../presenters/catalog.presenter.js';
import { PbDocument, PlayedPbDocument } from '../../presenters/pb.presenter.js';
import { ScoreDocument } from '../../presenters/score.presenter.js';

export { UgptSummaryResponse } from '../../presenters/ugpt-summary.presenter.js';

export class PbListResponse {
  @ApiProperty({ type: [SongDocument] }) songs!: SongDocument[];
  @ApiProperty({ type: [ChartDocument] }) charts!: ChartDocument[];
  @ApiProperty({ type: [PbDocument] }) pbs!: PbDocument[];
}

export class PbWithChartResponse {
  @ApiProperty({ type: PbDocument }) pb!: PbDocument;
  @ApiProperty({ type: ChartDocument }) chart!: ChartDocument;
  @ApiPropertyOptional({ type: [ScoreDocument], description: 'Only with getComposition: the scores the PB is composed from.' }) scores?: ScoreDocument[];
}

export class MatchedSongDocument extends SongDocument {
  @ApiProperty({ description: 'How close the song is to the search (internal).' }) __textScore!: number;
}

export class ScoreSearchResponse {
  @ApiProperty({ type: [MatchedSongDocument] }) songs!: MatchedSongDocument[];
  @ApiProperty({ type: [ChartDocument] }) charts!: ChartDocument[];
  @ApiProperty({ type: [ScoreDocument] }) scores!: ScoreDocument[];
}

export class ScoreListResponse {
  @ApiProperty({ type: [SongDocument] }) songs!: SongDocument[];
  @ApiProperty({ type: [ChartDocument] }) charts!: ChartDocument[];
  @ApiProperty({ type: [ScoreDocument], description: 'Newest first.' }) scores!: ScoreDocument[];
}

export { PlayedPbDocument };

export class MostPlayedResponse {
  @ApiProperty({ type: [SongDocument] }) songs!: SongDocument[];
  @ApiProperty({ type: [ChartDocument] }) charts!: ChartDocument[];
  @ApiProperty({ type: [PlayedPbDocument], description: 'Most played first.' }) pbs!: PlayedPbDocument[];
}
