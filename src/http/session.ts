import { ServiceUnavailableException } from '@nestjs/common';
import type { SchedulerRegistry } from '@nestjs/schedule';
import { RedisStore } from 'connect-redis';
import type { RequestHandler } from 'express';
import session from 'express-session';
import type { AppConfig } from '../config/app-config.js';
import type { AppSecretsRepository } from '../repositories/app-secrets.repository.js';
import type { LoginSessionsRepository } from '../repositories/login-sessions.repository.js';
import { SESSION_COOKIE } from './auth/access.decorators.js';
import { DbSessionStore } from './db-session.store.js';
import type { ApiRequest } from './request.js';
import type { RedisConnections } from '../common/redis.js';
import { RedisLoginSessions } from '../common/redis-login-sessions.js';

export const SESSION_MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000;

export interface SessionSetup {
  handler: RequestHandler;
  close: () => void;
}

/** connect-redis's store that also records each logged-in session under its user, so that deleting the account ends them all. */
class IndexedRedisStore extends RedisStore {
  constructor(
    options: ConstructorParameters<typeof RedisStore>[0],
    private readonly index: RedisLoginSessions,
  ) {
    super(options);
  }

  override async set(sid: string, sess: session.SessionData, cb?: (err?: unknown) => void): Promise<void> {
    try {
      await super.set(sid, sess);
      if (typeof sess.userID === 'number') await this.index.add(sess.userID, sid, SESSION_MAX_AGE_MS);
    } catch (err) {
      if (!cb) throw err;
      return cb(err);
    }
    cb?.();
  }
}

/**
 * Cookie sessions: HttpOnly, SameSite=Lax, Secure when PUBLIC_URL is https, 30 days from login.
 * Stored in Redis when REDIS_URL is set, else in the login_sessions table (embedded or server PostgreSQL).
 */
export async function createSessionHandler(
  config: AppConfig,
  repositories: { secrets: AppSecretsRepository; sessions: LoginSessionsRepository },
  redis: RedisConnections | null,
  keyPrefix: string,
  /** Where the database store's pruning job is registered. */
  scheduler: SchedulerRegistry,
): Promise<SessionSetup> {
  const secret = config.SESSION_SECRET ?? (await repositories.secrets.getOrCreate('session-secret'));
  let store: session.Store;
  let close = () => undefined as void;
  if (redis) {
    const index = new RedisLoginSessions(redis.sessions, keyPrefix);
    store = new IndexedRedisStore({ client: redis.sessions, prefix: index.sessionKey(''), disableTouch: true }, index);
  } else {
    const dbStore = new DbSessionStore(repositories.sessions, SESSION_MAX_AGE_MS, scheduler);
    store = dbStore;
    close = () => dbStore.close();
  }
  const handler = session({
    name: SESSION_COOKIE,
    secret,
    store,
    resave: false,
    saveUninitialized: false,
    rolling: false,
    proxy: true,
    cookie: { httpOnly: true, sameSite: 'lax', secure: config.secureCookies, maxAge: SESSION_MAX_AGE_MS, path: '/' },
  });
  const guarded: RequestHandler = (req, res, next) => handler(req, res, (err?: unknown) => next(err ? sessionStoreUnavailable(err) : undefined));
  // Requests without the session cookie (API clients, guests) skip the store and the cookie
  // signing entirely; a route that starts a session (login, register) opens one on demand.
  const cookiePrefix = `${SESSION_COOKIE}=`;
  const onDemand: RequestHandler = (req, res, next) => {
    if (req.headers.cookie?.includes(cookiePrefix)) return guarded(req, res, next);
    (req as ApiRequest).openSession = () =>
      new Promise<void>((resolve, reject) => guarded(req, res, (err?: unknown) => (err ? reject(err as Error) : resolve())));
    next();
  };
  return { handler: onDemand, close };
}

/** A session store that fails (Redis or the database unreachable) is a 503, which the client may retry, not a 500. */
export function sessionStoreUnavailable(err: unknown): ServiceUnavailableException {
  return new ServiceUnavailableException('Sessions are unavailable right now: the session store did not answer. Try again shortly.', { cause: err });
}
