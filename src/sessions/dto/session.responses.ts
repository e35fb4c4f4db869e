import { ApiProperty } from '@nestjs/swagger';
import { ChartDocument, SongDocument } from '../../presenters/catalog.presenter.js';
import { ScoreDocument } from '../../presenters/score.presenter.js';
import { SessionDocument } from '../../presenters/session.presenter.js';
import { UserDocument } from '../../presenters/user.presenter.js';

export class SessionWithRelatedResponse {
  @ApiProperty({ type: SessionDocument }) session!: SessionDocument;
  @ApiProperty({ type: [ScoreDocument], description: 'In play order.' }) scores!: ScoreDocument[];
  @ApiProperty({ type: [SongDocument] }) songs!: SongDocument[];
  @ApiProperty({ type: [ChartDocument] }) charts!: ChartDocument[];
  @ApiProperty({ type: UserDocument }) user!: UserDocument;
}
