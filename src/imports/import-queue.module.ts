import { Global, Module, type DynamicModule } from '@nestjs/common';
import { IMPORT_QUEUE, type ImportQueue } from './import-queue.js';

/** Provides the process's ImportQueue (inline or BullMQ, chosen by main.ts or the tests) everywhere. */
@Global()
@Module({})
export class ImportQueueModule {
  static forQueue(queue: ImportQueue): DynamicModule {
    return { module: ImportQueueModule, providers: [{ provide: IMPORT_QUEUE, useValue: queue }], exports: [IMPORT_QUEUE] };
  }
}
