import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ChartDocument, SongDocument } from '../../presenters/catalog.presenter.js';
import { ImportDocument } from '../../presenters/import.presenter.js';
import { ScoreDocument } from '../../presenters/score.presenter.js';

export class BeatorajaImportedBody {
  @ApiProperty({ type: ScoreDocument }) score!: ScoreDocument;
  @ApiProperty({ type: SongDocument }) song!: SongDocument;
  @ApiProperty({ type: ChartDocument }) chart!: ChartDocument;
  @ApiProperty({ type: ImportDocument }) import!: ImportDocument;
}

/** 200: the score was imported. */
export class BeatorajaImportedResponse {
  @ApiProperty({ enum: [true] }) success!: true;
  @ApiProperty({ example: 'Imported score.' }) description!: string;
  @ApiProperty({ type: BeatorajaImportedBody }) body!: BeatorajaImportedBody;
}

/** 202: the chart is unknown; it and the score wait in the orphan-chart queue. */
export class BeatorajaOrphanedResponse {
  @ApiProperty({ enum: [true] }) success!: true;
  @ApiProperty({ description: 'How many players the chart needs, and how many have sent it.' }) description!: string;
  @ApiProperty({ type: 'object', properties: {}, additionalProperties: false }) body!: Record<string, never>;
}

export class BeatorajaClassBody {
  @ApiProperty() set!: string;
  @ApiProperty() value!: string;
}

export class BeatorajaCourseResponse {
  @ApiProperty({ enum: [true] }) success!: true;
  @ApiProperty({ description: "'Successfully updated class.', or why the class was not updated." }) description!: string;
  @ApiPropertyOptional({ type: BeatorajaClassBody, description: "The course's class; absent when the course was not cleared." }) body?: BeatorajaClassBody;
}

/** One PB in the shape of beatoraja's IR score data. */
export class BeatorajaRankingScoreDocument {
  @ApiProperty() sha256!: string;
  @ApiProperty({ description: "The player's name; an empty string marks the requester's own score." }) player!: string;
  @ApiProperty({ type: 'integer' }) playcount!: number;
  @ApiProperty({ type: 'integer', description: "beatoraja's ClearType id." }) clear!: number;
  @ApiProperty({ type: 'integer', description: 'Unix ms; 0 when unknown.' }) date!: number;
  @ApiProperty({ type: String, nullable: true }) deviceType!: null;
  @ApiProperty({ type: 'integer', nullable: true }) random!: null;
  @ApiProperty() gauge!: number;
  @ApiProperty({ type: 'integer' }) passnotes!: number;
  @ApiProperty({ type: 'integer' }) minbp!: number;
  @ApiProperty({ type: 'integer' }) notes!: number;
  @ApiProperty({ type: 'integer' }) maxcombo!: number;
  @ApiProperty({ type: 'integer' }) epg!: number;
  @ApiProperty({ type: 'integer' }) lpg!: number;
  @ApiProperty({ type: 'integer' }) egr!: number;
  @ApiProperty({ type: 'integer' }) lgr!: number;
  @ApiProperty({ type: 'integer' }) egd!: number;
  @ApiProperty({ type: 'integer' }) lgd!: number;
  @ApiProperty({ type: 'integer' }) ebd!: number;
  @ApiProperty({ type: 'integer' }) lbd!: number;
  @ApiProperty({ type: 'integer' }) epr!: number;
  @ApiProperty({ type: 'integer' }) lpr!: number;
  @ApiProperty({ type: 'integer' }) ems!: number;
  @ApiProperty({ type: 'integer' }) lms!: number;
}

export class BeatorajaRankingResponse {
  @ApiProperty({ enum: [true] }) success!: true;
  @ApiProperty() description!: string;
  @ApiProperty({ type: [BeatorajaRankingScoreDocument] }) body!: BeatorajaRankingScoreDocument[];
}
