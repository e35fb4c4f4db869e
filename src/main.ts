import 'reflect-metadata';
import { createApp } from './app.factory.js';
import { loadConfig } from './config/app-config.js';
import { RedisConnections } from './common/redis.js';
import { BullmqImportQueue } from './imports/bullmq-import-queue.js';
import { InlineImportQueue, type ImportQueue } from './imports/import-queue.js';
import { openConfiguredDatabase, runMain } from './bootstrap.js';

await runMain(async () => {
  const config = loadConfig();
  const database = await openConfiguredDatabase(config);
  await database.migrate();
  const redis = config.REDIS_URL ? await RedisConnections.connect(config.REDIS_URL) : null;
  // Workers must reach the database too: with the embedded one (this process's alone) imports stay in-process.
  const importQueue: ImportQueue =
    redis && database.kind === 'postgres' ? new BullmqImportQueue(redis.ioredis, config.REDIS_KEY_PREFIX) : new InlineImportQueue();
  const app = await createApp({
    config,
    database,
    ownsDatabase: true,
    redis,
    keyPrefix: config.REDIS_KEY_PREFIX,
    importQueue,
    onShutdown: async () => redis?.close(),
  });
  app.enableShutdownHooks();
  await app.listen(config.PORT, config.HOST);
  const imports = importQueue.mode === 'queue' ? 'imports queued for `npm run worker`' : 'imports run in-process';
  console.log(
    `Score tracker listening on http://${config.HOST}:${config.PORT}/api/v1 (${database.kind === 'pglite' ? `embedded database in ${config.dataDir}` : 'PostgreSQL'}${redis ? ', Redis' : ''}, ${imports})`,
  );
});
