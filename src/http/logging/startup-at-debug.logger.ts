import type { LoggerService } from '@nestjs/common';
import { isNestStartupLine } from '../../common/log-output.js';

/** The app's Nest logger (nestjs-pino's), with Nest's start-up lines moved from info to debug. */
export class StartupAtDebugLogger implements LoggerService {
  constructor(private readonly inner: LoggerService & { debug: NonNullable<LoggerService['debug']> }) {}

  log(message: unknown, ...params: unknown[]) {
    if (isNestStartupLine(params)) this.inner.debug(message, ...params);
    else this.inner.log(message, ...params);
  }

  error(message: unknown, ...params: unknown[]) {
    this.inner.error(message, ...params);
  }

  warn(message: unknown, ...params: unknown[]) {
    this.inner.warn(message, ...params);
  }

  debug(message: unknown, ...params: unknown[]) {
    this.inner.debug(message, ...params);
  }

  verbose(message: unknown, ...params: unknown[]) {
    this.inner.verbose?.(message, ...params);
  }

  fatal(message: unknown, ...params: unknown[]) {
    this.inner.fatal?.(message, ...params);
  }
}
