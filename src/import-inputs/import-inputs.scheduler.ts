import { Injectable, Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { addInterval, removeInterval } from '../common/intervals.js';
import { ImportInputsService } from './import-inputs.service.js';

export const IMPORT_INPUT_RETENTION_JOB = 'import-input-retention';
const HOUR_MS = 3600 * 1000;

/** Deletes the import inputs older than IMPORT_INPUT_RETENTION_DAYS: once after boot, then hourly. Overlapping runs (several instances) only delete the same rows. */
@Injectable()
export class ImportInputsScheduler implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(ImportInputsScheduler.name);
  private running: Promise<void> = Promise.resolve();

  constructor(
    private readonly inputs: ImportInputsService,
    private readonly scheduler: SchedulerRegistry,
  ) {}

  onApplicationBootstrap() {
    addInterval(this.scheduler, IMPORT_INPUT_RETENTION_JOB, HOUR_MS, () => void this.sweep());
    void this.sweep();
  }

  async beforeApplicationShutdown() {
    removeInterval(this.scheduler, IMPORT_INPUT_RETENTION_JOB);
    await this.running;
  }

  /** One run; a failure is logged, and the next hour's run tries again. */
  sweep(): Promise<void> {
    this.running = this.running.then(() =>
      this.inputs.deleteExpired().then(
        (n) => void (n && this.logger.log(`Deleted ${n} expired import input(s).`)),
        (err: unknown) => this.logger.error(`Deleting expired import inputs failed: ${err instanceof Error ? err.message : String(err)}`),
      ),
    );
    return this.running;
  }
}
