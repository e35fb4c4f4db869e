import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ApiMapProperty, RANKING } from '../../presenters/api-schema.js';
import { ChartDocument, SongDocument } from '../../presenters/catalog.presenter.js';
import { GameStatsDocument, type RankingDocument } from '../../presenters/game-stats.presenter.js';
import { PbDocument } from '../../presenters/pb.presenter.js';
import { ScoreDocument } from '../../presenters/score.presenter.js';

export class UgptSummaryResponse {
  @ApiProperty({ type: GameStatsDocument }) gameStats!: GameStatsDocument;
  @ApiProperty({ type: ScoreDocument, nullable: true, description: 'The earliest score with a time.' }) firstScore!: ScoreDocument | null;
  @ApiProperty({ type: ScoreDocument, nullable: true, description: 'The latest score with a time.' }) mostRecentScore!: ScoreDocument | null;
  @ApiProperty({ type: 'integer' }) totalScores!: number;
  @ApiMapProperty(RANKING, 'Profile rating algorithm → {ranking, outOf}.') rankingData!: Record<string, RankingDocument>;
}

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

export class PlayedPbDocument extends PbDocument {
  @ApiProperty({ type: 'integer', description: "The user's scores on the chart." }) __playcount!: number;
}

export class MostPlayedResponse {
  @ApiProperty({ type: [SongDocument] }) songs!: SongDocument[];
  @ApiProperty({ type: [ChartDocument] }) charts!: ChartDocument[];
  @ApiProperty({ type: [PlayedPbDocument], description: 'Most played first.' }) pbs!: PlayedPbDocument[];
}
