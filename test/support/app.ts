import type { INestApplication } from '@nestjs/common';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { DestinationStream } from 'pino';
import request from 'supertest';
import { createApp } from '../../src/app.factory.js';
import { loadConfig, type AppConfig } from '../../src/config/app-config.js';
import { RedisConnections } from '../../src/common/redis.js';
import { BullmqImportQueue } from '../../src/imports/bullmq-import-queue.js';
import { InlineImportQueue } from '../../src/imports/import-queue.js';
import { webhookQueueFor } from '../../src/webhooks/bullmq-webhook-queue.js';
import { PolledWebhookQueue } from '../../src/webhooks/webhook-queue.js';
import { randomHex } from '../../src/common/crypto.js';
import { Database } from '../../src/database/database.js';
import { adminUrl, ensurePgliteTemplate, ensurePgTemplate } from './template-db.js';

export interface TestApp {
  app: INestApplication;
  database: Database;
  config: AppConfig;
  dataDir: string;
  /** The PostgreSQL database's URL (TEST_DATABASE_URL runs), for child processes such as a worker. */
  databaseUrl?: string;
  /** The Redis connections (TEST_REDIS_URL runs) and this app's key prefix there, which its import queue uses. */
  redis: RedisConnections | null;
  keyPrefix: string;
  /** A fresh supertest request (no cookies kept). */
  http: () => ReturnType<typeof request>;
  /** A cookie-keeping client, for session flows. */
  agent: () => InstanceType<typeof request.agent>;
  close: () => Promise<void>;
}

/** Where the suite runs: PGlite by default, or the PostgreSQL and Redis of TEST_DATABASE_URL / TEST_REDIS_URL. */
export const usingPostgres = Boolean(process.env.TEST_DATABASE_URL);
export const usingRedis = Boolean(process.env.TEST_REDIS_URL);

/** A fresh copy of the migrated template database (the template is built once per set of migrations). */
export async function openTestDatabase(): Promise<{ database: Database; url?: string; drop: () => Promise<void> }> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) {
    const dump = fs.readFileSync(await ensurePgliteTemplate());
    const database = await Database.open({ loadDataDir: new Blob([dump]) });
    return { database, drop: () => database.close() };
  }
  const template = await ensurePgTemplate(url);
  const name = `st_test_${process.pid}_${randomHex(4)}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`);
  await admin.end();
  const database = await Database.open({ url: adminUrl(url, name), poolSize: 5 });
  return {
    database,
    url: adminUrl(url, name),
    drop: async () => {
      await database.close();
      const cleanup = new pg.Client({ connectionString: url });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await cleanup.end();
    },
  };
}

/** The database of another test app: its own pool on PostgreSQL (as a second process has), the same engine on PGlite. */
async function sharedDatabase(other: TestApp): Promise<{ database: Database; url?: string; drop: () => Promise<void> }> {
  if (!other.databaseUrl) return { database: other.database, drop: async () => undefined };
  const database = await Database.open({ url: other.databaseUrl, poolSize: 5 });
  return { database, url: other.databaseUrl, drop: () => database.close() };
}

/**
 * Starts the real application on a fresh database. The /auth rate limits, the general limit and
 * the snapshot schedule are off unless a test turns them on through env. Logs are silent unless env sets LOG_LEVEL;
 * logDestination receives them (tests that read the request log). `importQueue: 'queue'` runs
 * imports through BullMQ on TEST_REDIS_URL (202 answers); test/support/import-worker.ts runs them.
 * Apps given the same keyPrefix are one deployment's processes. Webhooks are delivered by the
 * app's poll of the deliveries table, or with `webhookQueue: 'queue'` through BullMQ on
 * TEST_REDIS_URL; local receivers are allowed (WEBHOOKS_ALLOW_PRIVATE).
 */
export async function createTestApp(
  env: Record<string, string> = {},
  options: {
    logDestination?: DestinationStream;
    importQueue?: 'inline' | 'queue';
    webhookQueue?: 'polled' | 'queue';
    keyPrefix?: string;
    /** Run on this app's database (a second process of one deployment); the first app drops it. */
    shareDatabaseOf?: TestApp;
  } = {},
): Promise<TestApp> {
  if ((options.importQueue === 'queue' || options.webhookQueue === 'queue') && !process.env.TEST_REDIS_URL) throw new Error('Queue mode needs TEST_REDIS_URL.');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'st-test-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    PUBLIC_URL: 'http://127.0.0.1:3000',
    AUTH_RATE_LIMIT_FACTOR: '0',
    RATE_LIMIT_PER_MINUTE: '0',
    // No cron or boot-time snapshot behind a test's back; tests that need them turn it on.
    SNAPSHOT_SCHEDULE: 'false',
    // Webhook receivers in tests listen on 127.0.0.1.
    WEBHOOKS_ALLOW_PRIVATE: 'true',
    ...env,
  });
  const shared = options.shareDatabaseOf;
  // One deployment's processes on the embedded database share DATA_DIR, so its secrets key file, unless the test gives each its SECRETS_KEY.
  if (shared && !config.SECRETS_KEY && fs.existsSync(path.join(shared.dataDir, 'secrets.key')))
    fs.copyFileSync(path.join(shared.dataDir, 'secrets.key'), path.join(dataDir, 'secrets.key'));
  const { database, url: databaseUrl, drop } = shared ? await sharedDatabase(shared) : await openTestDatabase();
  const redis = process.env.TEST_REDIS_URL ? await RedisConnections.connect(process.env.TEST_REDIS_URL) : null;
  const keyPrefix = options.keyPrefix ?? `st-test-${randomHex(6)}`;
  const importQueue = options.importQueue === 'queue' && redis ? new BullmqImportQueue(redis.ioredis, keyPrefix) : new InlineImportQueue();
  const webhookQueue = options.webhookQueue === 'queue' && redis ? webhookQueueFor(redis.ioredis, config, true, keyPrefix) : new PolledWebhookQueue();
  const app = await createApp({ config, database, ownsDatabase: false, redis, keyPrefix, importQueue, webhookQueue, logDestination: options.logDestination });
  await app.init();
  const server = app.getHttpServer() as Parameters<typeof request>[0];
  return {
    app,
    database,
    config,
    dataDir,
    databaseUrl,
    redis,
    keyPrefix,
    http: () => request(server),
    agent: () => request.agent(server),
    close: async () => {
      await app.close();
      await redis?.close();
      await drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
