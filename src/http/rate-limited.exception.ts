import { HttpException, HttpStatus } from '@nestjs/common';

/** 429 that carries how long to wait; the exception filter turns it into a Retry-After header. */
export class RateLimitedException extends HttpException {
  constructor(readonly retryAfterSeconds: number) {
    super(`Too many requests. Try again in ${retryAfterSeconds} second${retryAfterSeconds === 1 ? '' : 's'}.`, HttpStatus.TOO_MANY_REQUESTS);
  }
}
