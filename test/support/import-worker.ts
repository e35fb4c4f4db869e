import { ImportWorker } from '../../src/imports/import-worker.js';
import { ImportsService } from '../../src/imports/imports.service.js';
import type { TestApp } from './app.js';

const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

/**
 * An import worker inside the test process, on the app's database and Redis queue (an app made
 * with `importQueue: 'queue'`): what `npm run worker` runs, with the app's own ImportsService.
 */
export async function startImportWorker(t: TestApp, options: { concurrency?: number } = {}): Promise<ImportWorker> {
  if (!t.redis) throw new Error('An import worker needs TEST_REDIS_URL.');
  const worker = new ImportWorker({
    connection: t.redis.ioredis,
    prefix: t.keyPrefix,
    imports: t.app.get(ImportsService),
    concurrency: options.concurrency ?? 2,
    lockMs: 30_000,
    log: quiet,
  });
  await worker.waitUntilReady();
  return worker;
}
