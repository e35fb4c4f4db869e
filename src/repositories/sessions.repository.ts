import { Injectable } from '@nestjs/common';
import { eq, inArray } from 'drizzle-orm';
import { Database } from '../database/database.js';
import { sessions, type SessionRow } from '../database/schema.js';

/** What a user may change on their own session. */
export type SessionAnnotations = Partial<Pick<SessionRow, 'name' | 'desc' | 'highlighted'>>;

@Injectable()
export class SessionsRepository {
  constructor(private readonly database: Database) {}

  async findById(sessionID: string): Promise<SessionRow | undefined> {
    const [row] = await this.database.db.select().from(sessions).where(eq(sessions.sessionID, sessionID)).limit(1);
    return row;
  }

  findByIds(sessionIDs: readonly string[]): Promise<SessionRow[]> {
    if (sessionIDs.length === 0) return Promise.resolve([]);
    return this.database.db
      .select()
      .from(sessions)
      .where(inArray(sessions.sessionID, [...sessionIDs]));
  }

  async annotate(sessionID: string, changes: SessionAnnotations): Promise<SessionRow | undefined> {
    const [row] = await this.database.db.update(sessions).set(changes).where(eq(sessions.sessionID, sessionID)).returning();
    return row;
  }
}
