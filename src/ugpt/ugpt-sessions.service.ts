import { Injectable, NotFoundException } from '@nestjs/common';
import { pickAlg } from '../http/algorithms.js';
import { toSessionDocument, type SessionDocument } from '../presenters/session.presenter.js';
import { UgptSessionsRepository } from '../repositories/ugpt-sessions.repository.js';
import type { UgptContext } from './ugpt.guard.js';
import type { SessionRow } from '../database/schema.js';

/** Spec part 8: best and recent sessions (and Tachi's search and highlighted lists) hold 100. */
export const SESSION_LIST_LIMIT = 100;

/** A user's sessions on one GPT (spec 4.8). */
@Injectable()
export class UgptSessionsService {
  constructor(private readonly repository: UgptSessionsRepository) {}

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

  async last({ user, gpt }: UgptContext): Promise<SessionDocument> {
    const [row] = await this.repository.recent(user.id, gpt, false, 1);
    if (!row) throw new NotFoundException(`${user.username} has no sessions on ${gpt.game} ${gpt.playtype}.`);
    const [document] = await this.documents([row]);
    return document;
  }

  /** SessionDocuments with their score ids in play order. */
  private async documents(rows: readonly SessionRow[]): Promise<SessionDocument[]> {
    const bySession = await this.repository.scoreIDsBySession(rows.map((r) => r.sessionID));
    return rows.map((r) => toSessionDocument(r, bySession.get(r.sessionID) ?? []));
  }
}
