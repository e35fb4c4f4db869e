import 'reflect-metadata';
import type { Server } from 'node:http';
import { createApp } from './app.factory.js';
import { loadConfig } from './config/app-config.js';
import { RedisConnections } from './common/redis.js';
import { BullmqImportQueue } from './imports/bullmq-import-queue.js';
import { InlineImportQueue, type ImportQueue } from './imports/import-queue.js';
import { webhookQueueFor } from './webhooks/bullmq-webhook-queue.js';
import { PolledWebhookQueue } from './webhooks/webhook-queue.js';
import { serveCliSocket } from './processes/cli-in-server.js';
import { openConfiguredDatabase, runMain } from './bootstrap.js';

await runMain(async () => {
  const config = loadConfig();
  const database = await openConfiguredDatabase(config, { replicas: true });
  await database.migrate();
  const redis = config.REDIS_URL ? await RedisConnections.connect(config.REDIS_URL, { onWait: (message) => console.warn(message) }) : null;
  // Workers must reach the database too: with the embedded one (this process's alone) imports stay in-process.
  const importQueue: ImportQueue =
    redis && database.kind === 'postgres' ? new BullmqImportQueue(redis.ioredis, config.REDIS_KEY_PREFIX) : new InlineImportQueue();
  // Webhook deliveries likewise: BullMQ jobs that every API and worker process runs, or this process's poll of the deliveries table.
  const webhookQueue = redis && database.kind === 'postgres' ? webhookQueueFor(redis.ioredis, config, true) : new PolledWebhookQueue();
  const app = await createApp({
    config,
    database,
    ownsDatabase: true,
    redis,
    keyPrefix: config.REDIS_KEY_PREFIX,
    importQueue,
    webhookQueue,
    onShutdown: async () => redis?.close(),
  });
  await app.listen(config.PORT, config.HOST);
  // On the embedded database, which this process holds alone, `npm run cli` sends its commands here (DATA_DIR/cli.sock).
  const cliSocket = database.kind === 'pglite' ? await serveCliSocket(app, database, config) : undefined;
  stopGracefully(
    app.getHttpServer() as Server,
    () => cliSocket?.close(),
    () => app.close(),
    config.SHUTDOWN_TIMEOUT_MS,
  );
  const imports = importQueue.mode === 'queue' ? 'imports queued for `npm run worker`' : 'imports run in-process';
  const storage =
    database.kind === 'pglite' ? `embedded database in ${config.dataDir}${cliSocket ? `, CLI commands through ${cliSocket.path}` : ''}` : 'PostgreSQL';
  // Printed whatever LOG_LEVEL is: the one line that says where the server is.
  console.log(
    `Score Tracker listening on http://${config.HOST}:${config.PORT}/ (the API under /api/v1, its docs at /api/v1/docs; ${storage}${redis ? ', Redis' : ''}, ${imports})`,
  );
});

/**
 * On SIGTERM or SIGINT: stop accepting connections (HTTP, and the CLI's socket), let the requests
 * and CLI commands in flight (inline imports among them) finish, then close the app (the database
 * last). After timeoutMs, or at a second signal, the process exits without them: their
 * transactions roll back.
 */
function stopGracefully(server: Server, closeCliSocket: () => Promise<void> | undefined, closeApp: () => Promise<void>, timeoutMs: number) {
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(1);
    stopping = true;
    console.log(`${signal}: finishing the requests and CLI commands in flight (at most ${timeoutMs} ms), then stopping.`);
    setTimeout(() => {
      console.error(`Requests still running after ${timeoutMs} ms: stopping without them.`);
      process.exit(1);
    }, timeoutMs).unref();
    // A kept-alive connection that finishes its request is idle: close it, so server.close() does not wait for the client to hang up.
    const idle = setInterval(() => server.closeIdleConnections(), 100);
    void (async () => {
      await Promise.all([new Promise<void>((resolve) => server.close(() => resolve())).then(() => clearInterval(idle)), closeCliSocket()]);
      await closeApp();
      console.log('Stopped.');
    })().catch((err: unknown) => {
      console.error(`Did not stop cleanly: ${String(err)}`);
      process.exit(1);
    });
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
