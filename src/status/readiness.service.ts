import { Inject, Injectable } from '@nestjs/common';
import { sql } from 'drizzle-orm';
import type { Redis } from 'ioredis';
import { Database } from '../database/database.js';
import { onPrimary } from '../database/read-route.js';
import type { ReplicaStatus } from '../database/replicas.js';

/** The rate limiter's Redis client (it fails fast while Redis is gone), or null without REDIS_URL. */
export const READINESS_REDIS = Symbol('READINESS_REDIS');

/** A check that gets no answer in this time counts as failed: a load balancer must not wait on a hung pool. */
const CHECK_TIMEOUT_MS = 2000;

export interface Readiness {
  ready: boolean;
  database: string;
  redis: string;
  replicas?: ReplicaStatus[];
}

function withTimeout(work: Promise<unknown>): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
  });
  return Promise.race([work, timeout])
    .then(
      () => 'ok',
      (err: unknown) => `unreachable: ${err instanceof Error ? err.message : String(err)}`,
    )
    .finally(() => clearTimeout(timer));
}

/** Whether this process can serve requests: its database answers, and Redis too when it is configured. */
@Injectable()
export class ReadinessService {
  constructor(
    private readonly database: Database,
    @Inject(READINESS_REDIS) private readonly redis: Redis | null,
  ) {}

  async check(): Promise<Readiness> {
    const [database, redis] = await Promise.all([
      // The primary's answer, even when the request may read from a replica.
      withTimeout(onPrimary(() => this.database.db.execute(sql`SELECT 1`))),
      this.redis ? withTimeout(this.redis.ping()) : Promise.resolve('not configured'),
    ]);
    const replicas = this.database.replicas?.status();
    return { ready: database === 'ok' && (redis === 'ok' || redis === 'not configured'), database, redis, ...(replicas ? { replicas } : {}) };
  }
}
