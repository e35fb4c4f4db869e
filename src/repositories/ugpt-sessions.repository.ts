import { Injectable } from '@nestjs/common';
import { and, asc, desc, eq, sql, type SQL } from 'drizzle-orm';
import { anyOf } from '../database/bulk-write.js';
import { Database } from '../database/database.js';
import { scores, sessions, type SessionRow } from '../database/schema.js';
import type { GptSupport } from '../game-support/types.js';
import { textMatches } from './catalog.repository.js';

/**
 * One user's sessions on one GPT (spec 4.8). Every list starts from the (user, game, playtype,
 * timeEnded) index, so only that user's sessions are read; ties go to the latest, then session id.
 */
@Injectable()
export class UgptSessionsRepository {
  constructor(private readonly database: Database) {}

  private own(userID: number, gpt: GptSupport): SQL {
    return and(eq(sessions.userID, userID), eq(sessions.game, gpt.game), eq(sessions.playtype, gpt.playtype))!;
  }

  /** Sessions whose name matches the text (substring or close word match), closest first. */
  matching(userID: number, gpt: GptSupport, search: string, limit: number): Promise<SessionRow[]> {
    return this.database.db
      .select()
      .from(sessions)
      .where(and(this.own(userID, gpt), textMatches(sessions.name, search)))
      .orderBy(desc(sql`word_similarity(${search}, ${sessions.name})`), desc(sessions.timeEnded), asc(sessions.sessionID))
      .limit(limit);
  }

  /** The best sessions by a session rating algorithm; sessions without a value for it are left out. */
  best(userID: number, gpt: GptSupport, alg: string, limit: number): Promise<SessionRow[]> {
    const value = sql`(${sessions.calculatedData} ->> ${alg})::float8`;
    return this.database.db
      .select()
      .from(sessions)
      .where(and(this.own(userID, gpt), sql`${value} IS NOT NULL`))
      .orderBy(desc(value), desc(sessions.timeEnded), asc(sessions.sessionID))
      .limit(limit);
  }

  /** The latest sessions by timeEnded; with highlightedOnly, only highlighted ones. */
  recent(userID: number, gpt: GptSupport, highlightedOnly: boolean, limit: number): Promise<SessionRow[]> {
    return this.database.db
      .select()
      .from(sessions)
      .where(and(this.own(userID, gpt), highlightedOnly ? eq(sessions.highlighted, true) : undefined))
      .orderBy(desc(sessions.timeEnded), asc(sessions.sessionID))
      .limit(limit);
  }

  /** Each session's score ids in play order, read in one query. */
  async scoreIDsBySession(sessionIDs: readonly string[]): Promise<Map<string, string[]>> {
    const bySession = new Map<string, string[]>();
    if (sessionIDs.length === 0) return bySession;
    const rows = await this.database.db
      .select({ sessionID: scores.sessionID, scoreID: scores.scoreID })
      .from(scores)
      .where(anyOf(scores.sessionID, sessionIDs))
      .orderBy(asc(scores.timeAchieved), asc(scores.scoreID));
    for (const s of rows) {
      const list = bySession.get(s.sessionID!) ?? [];
      list.push(s.scoreID);
      bySession.set(s.sessionID!, list);
    }
    return bySession;
  }

  /** Every session of the user (on one GPT, or on all), earliest first, with only what a calendar shows. */
  calendar(userID: number, gpt?: GptSupport) {
    return this.database.db
      .select({
        sessionID: sessions.sessionID,
        name: sessions.name,
        desc: sessions.desc,
        highlighted: sessions.highlighted,
        timeStarted: sessions.timeStarted,
        timeEnded: sessions.timeEnded,
        game: sessions.game,
        playtype: sessions.playtype,
      })
      .from(sessions)
      .where(gpt ? this.own(userID, gpt) : eq(sessions.userID, userID))
      .orderBy(asc(sessions.timeStarted), asc(sessions.sessionID));
  }
}
