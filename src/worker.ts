import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { pino } from 'pino';
import { openConfiguredDatabase, runMain } from './bootstrap.js';
import { RedisConnections } from './common/redis.js';
import { LogLevelSwitch } from './common/log-level-switch.js';
import { ConfigError, loadConfig } from './config/app-config.js';
import { BullmqImportQueue } from './imports/bullmq-import-queue.js';
import { ImportWorker } from './imports/import-worker.js';
import { ImportsService } from './imports/imports.service.js';
import { PinoNestLogger } from './processes/pino-nest-logger.js';
import { WorkerModule } from './processes/worker.module.js';

/** `npm run worker`: runs queued imports. Start as many as needed, beside any number of API processes. */
await runMain(async () => {
  const config = loadConfig();
  if (!config.REDIS_URL)
    throw new ConfigError(
      'REDIS_URL is not set. The import worker takes its jobs from the BullMQ queue in Redis; without REDIS_URL the API runs imports itself.',
    );
  if (!config.DATABASE_URL)
    throw new ConfigError(
      "DATABASE_URL is not set. The import worker shares the API's PostgreSQL database; the embedded database belongs to the API process alone.",
    );
  const log = pino({ level: config.LOG_LEVEL, base: { process: 'import-worker' } });
  const database = await openConfiguredDatabase(config);
  await database.migrate();
  const redis = await RedisConnections.connect(config.REDIS_URL);
  // POST /admin/change-log-level on any API process reaches this worker through Redis.
  const logLevel = new LogLevelSwitch(() => log, config.LOG_LEVEL, {
    publisher: redis.rateLimits,
    subscriber: redis.subscriber,
    keyPrefix: config.REDIS_KEY_PREFIX,
  });
  await logLevel.start();
  // runQueued never enqueues; the service is built with the queue mode the API runs in.
  const importQueue = new BullmqImportQueue(redis.ioredis, config.REDIS_KEY_PREFIX);
  // Closing the context closes the queue and the database; Redis is closed after it.
  const context = await NestFactory.createApplicationContext(WorkerModule.register({ config, database, ownsDatabase: true, importQueue }), {
    logger: new PinoNestLogger(log),
    abortOnError: false,
  });
  const worker = new ImportWorker({
    connection: redis.ioredis,
    prefix: config.REDIS_KEY_PREFIX,
    imports: context.get(ImportsService),
    concurrency: config.IMPORT_WORKER_CONCURRENCY,
    lockMs: config.IMPORT_JOB_LOCK_MS,
    log,
  });
  await worker.waitUntilReady();
  log.info(`Import worker ready: ${config.IMPORT_WORKER_CONCURRENCY} at a time, queue ${config.REDIS_KEY_PREFIX}:imports.`);

  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    // A second signal does not wait: the running imports roll back and are retried by another worker.
    if (stopping) process.exit(1);
    stopping = true;
    log.info(`${signal}: finishing the running imports (at most ${config.SHUTDOWN_TIMEOUT_MS} ms), then stopping.`);
    // Past the timeout the running imports roll back; their jobs stay in the queue and another worker retries them once their lock lapses.
    setTimeout(() => {
      log.warn(`Imports still running after ${config.SHUTDOWN_TIMEOUT_MS} ms: stopping without them.`);
      process.exit(1);
    }, config.SHUTDOWN_TIMEOUT_MS).unref();
    void (async () => {
      await worker.close();
      await context.close();
      logLevel.stop();
      await redis.close();
      log.info('Import worker stopped.');
    })().catch((err: unknown) => {
      log.error(`Import worker did not stop cleanly: ${String(err)}`);
      process.exitCode = 1;
    });
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
});
