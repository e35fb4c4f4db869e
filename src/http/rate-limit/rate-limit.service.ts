import { Injectable, Logger } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { AppConfig } from '../../config/app-config.js';
import { RateLimitedException } from '../rate-limited.exception.js';
import type { ApiRequest } from '../request.js';
import { AUTH_RATE_LIMITS, type AuthRateLimitName, type LimitRule, type RateLimitPolicy } from './rate-limit.policies.js';

const retryAfter = (res: RateLimiterRes) => Math.max(1, Math.ceil(res.msBeforeNext / 1000));

/**
 * Per-IP and per-account counters, in Redis when REDIS_URL is set (shared by every instance), else
 * in memory. The Redis client fails fast (see RedisConnections.rateLimits), and each Redis limiter
 * has an in-memory insurance limiter: while Redis is unreachable the limits hold per process
 * instead of requests hanging or failing. Constructed by a factory provider in AppModule.
 */
@Injectable()
export class RateLimitService {
  private readonly logger = new Logger(RateLimitService.name);
  private readonly limiters = new Map<string, RateLimiterAbstract>();

  constructor(
    private readonly config: AppConfig,
    private readonly redis: Redis | null,
    private readonly prefix: string,
  ) {
    let down = false;
    redis?.on('error', (err: Error) => {
      if (down) return;
      down = true;
      this.logger.warn(`Redis is unreachable (${err.message}): rate limits are counted per process until it is back.`);
    });
    redis?.on('ready', () => {
      if (down) this.logger.log('Redis is back: rate limits are shared again.');
      down = false;
    });
  }

  private limiter(name: string, rule: LimitRule): RateLimiterAbstract {
    let limiter = this.limiters.get(name);
    if (!limiter) {
      const options = { keyPrefix: `${this.prefix}:${name}`, points: rule.points, duration: rule.duration };
      limiter = this.redis
        ? new RateLimiterRedis({ ...options, storeClient: this.redis, rejectIfRedisNotReady: true, insuranceLimiter: new RateLimiterMemory(options) })
        : new RateLimiterMemory(options);
      this.limiters.set(name, limiter);
    }
    return limiter;
  }

  private async consume(name: string, rule: LimitRule, key: string) {
    try {
      await this.limiter(name, rule).consume(key);
    } catch (err) {
      if (err instanceof RateLimiterRes) throw new RateLimitedException(retryAfter(err));
      throw err;
    }
  }

  async checkDefault(req: ApiRequest) {
    const points = this.config.RATE_LIMIT_PER_MINUTE;
    if (points > 0) await this.consume('default', { points, duration: 60 }, req.ip ?? 'unknown');
  }

  /** The per-account rule of a policy, scaled by AUTH_RATE_LIMIT_FACTOR, and the request's account key; undefined when not counted. */
  private accountRule(name: AuthRateLimitName, req: ApiRequest) {
    const factor = this.config.AUTH_RATE_LIMIT_FACTOR;
    const account = (AUTH_RATE_LIMITS[name] as RateLimitPolicy).account;
    const key = factor > 0 && account ? account.key(req) : undefined;
    if (!account || key === undefined) return undefined;
    return {
      limiterName: `${name}:account`,
      rule: { points: account.points * factor, duration: account.duration },
      key,
      failuresOnly: account.failuresOnly === true,
    };
  }

  async checkAuth(name: AuthRateLimitName, req: ApiRequest) {
    const factor = this.config.AUTH_RATE_LIMIT_FACTOR;
    if (factor === 0) return;
    const policy = AUTH_RATE_LIMITS[name];
    await this.consume(`${name}:ip`, { points: policy.ip.points * factor, duration: policy.ip.duration }, req.ip ?? 'unknown');
    const account = this.accountRule(name, req);
    if (!account) return;
    if (!account.failuresOnly) return this.consume(account.limiterName, account.rule, account.key);
    // Failures are counted by recordFailure; here the account is only checked.
    const seen = await this.limiter(account.limiterName, account.rule).get(account.key);
    if (seen && seen.consumedPoints >= account.rule.points) throw new RateLimitedException(retryAfter(seen));
  }

  /** A failed attempt against the request's account, for policies that count failures only. */
  async recordFailure(name: AuthRateLimitName, req: ApiRequest) {
    const account = this.accountRule(name, req);
    if (!account?.failuresOnly) return;
    try {
      await this.limiter(account.limiterName, account.rule).consume(account.key);
    } catch (err) {
      if (!(err instanceof RateLimiterRes)) throw err; // over the limit: the next attempt is refused
    }
  }

  /** A successful attempt: the account's failures are forgotten. */
  async recordSuccess(name: AuthRateLimitName, req: ApiRequest) {
    const account = this.accountRule(name, req);
    if (account?.failuresOnly) await this.limiter(account.limiterName, account.rule).delete(account.key);
  }
}
