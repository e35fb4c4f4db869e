import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { PinoLogger } from 'nestjs-pino';
import { pino, type Logger } from 'pino';
import { randomHex } from '../../src/common/crypto.js';
import { LogLevelSwitch } from '../../src/common/log-level-switch.js';
import { RedisConnections } from '../../src/common/redis.js';
import { createTestApp, usingRedis, type TestApp } from '../support/app.js';
import { makeAdmin } from '../support/db-fixtures.js';
import { signUp, type SignedUpUser } from '../support/users.js';

async function waitFor(check: () => boolean, ms = 5000) {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error('Timed out waiting for the log level.');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * POST /admin/change-log-level reaches every process of the deployment through Redis: two API
 * apps and a worker's log level switch (what `npm run worker` runs, with its own pino logger and
 * Redis connections) sharing one key prefix. The API apps of one test process share nestjs-pino's
 * root logger, so the worker's logger is the one that proves a change crossed Redis.
 */
(usingRedis ? describe : describe.skip)(
  usingRedis ? 'the log level across processes' : 'the log level across processes — skipped: TEST_REDIS_URL is not set',
  () => {
    const keyPrefix = `st-test-${randomHex(6)}`;
    let a: TestApp;
    let b: TestApp;
    let admin: SignedUpUser;
    let workerRedis: RedisConnections;
    let workerLog: Logger;
    let worker: LogLevelSwitch;

    beforeAll(async () => {
      a = await createTestApp({}, { keyPrefix, logDestination: { write: () => undefined } });
      b = await createTestApp({}, { keyPrefix, logDestination: { write: () => undefined } });
      admin = await signUp(a);
      await makeAdmin(a, admin.user.id);
      workerRedis = await RedisConnections.connect(process.env.TEST_REDIS_URL!);
      workerLog = pino({ level: 'info' }, { write: () => undefined });
      worker = new LogLevelSwitch(() => workerLog, 'info', {
        publisher: workerRedis.rateLimits,
        subscriber: workerRedis.subscriber,
        keyPrefix,
      });
      await worker.start();
    });
    afterAll(async () => {
      worker.stop();
      await workerRedis.close();
      await b.close();
      await a.close();
    });

    it('applies a change made through one API process in the worker, then resets each to its configured level', async () => {
      const res = await admin.agent.post('/api/v1/admin/change-log-level').send({ logLevel: 'debug', duration: 0.01 });
      expect(res.status).toBe(200);
      expect(PinoLogger.root.level).toBe('trace');
      await waitFor(() => workerLog.level === 'trace');
      // 0.01 minutes: each process resets on its own, to its own configured level.
      await waitFor(() => workerLog.level === 'info');
      await waitFor(() => PinoLogger.root.level === 'silent');
    });

    it('applies a change published by another process in the API processes, with noReset keeping it', async () => {
      await worker.change({ level: 'warn', resetAt: null });
      expect(workerLog.level).toBe('warn');
      await waitFor(() => PinoLogger.root.level === 'warn');
      await new Promise((resolve) => setTimeout(resolve, 700));
      expect(PinoLogger.root.level).toBe('warn');
      expect(workerLog.level).toBe('warn');
    });

    it('does not cross to another deployment (another key prefix)', async () => {
      const otherLog = pino({ level: 'info' }, { write: () => undefined });
      const other = new LogLevelSwitch(() => otherLog, 'info', {
        publisher: workerRedis.rateLimits,
        subscriber: workerRedis.subscriber,
        keyPrefix: `${keyPrefix}-other`,
      });
      await other.change({ level: 'error', resetAt: null });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(PinoLogger.root.level).toBe('warn');
      expect(workerLog.level).toBe('warn');
    });
  },
);
