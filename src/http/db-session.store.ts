import { eq, lt, sql } from 'drizzle-orm';
import session from 'express-session';
import type { Database } from '../database/database.js';
import { loginSessions } from '../database/schema.js';

type Callback<T = void> = (err?: unknown, value?: T) => void;

/**
 * express-session store in the login_sessions table, through the same Drizzle database as
 * everything else, so it works on PGlite and PostgreSQL alike. Expired rows are ignored on read
 * and pruned periodically.
 */
export class DbSessionStore extends session.Store {
  private readonly pruneTimer: NodeJS.Timeout;

  constructor(
    private readonly database: Database,
    private readonly defaultTtlMs: number,
    pruneEveryMs = 15 * 60 * 1000,
  ) {
    super();
    this.pruneTimer = setInterval(() => void this.prune().catch(() => undefined), pruneEveryMs).unref();
  }

  private expiry(sess: session.SessionData): number {
    const expires = sess.cookie?.expires;
    return expires ? new Date(expires).getTime() : Date.now() + this.defaultTtlMs;
  }

  override get(sid: string, cb: Callback<session.SessionData | null>) {
    this.database.db
      .select({ sess: loginSessions.sess, expire: loginSessions.expire })
      .from(loginSessions)
      .where(eq(loginSessions.sid, sid))
      .limit(1)
      .then(([row]) => cb(null, row && row.expire > Date.now() ? (row.sess as session.SessionData) : null), cb);
  }

  override set(sid: string, sess: session.SessionData, cb?: Callback) {
    const expire = this.expiry(sess);
    this.database.db
      .insert(loginSessions)
      .values({ sid, sess, expire })
      .onConflictDoUpdate({ target: loginSessions.sid, set: { sess: sql`excluded.sess`, expire: sql`excluded.expire` } })
      .then(() => cb?.(), (err: unknown) => cb?.(err));
  }

  override destroy(sid: string, cb?: Callback) {
    this.database.db
      .delete(loginSessions)
      .where(eq(loginSessions.sid, sid))
      .then(() => cb?.(), (err: unknown) => cb?.(err));
  }

  async prune(): Promise<void> {
    await this.database.db.delete(loginSessions).where(lt(loginSessions.expire, Date.now()));
  }

  close() {
    clearInterval(this.pruneTimer);
  }
}
