import type { SchedulerRegistry } from '@nestjs/schedule';
import session from 'express-session';
import { addInterval, removeInterval } from '../common/intervals.js';
import type { LoginSessionsRepository } from '../repositories/login-sessions.repository.js';

type Callback<T = void> = (err?: unknown, value?: T) => void;

/** How often expired rows are deleted. */
export const SESSION_PRUNE_MS = 15 * 60 * 1000;
/** That pruning's name in the SchedulerRegistry. */
export const SESSION_PRUNE_JOB = 'login-session-prune';

/**
 * express-session store in the login_sessions table, through the same database as everything
 * else, so it works on PGlite and PostgreSQL alike. Expired rows are ignored on read and pruned
 * every SESSION_PRUNE_MS, a job in the application's SchedulerRegistry until close().
 */
export class DbSessionStore extends session.Store {
  constructor(
    private readonly sessions: LoginSessionsRepository,
    private readonly defaultTtlMs: number,
    private readonly scheduler: SchedulerRegistry,
  ) {
    super();
    addInterval(scheduler, SESSION_PRUNE_JOB, SESSION_PRUNE_MS, () => void this.prune().catch(() => undefined));
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
    removeInterval(this.scheduler, SESSION_PRUNE_JOB);
  }
}
