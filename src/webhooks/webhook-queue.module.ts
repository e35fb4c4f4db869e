import { Global, Module, type DynamicModule, type BeforeApplicationShutdown } from '@nestjs/common';
import { WEBHOOK_QUEUE, type WebhookQueue } from './webhook-queue.js';

/** Provides the process's WebhookQueue (polled or BullMQ, chosen by the process) everywhere, and closes it before the database closes (a running attempt finishes first). */
@Global()
@Module({})
export class WebhookQueueModule {
  static forQueue(queue: WebhookQueue): DynamicModule {
    class WebhookQueueCloser implements BeforeApplicationShutdown {
      async beforeApplicationShutdown() {
        await queue.close();
      }
    }
    return { module: WebhookQueueModule, providers: [{ provide: WEBHOOK_QUEUE, useValue: queue }, WebhookQueueCloser], exports: [WEBHOOK_QUEUE] };
  }
}
