import { Queue, type JobsOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import type { ImportQueue } from './import-queue.js';

/** The BullMQ queue of imports: keys `<REDIS_KEY_PREFIX>:imports:*` in Redis. */
export const IMPORT_QUEUE_NAME = 'imports';

/** A job carries only the import's id: its input waits in the imports row. */
export interface ImportJobData {
  importID: string;
}

/** Runs of one import that may fail with an unexpected error before it is marked failed. */
export const IMPORT_JOB_ATTEMPTS = 5;
/** First retry delay; each further retry waits twice as long (5 s, 10 s, 20 s, 40 s). */
export const IMPORT_JOB_BACKOFF_MS = 5_000;

const JOB_OPTIONS: JobsOptions = {
  attempts: IMPORT_JOB_ATTEMPTS,
  backoff: { type: 'exponential', delay: IMPORT_JOB_BACKOFF_MS },
  removeOnComplete: true,
  // Failed jobs stay a week for inspection; the import row already says why it failed.
  removeOnFail: { age: 7 * 24 * 3600, count: 1000 },
};

/** Queue mode: imports are enqueued as BullMQ jobs that `npm run worker` processes run. */
export class BullmqImportQueue implements ImportQueue {
  readonly mode = 'queue';
  private readonly queue: Queue<ImportJobData>;

  /** `connection` is shared and stays open: its owner closes it. */
  constructor(connection: Redis, prefix: string) {
    this.queue = new Queue<ImportJobData>(IMPORT_QUEUE_NAME, { connection, prefix, defaultJobOptions: JOB_OPTIONS });
  }

  async enqueue(importID: string): Promise<void> {
    // jobId = importID: enqueueing the same import twice adds one job.
    await this.queue.add('import', { importID }, { jobId: importID });
  }

  close(): Promise<void> {
    return this.queue.close();
  }
}
