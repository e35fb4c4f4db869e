import { BadRequestException, ForbiddenException, Injectable, NotFoundException } from '@nestjs/common';
import { toChartDocument, toSongDocument } from '../presenters/catalog.presenter.js';
import type { UserRow } from '../http/auth/auth-context.js';
import { CatalogRepository } from '../repositories/catalog.repository.js';
import { ScoresRepository } from '../repositories/scores.repository.js';
import { SessionsRepository } from '../repositories/sessions.repository.js';
import { UsersRepository } from '../repositories/users.repository.js';
import { toScoreDocument } from '../presenters/score.presenter.js';
import { toUserDocument } from '../presenters/user.presenter.js';
import type { SessionWithRelatedResponse } from './dto/session.responses.js';
import type { PatchSessionDto } from './dto/sessions.dto.js';
import { toSessionDocument, type SessionDocument } from '../presenters/session.presenter.js';
import type { SessionRow } from '../database/schema.js';

@Injectable()
export class SessionsService {
  constructor(
    private readonly sessions: SessionsRepository,
    private readonly scores: ScoresRepository,
    private readonly catalog: CatalogRepository,
    private readonly users: UsersRepository,
  ) {}

  async findOrThrow(sessionID: string): Promise<SessionRow> {
    const row = await this.sessions.findById(sessionID);
    if (!row) throw new NotFoundException(`The session ${sessionID} does not exist.`);
    return row;
  }

  /** {session, scores, songs, charts, user}; scores in play order. */
  async withRelated(sessionID: string): Promise<SessionWithRelatedResponse> {
    const session = await this.findOrThrow(sessionID);
    const scoreRows = await this.scores.inSession(sessionID);
    const chartRows = await this.catalog.chartsByIds(scoreRows.map((s) => s.chartID));
    const songRows = await this.catalog.songsByIds(
      session.game,
      chartRows.map((c) => c.songID),
    );
    const user = await this.users.findById(session.userID);
    return {
      session: toSessionDocument(
        session,
        scoreRows.map((s) => s.scoreID),
      ),
      scores: scoreRows.map(toScoreDocument),
      songs: songRows.map(toSongDocument),
      charts: chartRows.map(toChartDocument),
      // A session's user exists: deleting a user deletes their sessions.
      user: toUserDocument(user!),
    };
  }

  /** Renames, describes or (un)highlights the requester's own session. */
  async patch(user: UserRow, sessionID: string, dto: PatchSessionDto): Promise<SessionDocument> {
    if (dto.name === undefined && dto.desc === undefined && dto.highlight === undefined)
      throw new BadRequestException('Nothing was provided to modify: give name, desc and/or highlight.');
    const session = await this.findOrThrow(sessionID);
    if (session.userID !== user.id) throw new ForbiddenException('You can only modify your own sessions.');
    const updated = await this.sessions.annotate(sessionID, {
      ...(dto.name !== undefined ? { name: dto.name } : {}),
      ...(dto.desc !== undefined ? { desc: dto.desc } : {}),
      ...(dto.highlight !== undefined ? { highlighted: dto.highlight } : {}),
    });
    if (!updated) throw new NotFoundException(`The session ${sessionID} does not exist.`);
    const members = await this.scores.sessionMembers([sessionID]);
    return toSessionDocument(
      updated,
      members.map((m) => m.scoreID),
    );
  }
}
