import { Inject, Injectable, StreamableFile, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { map, type Observable } from 'rxjs';
import { presentAs, type ApiProfile } from '../presenters/profile.js';
import { API_PROFILE, DESCRIPTION } from './envelope.js';
import { RAW_RESPONSE } from './response-shapes.js';

/**
 * The profile's serialisation step. API_PROFILE=spec: answers are the handlers' results.
 * API_PROFILE=tachi: every document in a JSON answer becomes Tachi's (presentAs), and the answer
 * is wrapped as {success, description, body}, except on RawResponse routes (score hooks), which
 * keep the shape their clients read.
 */
@Injectable()
export class EnvelopeInterceptor implements NestInterceptor {
  constructor(
    @Inject(API_PROFILE) private readonly profile: ApiProfile,
    private readonly reflector: Reflector,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (this.profile !== 'tachi' || context.getType() !== 'http') return next.handle();
    const profile = this.profile;
    if (this.reflector.getAllAndOverride<boolean | undefined>(RAW_RESPONSE, [context.getHandler(), context.getClass()]))
      return next.handle().pipe(map((body: unknown) => presentAs(profile, body)));
    const description = this.reflector.get<string | undefined>(DESCRIPTION, context.getHandler()) ?? 'Success.';
    return next
      .handle()
      .pipe(
        map((body: unknown) =>
          body instanceof StreamableFile || Buffer.isBuffer(body) ? body : { success: true, description, body: presentAs(profile, body ?? {}) },
        ),
      );
  }
}
