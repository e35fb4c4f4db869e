import session from 'express-session';
import type { LoginSessionsRepository } from '../repositories/login-sessions.repository.js';

type Callback<T = void> = (err?: unknown, value?: T) => void;

/**
 * express-session store in the login_sessions table, through the same database as everything
 * else, so it works on PGlite and PostgreSQL alike. Expired rows are ignored on read and pruned
 * periodically.
 */
export class DbSessionStore extends session.Store {
  private readonly pruneTimer: NodeJS.Timeout;

  constructor(
    private readonly sessions: LoginSessionsRepository,
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
    this.sessions.findUnexpired(sid).then((sess) => cb(null, (sess as session.SessionData | undefined) ?? null), cb);
  }

  override set(sid: string, sess: session.SessionData, cb?: Callback) {
    this.sessions.save(sid, sess, this.expiry(sess)).then(
      () => cb?.(),
      (err: unknown) => cb?.(err),
    );
  }

  override destroy(sid: string, cb?: Callback) {
    this.sessions.delete(sid).then(
      () => cb?.(),
      (err: unknown) => cb?.(err),
    );
  }

  prune(): Promise<void> {
    return this.sessions.deleteExpired();
  }

  close() {
    clearInterval(this.pruneTimer);
  }
}
