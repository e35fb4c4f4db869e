import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import { PinoLogger } from 'nestjs-pino';
import type { Level } from 'pino';
import { AppConfig } from '../config/app-config.js';
import type { AdminLogLevel } from './dto/admin.dto.js';

/** The spec's names on pino's levels: crit is fatal, severe error, verbose debug and debug trace. */
const PINO_LEVEL: Record<AdminLogLevel, Level> = {
  crit: 'fatal',
  severe: 'error',
  error: 'error',
  warn: 'warn',
  info: 'info',
  verbose: 'debug',
  debug: 'trace',
};

/**
 * Changes this process's log level at run time. Request loggers are children made per request,
 * so they follow at once. A change cancels the previous one's pending reset.
 */
@Injectable()
export class LogLevelService implements OnModuleDestroy {
  private resetTimer: NodeJS.Timeout | undefined;

  constructor(private readonly config: AppConfig) {}

  /** Returns the level before and after, as pino names them. */
  change(level: AdminLogLevel, resetAfterMinutes: number | null): { from: string; to: Level } {
    const logger = PinoLogger.root;
    const from = logger.level;
    const to = PINO_LEVEL[level];
    logger.level = to;
    clearTimeout(this.resetTimer);
    this.resetTimer = undefined;
    if (resetAfterMinutes !== null) {
      this.resetTimer = setTimeout(() => (logger.level = this.config.LOG_LEVEL), resetAfterMinutes * 60_000);
      this.resetTimer.unref();
    }
    return { from, to };
  }

  onModuleDestroy() {
    clearTimeout(this.resetTimer);
  }
}
