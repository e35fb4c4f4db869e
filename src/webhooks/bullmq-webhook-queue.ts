import { Queue, Worker, type JobsOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import type { AppConfig } from '../config/app-config.js';
import type { AttemptRunner, WebhookQueue } from './webhook-queue.js';

/** The BullMQ queue of webhook deliveries: keys `<REDIS_KEY_PREFIX>:webhooks:*` in Redis. */
export const WEBHOOK_QUEUE_NAME = 'webhooks';

export interface WebhookJobData {
  deliveryID: number;
}

export interface BullmqWebhookQueueOptions {
  /** Attempts per delivery (WEBHOOK_MAX_ATTEMPTS): the delivery row is marked failed at the last. */
  attempts: number;
  /** First retry delay (WEBHOOK_RETRY_BASE_MS); each further one doubles. */
  backoffMs: number;
  /** Run a worker in this process (the API and `npm run worker`; not the CLI). */
  delivers: boolean;
  /** Deliveries one process attempts at once. */
  concurrency?: number;
  log?: { warn(message: string): void };
}

/**
 * Queue mode (REDIS_URL with PostgreSQL): each delivery is a job whose id is the delivery's, so
 * scheduling it twice adds one job. A job throws while its attempt asks for a retry, and BullMQ
 * runs it again after the exponential backoff; the delivery row records each attempt.
 */
export class BullmqWebhookQueue implements WebhookQueue {
  readonly mode = 'queue';
  readonly delivers: boolean;
  private readonly queue: Queue<WebhookJobData>;
  private worker: Worker<WebhookJobData> | undefined;

  /** `connection` is shared and stays open: its owner closes it. */
  constructor(
    private readonly connection: Redis,
    private readonly prefix: string,
    private readonly options: BullmqWebhookQueueOptions,
  ) {
    this.delivers = options.delivers;
    const jobOptions: JobsOptions = {
      attempts: options.attempts,
      backoff: { type: 'exponential', delay: options.backoffMs },
      removeOnComplete: true,
      removeOnFail: { age: 7 * 24 * 3600, count: 1000 },
    };
    this.queue = new Queue<WebhookJobData>(WEBHOOK_QUEUE_NAME, { connection, prefix, defaultJobOptions: jobOptions });
  }

  async schedule(deliveryIDs: number[]): Promise<void> {
    if (!deliveryIDs.length) return;
    await this.queue.addBulk(deliveryIDs.map((deliveryID) => ({ name: 'deliver', data: { deliveryID }, opts: { jobId: `delivery-${deliveryID}` } })));
  }

  async start(run: AttemptRunner): Promise<void> {
    if (!this.delivers || this.worker) return;
    this.worker = new Worker<WebhookJobData>(
      WEBHOOK_QUEUE_NAME,
      async (job) => {
        const outcome = await run(job.data.deliveryID);
        // BullMQ retries a job that throws, after its backoff.
        if (outcome === 'retry') throw new Error(`Delivery ${job.data.deliveryID} is retried.`);
      },
      { connection: this.connection, prefix: this.prefix, concurrency: this.options.concurrency ?? 4 },
    );
    this.worker.on('error', (err) => this.options.log?.warn(`Webhook worker: ${err.message}`));
    await this.worker.waitUntilReady();
  }

  async close(): Promise<void> {
    await this.worker?.close();
    await this.queue.close();
  }
}

/** The queue a process with Redis (and PostgreSQL) uses, with the configured retries. */
export function webhookQueueFor(
  connection: Redis,
  config: Pick<AppConfig, 'REDIS_KEY_PREFIX' | 'WEBHOOK_MAX_ATTEMPTS' | 'WEBHOOK_RETRY_BASE_MS'>,
  delivers: boolean,
  prefix = config.REDIS_KEY_PREFIX,
) {
  return new BullmqWebhookQueue(connection, prefix, { attempts: config.WEBHOOK_MAX_ATTEMPTS, backoffMs: config.WEBHOOK_RETRY_BASE_MS, delivers });
}
