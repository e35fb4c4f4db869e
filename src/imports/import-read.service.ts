import { Injectable } from '@nestjs/common';
import { and, asc, eq, inArray } from 'drizzle-orm';
import { anyOf } from '../database/bulk-write.js';
import { Database } from '../database/database.js';
import { charts, scores, sessions, songs, users } from '../database/schema.js';
import { toChartDocument, toSongDocument } from '../presenters/catalog.presenter.js';
import { toScoreDocument } from '../presenters/score.presenter.js';
import { toSessionDocument } from '../presenters/session.presenter.js';
import { toUserDocument } from '../presenters/user.presenter.js';
import { toImportDocument, type ImportRow } from '../presenters/import.presenter.js';
import type { ImportWithRelatedResponse } from './dto/import.responses.js';

@Injectable()
export class ImportReadService {
  constructor(private readonly database: Database) {}

  /** {scores, songs, charts, sessions (the ones it created), import, user} for GET /imports/:importID. */
  async withRelated(row: ImportRow): Promise<ImportWithRelatedResponse> {
    const db = this.database.db;
    const scoreRows = row.scoreIDs.length ? await db.select().from(scores).where(anyOf(scores.scoreID, row.scoreIDs)).orderBy(asc(scores.timeAchieved), asc(scores.scoreID)) : [];
    const chartIDs = [...new Set(scoreRows.map((s) => s.chartID))];
    const chartRows = chartIDs.length ? await db.select().from(charts).where(inArray(charts.chartID, chartIDs)) : [];
    const songIDs = [...new Set(chartRows.map((c) => c.songID))];
    const songRows = songIDs.length && row.game ? await db.select().from(songs).where(and(eq(songs.game, row.game), inArray(songs.id, songIDs))) : [];
    const createdIDs = row.createdSessions.filter((s) => s.type === 'Created').map((s) => s.sessionID);
    const sessionRows = createdIDs.length ? await db.select().from(sessions).where(inArray(sessions.sessionID, createdIDs)) : [];
    const members = createdIDs.length
      ? await db.select({ sessionID: scores.sessionID, scoreID: scores.scoreID }).from(scores).where(inArray(scores.sessionID, createdIDs)).orderBy(asc(scores.timeAchieved), asc(scores.scoreID))
      : [];
    const [user] = await db.select().from(users).where(eq(users.id, row.userID));
    return {
      scores: scoreRows.map(toScoreDocument),
      songs: songRows.map(toSongDocument),
      charts: chartRows.map(toChartDocument),
      sessions: sessionRows.map((s) => toSessionDocument(s, members.filter((m) => m.sessionID === s.sessionID).map((m) => m.scoreID))),
      import: toImportDocument(row),
      user: user ? toUserDocument(user) : null,
    };
  }
}
