import type { LoggerService } from '@nestjs/common';
import type { Level, Logger } from 'pino';
import { isNestStartupLine } from '../common/log-output.js';

/**
 * Nest's log calls (the framework's, and each service's `new Logger(...)`) written to a pino
 * logger, so that a process without HTTP logs one stream at its configured level, Nest's start-up
 * lines at debug. Nest passes the context (the service's name) as the last argument.
 */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly pino: Logger) {}

  log(message: unknown, ...params: unknown[]) {
    this.write(isNestStartupLine(params) ? 'debug' : 'info', message, params);
  }

  error(message: unknown, ...params: unknown[]) {
    this.write('error', message, params);
  }

  warn(message: unknown, ...params: unknown[]) {
    this.write('warn', message, params);
  }

  debug(message: unknown, ...params: unknown[]) {
    this.write('debug', message, params);
  }

  verbose(message: unknown, ...params: unknown[]) {
    this.write('trace', message, params);
  }

  fatal(message: unknown, ...params: unknown[]) {
    this.write('fatal', message, params);
  }

  private write(level: Level, message: unknown, params: unknown[]) {
    const context = params.at(-1);
    this.pino[level](typeof context === 'string' ? { context } : {}, message instanceof Error ? message.message : String(message));
  }
}
