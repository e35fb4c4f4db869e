import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { pino } from 'pino';
import { openConfiguredDatabase, runMain } from './bootstrap.js';
import { RedisConnections } from './common/redis.js';
import { LogLevelSwitch } from './common/log-level-switch.js';
import { logDestination } from './common/log-output.js';
import { ConfigError, loadConfig } from './config/app-config.js';
import { BullmqImportQueue } from './imports/bullmq-import-queue.js';
import { ImportWorker } from './imports/import-worker.js';
import { ImportsService, STRANDED_IMPORT_AGE_MS } from './imports/imports.service.js';
import { PinoNestLogger } from './processes/pino-nest-logger.js';
import { WorkerModule } from './processes/worker.module.js';
import { webhookQueueFor } from './webhooks/bullmq-webhook-queue.js';

/** `npm run worker`: runs queued imports (and webhook deliveries). Start as many as needed, beside any number of API processes. */
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
  const destination = logDestination(config.LOG_FORMAT);
  const logOptions = { level: config.LOG_LEVEL, base: { process: 'import-worker' } };
  const log = destination ? pino(logOptions, destination) : pino(logOptions);
  const database = await openConfiguredDatabase(config);
  await database.migrate();
  const redis = await RedisConnections.connect(config.REDIS_URL, { onWait: (message) => log.warn(message) });
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
  const context = await NestFactory.createApplicationContext(
    WorkerModule.register({ config, database, ownsDatabase: true, importQueue, webhookQueue: webhookQueueFor(redis.ioredis, config, true) }),
    {
      logger: new PinoNestLogger(log),
      abortOnError: false,
    },
  );
  const worker = new ImportWorker({
    connection: redis.ioredis,
    prefix: config.REDIS_KEY_PREFIX,
    imports: context.get(ImportsService),
    concurrency: config.IMPORT_WORKER_CONCURRENCY,
    lockMs: config.IMPORT_JOB_LOCK_MS,
    log,
  });
  // The worker may take a job as soon as it exists: the signal handlers go in before any await, so a
  // SIGTERM never finds the process without them (it would die at once, without handing its job back).
  let stopping = false;
  /** Stops without the running imports: their jobs go back to the queue for another worker (at most 5 s of trying), and exiting rolls back their transactions. */
  const abandon = (why: string) => {
    setTimeout(() => process.exit(1), 5_000).unref();
    void worker
      .handBack()
      .then((n) => log.warn(`${why}: ${n} running import(s) handed back to the queue; stopping without them.`))
      .catch(() => log.warn(`${why}: stopping without the running imports; another worker retries them once their lock lapses.`))
      .finally(() => process.exit(1));
  };
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return abandon(`${signal} again`);
    stopping = true;
    log.info(`${signal}: finishing the running imports (at most ${config.SHUTDOWN_TIMEOUT_MS} ms), then stopping.`);
    setTimeout(() => abandon(`Imports still running after ${config.SHUTDOWN_TIMEOUT_MS} ms`), config.SHUTDOWN_TIMEOUT_MS).unref();
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
  // Queued imports whose job Redis lost (a restart without persistence) are enqueued again; existing jobs are left alone.
  const imports = context.get(ImportsService);
  const sweep = setInterval(() => {
    if (stopping) return clearInterval(sweep);
    imports
      .requeueStranded()
      .then((n) => n && log.debug(`${n} unfinished queued import(s) checked against the queue.`))
      .catch((err: Error) => log.warn(`Could not check the queued imports against the queue: ${err.message}`));
  }, STRANDED_IMPORT_AGE_MS);
  sweep.unref();

  await worker.waitUntilReady();
  log.info(`Import worker ready: ${config.IMPORT_WORKER_CONCURRENCY} at a time, queue ${config.REDIS_KEY_PREFIX}:imports.`);
});
