import { Injectable, NotFoundException } from '@nestjs/common';
import { pickAlg } from '../http/algorithms.js';
import {
  toLastSession,
  toSessionCalendarDocument,
  toSessionDocument,
  type LastSessionDocument,
  type SessionCalendarDocument,
  type SessionDocument,
} from '../presenters/session.presenter.js';
import { SessionsRepository } from '../repositories/sessions.repository.js';
import { sessionScoreInfo } from '../scoring/sessions/session-score-info.js';
import { UgptSessionsRepository } from '../repositories/ugpt-sessions.repository.js';
import type { UgptContext } from './ugpt.guard.js';
import type { SessionRow } from '../database/schema.js';

/** Spec part 8: best and recent sessions (and Tachi's search and highlighted lists) hold 100. */
export const SESSION_LIST_LIMIT = 100;

/** A user's sessions on one GPT (spec 4.8). */
@Injectable()
export class UgptSessionsService {
  constructor(
    private readonly repository: UgptSessionsRepository,
    private readonly sessions: SessionsRepository,
  ) {}

  /** Sessions whose name matches the text (substring or close word match), closest first, then the latest. */
  async search({ user, gpt }: UgptContext, search: string): Promise<SessionDocument[]> {
    return this.documents(await this.repository.matching(user.id, gpt, search, SESSION_LIST_LIMIT));
  }

  /** The best sessions under a session rating algorithm (default the GPT's); sessions without a value are left out. */
  async best({ user, gpt }: UgptContext, alg: string | undefined): Promise<SessionDocument[]> {
    return this.documents(await this.repository.best(user.id, gpt, pickAlg(gpt, 'session', alg), SESSION_LIST_LIMIT));
  }

  /** The latest sessions by timeEnded; with highlightedOnly, only highlighted ones. */
  async recent({ user, gpt }: UgptContext, highlightedOnly = false): Promise<SessionDocument[]> {
    return this.documents(await this.repository.recent(user.id, gpt, highlightedOnly, SESSION_LIST_LIMIT));
  }

  /** Every session of the user on the GPT, earliest first, as the calendar shows them. */
  async calendar({ user, gpt }: UgptContext): Promise<SessionCalendarDocument[]> {
    return (await this.repository.calendar(user.id, gpt)).map(toSessionCalendarDocument);
  }

  /** The latest session (under tachi, as Tachi: {session, scoreInfo}). */
  async last({ user, gpt }: UgptContext): Promise<LastSessionDocument> {
    const [row] = await this.repository.recent(user.id, gpt, false, 1);
    if (!row) throw new NotFoundException(`${user.username} has no sessions on ${gpt.game} ${gpt.playtype}.`);
    const [bySession, info] = await Promise.all([this.repository.scoreIDsBySession([row.sessionID]), this.scoreInfo([row.sessionID])]);
    return toLastSession({ session: row, scoreIDs: bySession.get(row.sessionID) ?? [], scoreInfo: info.get(row.sessionID) ?? [] });
  }

  /** SessionDocuments with their score ids in play order, and (for the tachi variant's `__scoreInfo`) their scores' comparisons. */
  private async documents(rows: readonly SessionRow[]): Promise<SessionDocument[]> {
    const ids = rows.map((r) => r.sessionID);
    const [bySession, info] = await Promise.all([this.repository.scoreIDsBySession(ids), this.scoreInfo(ids)]);
    return rows.map((r) => toSessionDocument(r, bySession.get(r.sessionID) ?? [], info.get(r.sessionID) ?? []));
  }

  private async scoreInfo(sessionIDs: readonly string[]) {
    const [members, before] = await Promise.all([this.sessions.members(sessionIDs), this.sessions.bestBefore(sessionIDs)]);
    return sessionScoreInfo(sessionIDs, members, before);
  }
}
