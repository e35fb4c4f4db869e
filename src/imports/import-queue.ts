/**
 * Where a submitted import runs. `inline`: in the request's own process, answering with the
 * ImportDocument. `queue`: as a BullMQ job that `npm run worker` processes pick up, answering 202.
 */
export interface ImportQueue {
  readonly mode: 'inline' | 'queue';
  enqueue(importID: string): Promise<void>;
  close(): Promise<void>;
}

export const IMPORT_QUEUE = Symbol('IMPORT_QUEUE');

export class InlineImportQueue implements ImportQueue {
  readonly mode = 'inline';

  enqueue(): Promise<void> {
    return Promise.reject(new Error('An inline import queue runs imports in the request, never enqueues them.'));
  }

  async close(): Promise<void> {}
}
