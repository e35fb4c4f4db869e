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
import {
  toSessionCalendarDocument,
  toSessionDocument,
  toSessionWithRelated,
  type SessionCalendarDocument,
  type SessionDocument,
  type SessionFolderRaiseDocument,
} from '../presenters/session.presenter.js';
import { UgptSessionsRepository } from '../repositories/ugpt-sessions.repository.js';
import { sessionScoreInfo } from '../scoring/sessions/session-score-info.js';
import { folderRaises, type EnumIndexes } from '../scoring/sessions/folder-raises.js';
import { findGpt } from '../game-support/registry.js';
import { toFolderDocument } from '../presenters/catalog.presenter.js';
import { UgptFoldersRepository } from '../repositories/ugpt-folders.repository.js';
import type { SessionRow } from '../database/schema.js';

@Injectable()
export class SessionsService {
  constructor(
    private readonly sessions: SessionsRepository,
    private readonly scores: ScoresRepository,
    private readonly catalog: CatalogRepository,
    private readonly users: UsersRepository,
    private readonly userSessions: UgptSessionsRepository,
    private readonly folders: UgptFoldersRepository,
  ) {}

  /** Every session of the user on every game, earliest first, as the calendar shows them. */
  async calendar(user: UserRow): Promise<SessionCalendarDocument[]> {
    return (await this.userSessions.calendar(user.id)).map(toSessionCalendarDocument);
  }

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
    const [members, before] = await Promise.all([this.sessions.members([sessionID]), this.sessions.bestBefore([sessionID])]);
    const response = {
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
    return toSessionWithRelated({ response, scoreInfo: sessionScoreInfo([sessionID], members, before).get(sessionID)! });
  }

  /**
   * The folders where the session raised lamps or grades (see folderRaises): active folders holding
   * charts it played, compared with the owner's scores achieved before the session started.
   */
  async folderRaises(sessionID: string): Promise<SessionFolderRaiseDocument[]> {
    const session = await this.findOrThrow(sessionID);
    // A session's GPT is always a supported one: scores are only stored for them.
    const gpt = findGpt(session.game, session.playtype)!;
    const sessionCharts = await this.sessions.foldersPlayed(sessionID);
    const folderIDs = [...new Set(sessionCharts.map((c) => c.folderID))];
    const [folderRows, chartCounts, before, members] = await Promise.all([
      this.catalog.foldersByIds(folderIDs),
      this.folders.chartCounts(folderIDs),
      this.sessions.bestInFoldersBefore(session.userID, folderIDs, session.timeStarted),
      this.sessions.members([sessionID]),
    ]);
    const inSession = new Map<string, EnumIndexes>();
    for (const m of members) {
      const best = inSession.get(m.chartID);
      inSession.set(m.chartID, { lampIndex: Math.max(best?.lampIndex ?? -1, m.lampIndex), gradeIndex: Math.max(best?.gradeIndex ?? -1, m.gradeIndex) });
    }
    const ordered = [...folderRows].sort((a, b) => a.title.localeCompare(b.title) || a.folderID.localeCompare(b.folderID));
    return folderRaises(gpt, { folders: ordered, chartCounts, sessionCharts, before, inSession }).map((r) => ({ ...r, folder: toFolderDocument(r.folder) }));
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
