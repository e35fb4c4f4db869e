import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestApp, usingRedis, type TestApp } from '../support/app.js';
import { signUp } from '../support/users.js';

const API = '/api/v1';

/** With Redis gone, requests degrade (per-process rate limits, 503 for sessions) instead of hanging or failing with 500. */
(usingRedis ? describe : describe.skip)(usingRedis ? 'a Redis outage' : 'a Redis outage — skipped: TEST_REDIS_URL is not set', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ AUTH_RATE_LIMIT_FACTOR: '1' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('keeps the rate limits, per process, without waiting for Redis', async () => {
    t.redis!.rateLimits.disconnect();
    const started = Date.now();
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      statuses.push(
        (
          await t
            .http()
            .post(`${API}/auth/forgot-password`)
            .set('X-Forwarded-For', '198.51.100.200')
            .send({ email: `x${i}@example.test` })
        ).status,
      );
    }
    expect(statuses).toEqual([202, 202, 202, 429]);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('answers 503 to a request with a session while the session store is gone, and serves guests', async () => {
    const u = await signUp(t);
    expect((await u.agent.get(`${API}/status`)).body.whoami).toBe(u.user.id);
    t.redis!.sessions.destroy();
    const res = await u.agent.get(`${API}/status`);
    expect(res.status).toBe(503);
    expect(res.body.message).toMatch(/Sessions are unavailable/);
    expect((await t.http().get(`${API}/status`)).status).toBe(200);
    // A login without a session cookie opens its session on demand: the store's failure there is a 503 too, not a 500.
    const login = await t.http().post(`${API}/auth/login`).send({ username: u.username, '!password': u.password });
    expect(login.status).toBe(503);
    expect(login.body.message).toMatch(/Sessions are unavailable/);
  });
});
