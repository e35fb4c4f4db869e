import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ChartDocument, SongDocument } from '../../presenters/catalog.presenter.js';
import { ScoreDocument } from '../../presenters/score.presenter.js';

export class ScoreWithRelatedResponse {
  @ApiProperty({ type: ScoreDocument }) score!: ScoreDocument;
  @ApiPropertyOptional({ type: SongDocument, nullable: true, description: 'Only with getRelated.' }) song?: SongDocument | null;
  @ApiPropertyOptional({ type: ChartDocument, nullable: true, description: 'Only with getRelated.' }) chart?: ChartDocument | null;
}
