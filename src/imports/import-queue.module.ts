import { Global, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import { IMPORT_QUEUE, type ImportQueue } from './import-queue.js';

/** Provides the process's ImportQueue (inline or BullMQ, chosen by main.ts, worker.ts or the tests) everywhere, and closes it on shutdown. */
@Global()
@Module({})
export class ImportQueueModule {
  static forQueue(queue: ImportQueue): DynamicModule {
    class ImportQueueCloser implements OnApplicationShutdown {
      async onApplicationShutdown() {
        await queue.close();
      }
    }
    return { module: ImportQueueModule, providers: [{ provide: IMPORT_QUEUE, useValue: queue }, ImportQueueCloser], exports: [IMPORT_QUEUE] };
  }
}
