import { Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { sql } from 'drizzle-orm';
import { addInterval, removeInterval } from '../common/intervals.js';
import { Database } from './database.js';

/** How often the embedded server refreshes the planner's statistics, when it has written since. */
export const EMBEDDED_ANALYZE_INTERVAL_MS = 5 * 60_000;
/** That refresh's name in the SchedulerRegistry. */
export const EMBEDDED_ANALYZE_JOB = 'embedded-analyze';

/**
 * PGlite runs no autovacuum, so without this its planner statistics would stay as old as the
 * last ANALYZE (or absent): with a few thousand players it then picks plans that scan whole
 * tables. Every EMBEDDED_ANALYZE_INTERVAL_MS, if transactions were committed since the last run,
 * this ANALYZEs the database. A server on PostgreSQL leaves it to autovacuum.
 */
@Injectable()
export class EmbeddedStatistics implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(EmbeddedStatistics.name);
  private analyzedAt = 0;
  private running: Promise<void> | undefined;

  constructor(
    private readonly database: Database,
    private readonly scheduler: SchedulerRegistry,
  ) {}

  onModuleInit() {
    if (this.database.kind !== 'pglite') return;
    this.analyzedAt = this.database.committedTransactions;
    addInterval(this.scheduler, EMBEDDED_ANALYZE_JOB, EMBEDDED_ANALYZE_INTERVAL_MS, () => void this.refresh());
  }

  async onModuleDestroy() {
    removeInterval(this.scheduler, EMBEDDED_ANALYZE_JOB);
    await this.running;
  }

  /** ANALYZEs when transactions were committed since the last run; resolves when done. */
  refresh(): Promise<void> {
    const committed = this.database.committedTransactions;
    if (this.running || committed === this.analyzedAt) return this.running ?? Promise.resolve();
    this.running = (async () => {
      try {
        await this.database.db.execute(sql`ANALYZE`);
        this.analyzedAt = committed;
      } catch (err) {
        this.logger.warn(`Could not refresh the planner statistics: ${(err as Error).message}`);
      } finally {
        this.running = undefined;
      }
    })();
    return this.running;
  }
}
