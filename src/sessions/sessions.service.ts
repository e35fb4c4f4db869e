import { BadRequestException, ForbiddenException, Injectable, NotFoundException } from '@nestjs/common';
import { and, asc, eq, inArray } from 'drizzle-orm';
import { toChartDocument, toSongDocument } from '../presenters/catalog.presenter.js';
import type { UserRow } from '../http/auth/auth-context.js';
import { Database } from '../database/database.js';
import { charts, scores, sessions, songs, users } from '../database/schema.js';
import { toScoreDocument } from '../presenters/score.presenter.js';
import { toUserDocument } from '../presenters/user.presenter.js';
import type { SessionWithRelatedResponse } from './dto/session.responses.js';
import type { PatchSessionDto } from './dto/sessions.dto.js';
import { toSessionDocument, type SessionDocument, type SessionRecord } from '../presenters/session.presenter.js';

@Injectable()
export class SessionsService {
  constructor(private readonly database: Database) {}

  async findOrThrow(sessionID: string): Promise<SessionRecord> {
    const [row] = await this.database.db.select().from(sessions).where(eq(sessions.sessionID, sessionID)).limit(1);
    if (!row) throw new NotFoundException(`The session ${sessionID} does not exist.`);
    return row;
  }

  /** The session's score ids in play order. */
  private async scoreIDsOf(sessionID: string): Promise<string[]> {
    const rows = await this.database.db
      .select({ scoreID: scores.scoreID })
      .from(scores)
      .where(eq(scores.sessionID, sessionID))
      .orderBy(asc(scores.timeAchieved), asc(scores.scoreID));
    return rows.map((r) => r.scoreID);
  }

  /** {session, scores, songs, charts, user}; scores in play order. */
  async withRelated(sessionID: string): Promise<SessionWithRelatedResponse> {
    const db = this.database.db;
    const session = await this.findOrThrow(sessionID);
    const scoreRows = await db.select().from(scores).where(eq(scores.sessionID, sessionID)).orderBy(asc(scores.timeAchieved), asc(scores.scoreID));
    const chartIDs = [...new Set(scoreRows.map((s) => s.chartID))];
    const chartRows = chartIDs.length ? await db.select().from(charts).where(inArray(charts.chartID, chartIDs)) : [];
    const songIDs = [...new Set(chartRows.map((c) => c.songID))];
    const songRows = songIDs.length
      ? await db
          .select()
          .from(songs)
          .where(and(eq(songs.game, session.game), inArray(songs.id, songIDs)))
      : [];
    const [user] = await db.select().from(users).where(eq(users.id, session.userID));
    return {
      session: toSessionDocument(
        session,
        scoreRows.map((s) => s.scoreID),
      ),
      scores: scoreRows.map(toScoreDocument),
      songs: songRows.map(toSongDocument),
      charts: chartRows.map(toChartDocument),
      user: toUserDocument(user),
    };
  }

  /** Renames, describes or (un)highlights the requester's own session. */
  async patch(user: UserRow, sessionID: string, dto: PatchSessionDto): Promise<SessionDocument> {
    if (dto.name === undefined && dto.desc === undefined && dto.highlight === undefined)
      throw new BadRequestException('Nothing was provided to modify: give name, desc and/or highlight.');
    const session = await this.findOrThrow(sessionID);
    if (session.userID !== user.id) throw new ForbiddenException('You can only modify your own sessions.');
    const [updated] = await this.database.db
      .update(sessions)
      .set({
        ...(dto.name !== undefined ? { name: dto.name } : {}),
        ...(dto.desc !== undefined ? { desc: dto.desc } : {}),
        ...(dto.highlight !== undefined ? { highlighted: dto.highlight } : {}),
      })
      .where(eq(sessions.sessionID, sessionID))
      .returning();
    if (!updated) throw new NotFoundException(`The session ${sessionID} does not exist.`);
    return toSessionDocument(updated, await this.scoreIDsOf(sessionID));
  }
}
