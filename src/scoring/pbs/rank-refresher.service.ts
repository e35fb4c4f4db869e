import { Injectable, Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { addInterval, removeInterval } from '../../common/intervals.js';
import { AppConfig } from '../../config/app-config.js';
import { Database } from '../../database/database.js';
import { refreshDirtyCharts } from './rank-refresher.js';

/** Charts one pass refreshes before it checks whether the process is stopping. */
const PASS = 100;
/**
 * The embedded engine runs one transaction at a time for the whole process: there, each wake
 * refreshes charts a few at a time for at most this long, so a backlog of dirty charts (after a
 * large import) cannot keep imports and requests waiting behind it for seconds.
 */
const EMBEDDED_PASS = 5;
const EMBEDDED_BUDGET_MS = 50;
/** The refresher's name in the SchedulerRegistry. */
export const RANK_REFRESH_JOB = 'chart-rank-refresh';

/**
 * Keeps stored chart ranks fresh off the request path: every RANK_REFRESH_INTERVAL_MS it re-ranks
 * the charts imports and deletions left dirty (see refreshDirtyCharts), in the API process and in
 * every worker; processes share the work. Until a chart is refreshed, readers count its ranks
 * live, so the delay shows in no answer. On shutdown it finishes the chart in progress and stops.
 */
@Injectable()
export class RankRefresherService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(RankRefresherService.name);
  private running: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly database: Database,
    private readonly config: AppConfig,
    private readonly scheduler: SchedulerRegistry,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.RANK_REFRESH_INTERVAL_MS === 0) return;
    addInterval(this.scheduler, RANK_REFRESH_JOB, this.config.RANK_REFRESH_INTERVAL_MS, () => this.wake());
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    removeInterval(this.scheduler, RANK_REFRESH_JOB);
    await this.running;
  }

  private wake() {
    if (this.running || this.stopped) return;
    this.running = this.run().finally(() => (this.running = undefined));
  }

  private async run() {
    const embedded = this.database.kind === 'pglite';
    const pass = embedded ? EMBEDDED_PASS : PASS;
    const started = Date.now();
    try {
      while (!this.stopped && (await refreshDirtyCharts(this.database, pass)) === pass) if (embedded && Date.now() - started >= EMBEDDED_BUDGET_MS) break;
    } catch (err) {
      this.logger.warn(`Refreshing chart ranks failed (retried at the next interval): ${(err as Error).message}`);
    }
  }
}
