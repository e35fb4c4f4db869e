import { BadRequestException, Injectable, NotFoundException } from '@nestjs/common';
import { and, asc, desc, eq, sql, type SQL } from 'drizzle-orm';
import { textMatches } from '../repositories/catalog.repository.js';
import { anyOf } from '../database/bulk-write.js';
import { Database } from '../database/database.js';
import { scores, sessions } from '../database/schema.js';
import { toSessionDocument, type SessionDocument, type SessionRecord } from '../presenters/session.presenter.js';
import type { UgptContext } from './ugpt.guard.js';

/** Spec part 8: best and recent sessions (and Tachi's search and highlighted lists) hold 100. */
export const SESSION_LIST_LIMIT = 100;

/**
 * A user's sessions on one GPT (spec 4.8). Every list starts from the (user, game, playtype,
 * timeEnded) index, so only that user's sessions are read.
 */
@Injectable()
export class UgptSessionsService {
  constructor(private readonly database: Database) {}

  private own({ user, gpt }: UgptContext): SQL {
    return and(eq(sessions.userID, user.id), eq(sessions.game, gpt.game), eq(sessions.playtype, gpt.playtype))!;
  }

  /** Sessions whose name matches the text (substring or close word match), closest first, then the latest. */
  async search(ugpt: UgptContext, search: string): Promise<SessionDocument[]> {
    const rows = await this.database.db
      .select()
      .from(sessions)
      .where(and(this.own(ugpt), textMatches(sessions.name, search)))
      .orderBy(desc(sql`word_similarity(${search}, ${sessions.name})`), desc(sessions.timeEnded), asc(sessions.sessionID))
      .limit(SESSION_LIST_LIMIT);
    return this.documents(rows);
  }

  /** The best sessions under a session rating algorithm (default the GPT's); sessions without a value are left out. */
  async best(ugpt: UgptContext, alg: string | undefined): Promise<SessionDocument[]> {
    const name = alg ?? ugpt.gpt.defaultSessionRatingAlg;
    if (!Object.hasOwn(ugpt.gpt.sessionRatingAlgs, name)) {
      throw new BadRequestException(
        `Invalid alg '${name}'. Session rating algorithms of ${ugpt.gpt.game} ${ugpt.gpt.playtype}: ${Object.keys(ugpt.gpt.sessionRatingAlgs).join(', ')}.`,
      );
    }
    const value = sql`(${sessions.calculatedData} ->> ${name})::float8`;
    const rows = await this.database.db
      .select()
      .from(sessions)
      .where(and(this.own(ugpt), sql`${value} IS NOT NULL`))
      .orderBy(desc(value), desc(sessions.timeEnded), asc(sessions.sessionID))
      .limit(SESSION_LIST_LIMIT);
    return this.documents(rows);
  }

  /** The latest sessions by timeEnded; with highlightedOnly, only highlighted ones. */
  async recent(ugpt: UgptContext, highlightedOnly = false): Promise<SessionDocument[]> {
    const rows = await this.database.db
      .select()
      .from(sessions)
      .where(and(this.own(ugpt), highlightedOnly ? eq(sessions.highlighted, true) : undefined))
      .orderBy(desc(sessions.timeEnded), asc(sessions.sessionID))
      .limit(SESSION_LIST_LIMIT);
    return this.documents(rows);
  }

  async last(ugpt: UgptContext): Promise<SessionDocument> {
    const [row] = await this.database.db.select().from(sessions).where(this.own(ugpt)).orderBy(desc(sessions.timeEnded), asc(sessions.sessionID)).limit(1);
    if (!row) throw new NotFoundException(`${ugpt.user.username} has no sessions on ${ugpt.gpt.game} ${ugpt.gpt.playtype}.`);
    const [document] = await this.documents([row]);
    return document;
  }

  /** SessionDocuments with their score ids in play order, read in one query. */
  private async documents(rows: readonly SessionRecord[]): Promise<SessionDocument[]> {
    if (rows.length === 0) return [];
    const scoreRows = await this.database.db
      .select({ sessionID: scores.sessionID, scoreID: scores.scoreID })
      .from(scores)
      .where(
        anyOf(
          scores.sessionID,
          rows.map((r) => r.sessionID),
        ),
      )
      .orderBy(asc(scores.timeAchieved), asc(scores.scoreID));
    const bySession = new Map<string, string[]>();
    for (const s of scoreRows) {
      const list = bySession.get(s.sessionID!) ?? [];
      list.push(s.scoreID);
      bySession.set(s.sessionID!, list);
    }
    return rows.map((r) => toSessionDocument(r, bySession.get(r.sessionID) ?? []));
  }
}
