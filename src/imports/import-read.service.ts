import { Injectable } from '@nestjs/common';
import { CatalogRepository } from '../repositories/catalog.repository.js';
import { ScoresRepository } from '../repositories/scores.repository.js';
import { SessionsRepository } from '../repositories/sessions.repository.js';
import { UsersRepository } from '../repositories/users.repository.js';
import { ImportsRepository } from '../repositories/imports.repository.js';
import { toChartDocument, toSongDocument } from '../presenters/catalog.presenter.js';
import { toScoreDocument } from '../presenters/score.presenter.js';
import { toSessionDocument } from '../presenters/session.presenter.js';
import { toUserDocument } from '../presenters/user.presenter.js';
import { toImportDocument } from '../presenters/import.presenter.js';
import type { ImportWithRelatedResponse, RecentImportTypeDocument } from './dto/import.responses.js';
import type { ImportRow } from '../database/schema.js';

/** How far back a user's recent import types look: Tachi's month, 4 weeks. */
export const RECENT_IMPORTS_WINDOW_MS = 28 * 24 * 60 * 60 * 1000;
/** Import types left out of the recent ones, as Tachi does: MyPageScraper's CSVs come in pairs beside another import. */
export const RECENT_IMPORTS_EXCLUDED = ['file/mypagescraper-records-csv', 'file/mypagescraper-player-csv'] as const;

@Injectable()
export class ImportReadService {
  constructor(
    private readonly scores: ScoresRepository,
    private readonly sessions: SessionsRepository,
    private readonly catalog: CatalogRepository,
    private readonly users: UsersRepository,
    private readonly imports: ImportsRepository,
  ) {}

  /** The import types the user chose to import with (userIntent) in the last 4 weeks, with how many completed imports each, the most used first. */
  recentImportTypes(userID: number, now = Date.now()): Promise<RecentImportTypeDocument[]> {
    return this.imports.recentImportTypes(userID, now - RECENT_IMPORTS_WINDOW_MS, RECENT_IMPORTS_EXCLUDED);
  }

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
