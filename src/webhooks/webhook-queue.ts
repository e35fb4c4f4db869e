/** What an attempt at one delivery came to. `settled`: it was no longer pending (delivered, failed or gone). */
export type AttemptOutcome = 'delivered' | 'retry' | 'failed' | 'settled';

/** Runs one attempt at a delivery and records it (WebhooksService). */
export type AttemptRunner = (deliveryID: number) => Promise<AttemptOutcome>;

/**
 * How webhook deliveries are run after they are stored. `polled`: the process polls the
 * deliveries table for the due ones (no Redis; the rows are the queue, so pending deliveries
 * survive a restart). `queue`: each delivery is a BullMQ job, retried by BullMQ with backoff.
 */
export interface WebhookQueue {
  readonly mode: 'polled' | 'queue';
  /** Whether this process delivers (false in the CLI: it only stores deliveries, which the server sends). */
  readonly delivers: boolean;
  /** Hands stored deliveries to the queue (polled: nothing to hand over, the poller finds them). */
  schedule(deliveryIDs: number[]): Promise<void>;
  /** Starts consuming (queue mode; polled mode's loop is WebhooksService's). */
  start(run: AttemptRunner): Promise<void>;
  close(): Promise<void>;
}

export const WEBHOOK_QUEUE = Symbol('WEBHOOK_QUEUE');

export class PolledWebhookQueue implements WebhookQueue {
  readonly mode = 'polled';

  constructor(readonly delivers = true) {}

  async schedule(): Promise<void> {}

  async start(): Promise<void> {}

  async close(): Promise<void> {}
}
