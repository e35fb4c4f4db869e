import { Injectable } from '@nestjs/common';
import { CatalogRepository } from '../repositories/catalog.repository.js';
import { ScoresRepository } from '../repositories/scores.repository.js';
import { SessionsRepository } from '../repositories/sessions.repository.js';
import { UsersRepository } from '../repositories/users.repository.js';
import { toChartDocument, toSongDocument } from '../presenters/catalog.presenter.js';
import { toScoreDocument } from '../presenters/score.presenter.js';
import { toSessionDocument } from '../presenters/session.presenter.js';
import { toUserDocument } from '../presenters/user.presenter.js';
import { toImportDocument } from '../presenters/import.presenter.js';
import type { ImportWithRelatedResponse } from './dto/import.responses.js';
import type { ImportRow } from '../database/schema.js';

@Injectable()
export class ImportReadService {
  constructor(
    private readonly scores: ScoresRepository,
    private readonly sessions: SessionsRepository,
    private readonly catalog: CatalogRepository,
    private readonly users: UsersRepository,
  ) {}

  /** {scores, songs, charts, sessions (the ones it created), import, user} for GET /imports/:importID. */
  async withRelated(row: ImportRow): Promise<ImportWithRelatedResponse> {
    const scoreRows = await this.scores.findByIds(row.scoreIDs);
    const chartRows = await this.catalog.chartsByIds(scoreRows.map((s) => s.chartID));
    const songRows = row.game
      ? await this.catalog.songsByIds(
          row.game,
          chartRows.map((c) => c.songID),
        )
      : [];
    const createdIDs = row.createdSessions.filter((s) => s.type === 'Created').map((s) => s.sessionID);
    const sessionRows = await this.sessions.findByIds(createdIDs);
    const members = await this.scores.sessionMembers(createdIDs);
    const user = await this.users.findById(row.userID);
    return {
      scores: scoreRows.map(toScoreDocument),
      songs: songRows.map(toSongDocument),
      charts: chartRows.map(toChartDocument),
      sessions: sessionRows.map((s) =>
        toSessionDocument(
          s,
          members.filter((m) => m.sessionID === s.sessionID).map((m) => m.scoreID),
        ),
      ),
      import: toImportDocument(row),
      user: user ? toUserDocument(user) : null,
    };
  }
}
