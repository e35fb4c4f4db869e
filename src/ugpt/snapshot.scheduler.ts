import { Injectable, Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { Cron } from '@nestjs/schedule';
import { SnapshotsService, type SnapshotResult } from './snapshots.service.js';

export const DAILY_SNAPSHOT_JOB = 'daily-snapshot';
export const SNAPSHOT_CHECK_JOB = 'hourly-snapshot-check';

/**
 * Takes the daily snapshot at 00:00 UTC. Today's is also taken when missing: in the background
 * right after boot (a day the service was down at midnight), and by an hourly check (a midnight
 * run that failed). The advisory lock and ON CONFLICT make overlapping runs, here or on other
 * instances, harmless. Registered only with SNAPSHOT_SCHEDULE on.
 */
@Injectable()
export class SnapshotScheduler implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(SnapshotScheduler.name);
  private readonly running = new Set<Promise<void>>();
  /** The catch-up started at boot; it settles (never rejects) once done. */
  catchUp: Promise<void> = Promise.resolve();

  constructor(private readonly snapshots: SnapshotsService) {}

  /** Not awaited: the HTTP server starts while the catch-up runs. */
  onApplicationBootstrap() {
    this.catchUp = this.track('catch-up', () => this.takeIfMissing('catch-up'));
  }

  /** Lets a run in progress finish before the database closes. */
  async beforeApplicationShutdown() {
    await Promise.all([...this.running]);
  }

  @Cron('0 0 * * *', { name: DAILY_SNAPSHOT_JOB, timeZone: 'UTC', waitForCompletion: true })
  daily() {
    return this.track('daily', async () => this.report('daily', await this.snapshots.take()));
  }

  /** Five past every hour, so as not to meet the midnight run. */
  @Cron('5 * * * *', { name: SNAPSHOT_CHECK_JOB, timeZone: 'UTC', waitForCompletion: true })
  hourly() {
    return this.track('hourly check', () => this.takeIfMissing('hourly check'));
  }

  private async takeIfMissing(kind: string) {
    if (!(await this.snapshots.exists())) this.report(kind, await this.snapshots.take());
  }

  /** Runs a job, logging its failure (the next hourly check tries again) instead of rejecting. */
  private track(kind: string, job: () => Promise<void>): Promise<void> {
    const run = job()
      .catch((err: unknown) => this.logger.error(`The ${kind} snapshot failed: ${err instanceof Error ? err.message : String(err)}`))
      .finally(() => this.running.delete(run));
    this.running.add(run);
    return run;
  }

  private report(kind: string, result: SnapshotResult) {
    const day = new Date(result.timestamp).toISOString().slice(0, 10);
    this.logger.log(result.taken ? `${kind} snapshot of ${day}: ${result.written} written` : `${kind} snapshot of ${day}: another instance is taking it`);
  }
}
