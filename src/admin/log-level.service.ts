import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { PinoLogger } from 'nestjs-pino';
import type { Level } from 'pino';
import { LogLevelSwitch, type LogLevelChannel } from '../common/log-level-switch.js';
import { AppConfig } from '../config/app-config.js';
import type { AdminLogLevel } from './dto/admin.dto.js';

/** The process's Redis channel for log level changes; null without REDIS_URL (and in the CLI). */
export const LOG_LEVEL_CHANNEL = Symbol('LOG_LEVEL_CHANNEL');

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
 * Changes the log level at run time, here and (with Redis) in every other API and worker process.
 * Request loggers are children made per request, so they follow at once. A change cancels the
 * previous one's pending reset.
 */
@Injectable()
export class LogLevelService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly switch: LogLevelSwitch;

  constructor(config: AppConfig, @Inject(LOG_LEVEL_CHANNEL) channel: LogLevelChannel | null) {
    this.switch = new LogLevelSwitch(
      () => PinoLogger.root,
      config.LOG_LEVEL,
      channel,
      (message) => PinoLogger.root.warn(message),
    );
  }

  async onApplicationBootstrap() {
    await this.switch.start();
  }

  /** Returns the level before and after, as pino names them. */
  async change(level: AdminLogLevel, resetAfterMinutes: number | null): Promise<{ from: string; to: Level }> {
    const to = PINO_LEVEL[level];
    const from = await this.switch.change({ level: to, resetAt: resetAfterMinutes === null ? null : Date.now() + resetAfterMinutes * 60_000 });
    return { from, to };
  }

  onModuleDestroy() {
    this.switch.stop();
  }
}
