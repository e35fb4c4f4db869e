import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { catchError, concatMap, from, map, throwError, type Observable } from 'rxjs';
import type { ApiRequest } from '../request.js';
import { ReadCache } from './read-cache.service.js';

/**
 * Holds the answer of every request that may write (not GET or HEAD) until this process has
 * received the change notifications of what it committed, so that the client's next read here
 * never gets an answer from before its own write. Immediate on PGlite; one notification's round
 * trip on a PostgreSQL server.
 */
@Injectable()
export class WriteBarrierInterceptor implements NestInterceptor {
  constructor(private readonly cache: ReadCache) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http' || !this.cache.enabled) return next.handle();
    const method = context.switchToHttp().getRequest<ApiRequest>().method;
    if (method === 'GET' || method === 'HEAD') return next.handle();
    return next.handle().pipe(
      concatMap((answer) => from(this.cache.barrier()).pipe(map(() => answer))),
      catchError((err: unknown) => from(this.cache.barrier()).pipe(concatMap(() => throwError(() => err)))),
    );
  }
}
