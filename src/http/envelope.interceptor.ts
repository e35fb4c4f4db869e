import { Inject, Injectable, StreamableFile, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { map, type Observable } from 'rxjs';
import { DESCRIPTION, type EnvelopeMode } from './envelope.js';
import { ENVELOPE_MODE } from './exception.filter.js';
import { RAW_RESPONSE } from './response-shapes.js';

/** With API_ENVELOPE=tachi, wraps JSON results as {success, description, body} for existing Tachi clients. */
@Injectable()
export class EnvelopeInterceptor implements NestInterceptor {
  constructor(
    @Inject(ENVELOPE_MODE) private readonly mode: EnvelopeMode,
    private readonly reflector: Reflector,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (this.mode !== 'tachi' || context.getType() !== 'http') return next.handle();
    if (this.reflector.getAllAndOverride<boolean | undefined>(RAW_RESPONSE, [context.getHandler(), context.getClass()])) return next.handle();
    const description = this.reflector.get<string | undefined>(DESCRIPTION, context.getHandler()) ?? 'Success.';
    return next
      .handle()
      .pipe(map((body: unknown) => (body instanceof StreamableFile || Buffer.isBuffer(body) ? body : { success: true, description, body: body ?? {} })));
  }
}
