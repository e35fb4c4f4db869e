import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ChartDocument, SongDocument } from '../../presenters/catalog.presenter.js';
import { PbDocument, PlayedPbDocument } from '../../presenters/pb.presenter.js';
import { ScoreDocument } from '../../presenters/score.presenter.js';
import { UserDocument } from '../../presenters/user.presenter.js';

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

export class ChartNeighboursResponse {
  @ApiProperty({ type: PbDocument, description: "The player's PB on the chart." }) pb!: PbDocument;
  @ApiProperty({ type: ChartDocument }) chart!: ChartDocument;
  @ApiProperty({ type: [PbDocument], description: 'Up to 5 PBs ranked just above, the nearest first (rank descending).' }) adjacentAbove!: PbDocument[];
  @ApiProperty({ type: [PbDocument], description: 'Up to 5 PBs ranked just below, the nearest first (rank ascending).' }) adjacentBelow!: PbDocument[];
  @ApiProperty({ type: [UserDocument], description: 'The owners of adjacentAbove and adjacentBelow.' }) users!: UserDocument[];
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
