import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import { createTestApp, usingRedis, type TestApp } from '../support/app.js';

const READY = '/api/v1/status/ready';

describe('GET /status/ready', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers 200 with each dependency ok (Redis: not configured without REDIS_URL)', async () => {
    const res = await t.http().get(READY);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ database: 'ok', redis: usingRedis ? 'ok' : 'not configured' });
  });
});

describe('GET /status/ready while the database is unreachable', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    // The database is already closed: close the rest by hand.
    await t.app.close();
    await t.redis?.close();
    fs.rmSync(t.dataDir, { recursive: true, force: true });
  });

  it('answers 503 naming the database, while /status still answers 200', async () => {
    await t.database.close();
    const res = await t.http().get(READY);
    expect(res.status).toBe(503);
    expect(res.body.message).toMatch(/^Not ready: database unreachable/);
    expect(res.body.message).not.toMatch(/Redis/);
    expect((await t.http().get('/api/v1/status')).status).toBe(200);
  });
});

(usingRedis ? describe : describe.skip)(
  usingRedis ? 'GET /status/ready while Redis is unreachable' : 'Redis readiness — skipped: TEST_REDIS_URL is not set',
  () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp();
    });
    afterAll(async () => {
      await t.close();
    });

    it('answers 503 naming Redis at once, and 200 again once Redis is back', async () => {
      t.redis!.rateLimits.disconnect();
      const started = Date.now();
      const res = await t.http().get(READY);
      expect(res.status).toBe(503);
      expect(res.body.message).toMatch(/^Not ready: Redis unreachable/);
      expect(Date.now() - started).toBeLessThan(3000);
      await t.redis!.rateLimits.connect();
      expect((await t.http().get(READY)).status).toBe(200);
    });
  },
);
