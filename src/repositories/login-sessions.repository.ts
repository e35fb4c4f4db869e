import { Injectable } from '@nestjs/common';
import { eq, lt, sql } from 'drizzle-orm';
import { Database } from '../database/database.js';
import { loginSessions } from '../database/schema.js';

/** express-session's cookie sessions, when they are kept in the database rather than Redis. */
@Injectable()
export class LoginSessionsRepository {
  constructor(private readonly database: Database) {}

  /** The session's data, unless it is unknown or expired. */
  async findUnexpired(sid: string): Promise<unknown> {
    const [row] = await this.database.db
      .select({ sess: loginSessions.sess, expire: loginSessions.expire })
      .from(loginSessions)
      .where(eq(loginSessions.sid, sid))
      .limit(1);
    return row && row.expire > Date.now() ? row.sess : undefined;
  }

  async save(sid: string, sess: unknown, expire: number): Promise<void> {
    await this.database.db
      .insert(loginSessions)
      .values({ sid, sess, expire })
      .onConflictDoUpdate({ target: loginSessions.sid, set: { sess: sql`excluded.sess`, expire: sql`excluded.expire` } });
  }

  async delete(sid: string): Promise<void> {
    await this.database.db.delete(loginSessions).where(eq(loginSessions.sid, sid));
  }

  async deleteExpired(): Promise<void> {
    await this.database.db.delete(loginSessions).where(lt(loginSessions.expire, Date.now()));
  }
}
