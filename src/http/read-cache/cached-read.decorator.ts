import { applyDecorators, Injectable, SetMetadata, UseInterceptors, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { tap, type Observable } from 'rxjs';
import type { ApiRequest } from '../request.js';

export const READ_SCOPES = Symbol('READ_SCOPES');
const SCOPES_OF = Symbol('SCOPES_OF');

/** A request whose route named the change scopes of its answer (ReadCacheMiddleware keeps it). */
export interface CacheableRequest {
  [READ_SCOPES]?: readonly string[];
}

/** The answer's change scopes; undefined keeps this answer out of the cache (it depends on who asks). */
type ScopesOf<T> = (answer: T, req: ApiRequest) => readonly string[] | undefined;

@Injectable()
class CachedReadInterceptor implements NestInterceptor {
  constructor(private readonly reflector: Reflector) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const scopesOf = this.reflector.get<ScopesOf<unknown>>(SCOPES_OF, context.getHandler());
    const req = context.switchToHttp().getRequest<ApiRequest & CacheableRequest>();
    return next.handle().pipe(
      tap((answer) => {
        req[READ_SCOPES] = scopesOf(answer, req);
      }),
    );
  }
}

/**
 * Marks a public GET route whose finished answer the read cache may keep, with every change
 * scope (database/change-feed.ts `scope`) the answer was built from: the route's own rows and
 * those of each document in it. The route must not depend on who asks, except through `me`.
 */
export function CachedRead<T>(scopesOf: ScopesOf<T>) {
  return applyDecorators(SetMetadata(SCOPES_OF, scopesOf), UseInterceptors(CachedReadInterceptor));
}
