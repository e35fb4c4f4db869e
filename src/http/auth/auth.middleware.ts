import { Injectable, type NestMiddleware } from '@nestjs/common';
import type { NextFunction, Response } from 'express';
import type { ApiRequest } from '../request.js';
import { AuthResolver } from './auth-resolver.service.js';

/**
 * Sets req.auth on every request: a Bearer token when the Authorization header is present (it
 * takes precedence, so that a client using a token gets token semantics even with a cookie),
 * else the session cookie, else a guest.
 */
@Injectable()
export class AuthMiddleware implements NestMiddleware {
  constructor(private readonly resolver: AuthResolver) {}

  /** Errors thrown here reach the global exception filter through Nest's middleware proxy. */
  async use(req: ApiRequest, _res: Response, next: NextFunction) {
    req.auth = this.resolver.guest();
    const header = req.headers.authorization;
    if (header !== undefined) {
      req.auth = await this.resolver.fromAuthorizationHeader(header);
    } else if (req.session?.userID !== undefined) {
      const auth = await this.resolver.fromSession(req.session.userID, req.session.authAt ?? 0);
      if (auth) req.auth = auth;
      else await new Promise<void>((resolve) => req.session.destroy(() => resolve()));
    }
    next();
  }
}
