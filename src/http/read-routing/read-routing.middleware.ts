import { Injectable, type NestMiddleware } from '@nestjs/common';
import type { NextFunction, Response } from 'express';
import { Database } from '../../database/database.js';
import { runWithReplicaReads } from '../../database/read-route.js';
import type { ApiRequest } from '../request.js';

/**
 * Where a request's reads go, with DATABASE_REPLICA_URLS (src/database/replicas.ts). A GET or HEAD
 * may read from a replica that has replayed past the position its player must see (their last
 * change); a guest's, from any replica within REPLICA_MAX_LAG_MS. Every other request reads and
 * writes on the primary, and once it is answered, its player's next reads must see it. Runs after
 * AuthMiddleware (whose session and token lookups use the primary) and before the read cache.
 */
@Injectable()
export class ReadRoutingMiddleware implements NestMiddleware {
  constructor(private readonly database: Database) {}

  use(req: ApiRequest, res: Response, next: NextFunction): void {
    const replicas = this.database.replicas;
    if (!replicas) return next();
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      // Before the answer goes out, so that the player's next request, wherever it starts, comes after it.
      const writeHead = res.writeHead;
      res.writeHead = function (this: Response, ...args: unknown[]) {
        // The signed-in user, or the one this request signed in (login, registration).
        const userID = req.auth?.user?.id ?? req.session?.userID;
        if (userID !== undefined) replicas.userWrote(userID);
        return (writeHead as (...a: unknown[]) => Response).apply(this, args);
      } as typeof res.writeHead;
      return next();
    }
    const required = replicas.requiredFor(req.auth?.user?.id);
    if (required === undefined) return next();
    runWithReplicaReads(required, next);
  }
}
