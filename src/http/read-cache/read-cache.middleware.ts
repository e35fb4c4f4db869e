import { readPositionCap } from '../../database/read-route.js';
import { Injectable, type NestMiddleware } from '@nestjs/common';
import type { NextFunction, Response } from 'express';
import { RateLimitService } from '../rate-limit/rate-limit.service.js';
import type { ApiRequest } from '../request.js';
import { READ_SCOPES, type CacheableRequest } from './cached-read.decorator.js';
import { ReadCache } from './read-cache.service.js';

/**
 * Serves GETs from the read cache before routing: a current answer goes out as stored bytes (or
 * a 304 when If-None-Match has its ETag), after the same per-IP rate limit the route would apply.
 * Cached routes are public and resolve their `:userID` only through the key (see ReadCache.keyOf),
 * so guards would decide nothing else. On a miss, the answer the route sends is kept if the route
 * is a @CachedRead one (it names the answer's scopes on the request).
 */
@Injectable()
export class ReadCacheMiddleware implements NestMiddleware {
  constructor(
    private readonly cache: ReadCache,
    private readonly limits: RateLimitService,
  ) {}

  async use(req: ApiRequest & CacheableRequest, res: Response, next: NextFunction): Promise<void> {
    if (!this.cache.enabled || req.method !== 'GET') return next();
    const key = this.cache.keyOf(req);
    if (key === undefined) return next();
    const hit = this.cache.lookup(key);
    if (hit) {
      await this.limits.checkDefault(req);
      res.status(200);
      res.setHeader('Content-Type', hit.contentType);
      res.setHeader('ETag', hit.etag);
      if (req.fresh) {
        this.cache.stats.notModified++;
        res.status(304).end();
        return;
      }
      this.cache.stats.hits++;
      res.setHeader('Content-Length', hit.body.length);
      res.end(hit.body);
      return;
    }
    this.cache.stats.misses++;
    const position = this.cache.feed.position;
    const cache = this.cache;
    const send = res.send;
    let kept = false;
    res.send = function (this: Response, body?: unknown) {
      const result = send.call(this, body);
      const scopes = req[READ_SCOPES];
      // Express sends a 304 itself when the fresh answer's ETag matches: the body was built all the same.
      if (!kept && scopes && (typeof body === 'string' || Buffer.isBuffer(body)) && (res.statusCode === 200 || res.statusCode === 304)) {
        kept = true;
        const etag = res.getHeader('ETag');
        const contentType = res.getHeader('Content-Type');
        if (typeof etag === 'string' && typeof contentType === 'string')
          // Built from a replica: current only as of what it had replayed.
          cache.store(key, { body: typeof body === 'string' ? Buffer.from(body) : body, etag, contentType, scopes, position: readPositionCap(position) });
      }
      return result;
    } as Response['send'];
    next();
  }
}
