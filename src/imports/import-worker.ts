import { HttpException } from '@nestjs/common';
import { DelayedError, UnrecoverableError, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { IMPORT_QUEUE_NAME, type ImportJobData } from './bullmq-import-queue.js';
import { UserBusyError } from '../scoring/import-lock.js';
import type { ImportsService } from './imports.service.js';

/** How long an import waits before trying again while another import of the same user runs. */
export const USER_BUSY_DELAY_MS = 1_000;
/** Times a job may be recovered after its worker died (or hung) before it fails for good. */
export const IMPORT_MAX_STALLS = 2;

export interface ImportWorkerLog {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export interface ImportWorkerOptions {
  /** Shared and left open: its owner closes it. */
  connection: Redis;
  prefix: string;
  imports: ImportsService;
  concurrency: number;
  /** BullMQ's job lock; also the interval of the check that hands a dead worker's jobs to others. */
  lockMs: number;
  log: ImportWorkerLog;
}

/**
 * Consumes the import queue: each job runs ImportsService.runQueued. One user's imports run one
 * after another (a job whose user is busy is delayed, without using up an attempt); unexpected
 * errors are retried with backoff and fail the import after the last attempt; an HttpException
 * (the input itself is wrong) fails it at once. A crash rolls back the import's one transaction,
 * and the stalled job is retried by any worker.
 */
export class ImportWorker {
  private readonly worker: Worker<ImportJobData>;
  private readonly pending = new Set<Promise<void>>();
  /** The jobs running now, with the lock token each holds. */
  private readonly running = new Map<string, { job: Job<ImportJobData>; token?: string }>();

  constructor(private readonly options: ImportWorkerOptions) {
    this.worker = new Worker<ImportJobData>(IMPORT_QUEUE_NAME, (job, token) => this.process(job, token), {
      connection: options.connection,
      prefix: options.prefix,
      concurrency: options.concurrency,
      lockDuration: options.lockMs,
      stalledInterval: options.lockMs,
      maxStalledCount: IMPORT_MAX_STALLS,
    });
    this.worker.on('error', (err) => options.log.error(`Import worker: ${err.message}`));
    this.worker.on('stalled', (jobID) => options.log.warn(`Import ${jobID} lost its worker; it runs again.`));
    this.worker.on('failed', (job, err) => {
      if (!job) return;
      if (!job.finishedOn)
        return void options.log.warn(
          `Import ${job.data.importID} failed (attempt ${job.attemptsMade} of ${job.opts.attempts ?? 1}); it will be retried: ${err.message}`,
        );
      options.log.error(`Import ${job.data.importID} failed for good: ${err.message}`);
      // A job that stalled too often fails without running: the import row is marked here. For
      // the others the processor already did, and fail() leaves a finished import as it is.
      this.track(options.imports.fail(job.data.importID, err));
    });
  }

  /** Resolves once the worker is connected and takes jobs. */
  waitUntilReady(): Promise<void> {
    return this.worker.waitUntilReady().then(() => undefined);
  }

  /** Stops taking jobs and waits for the running ones to finish. */
  async close(): Promise<void> {
    await this.worker.close();
    await Promise.allSettled([...this.pending]);
  }

  /**
   * Gives the running jobs back to the queue at once (the shutdown timeout passed): another worker
   * takes them now instead of after their lock lapses. The caller then exits, which rolls back
   * their transactions; should one commit first, its rerun finds the import completed and stops.
   */
  async handBack(): Promise<number> {
    const jobs = [...this.running.values()];
    this.running.clear();
    const results = await Promise.allSettled(jobs.map(({ job, token }) => job.moveToWait(token)));
    return results.filter((r) => r.status === 'fulfilled').length;
  }

  private async process(job: Job<ImportJobData>, token?: string): Promise<void> {
    const key = job.id ?? job.data.importID;
    this.running.set(key, { job, token });
    try {
      await this.run(job, token);
    } finally {
      this.running.delete(key);
    }
  }

  private async run(job: Job<ImportJobData>, token?: string): Promise<void> {
    const { importID } = job.data;
    try {
      await this.options.imports.runQueued(importID, (description) => void job.updateProgress({ description }).catch(() => undefined));
    } catch (err) {
      if (err instanceof UserBusyError) {
        await job.moveToDelayed(Date.now() + USER_BUSY_DELAY_MS, token);
        throw new DelayedError();
      }
      const lastAttempt = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
      if (err instanceof HttpException || lastAttempt) {
        await this.options.imports.fail(importID, err);
        throw new UnrecoverableError((err as Error).message);
      }
      throw err;
    }
  }

  private track(work: Promise<void>) {
    const settled = work
      .catch((err: Error) => this.options.log.error(`Could not mark an import failed: ${err.message}`))
      .finally(() => this.pending.delete(settled));
    this.pending.add(settled);
  }
}
