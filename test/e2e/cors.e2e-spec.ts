import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestApp, type TestApp } from '../support/app.js';
import { signUp, type SignedUpUser } from '../support/users.js';

const WEB = 'https://web.example.com';
const DEV = 'http://localhost:5173';
const OTHER = 'https://elsewhere.example.com';

/** CORS_ORIGINS: the listed origins may call with credentials; every other origin only without them. */
describe('CORS with CORS_ORIGINS', () => {
  let t: TestApp;
  let alice: SignedUpUser;

  beforeAll(async () => {
    t = await createTestApp({ CORS_ORIGINS: `${WEB}, ${DEV}` });
    alice = await signUp(t);
  });
  afterAll(async () => {
    await t.close();
  });

  it.each([WEB, DEV])('lets %s send credentials: its own origin back, Allow-Credentials, Vary: Origin', async (origin) => {
    const preflight = await t
      .http()
      .options('/api/v1/users/me')
      .set('Origin', origin)
      .set('Access-Control-Request-Method', 'PATCH')
      .set('Access-Control-Request-Headers', 'content-type');
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe(origin);
    expect(preflight.headers['access-control-allow-credentials']).toBe('true');
    expect(preflight.headers['access-control-allow-methods']).toContain('PATCH');
    expect(preflight.headers.vary).toMatch(/Origin/);

    const res = await alice.agent.get('/api/v1/status').set('Origin', origin);
    expect(res.status).toBe(200);
    expect(res.body.whoami).toBe(alice.user.id);
    expect(res.headers['access-control-allow-origin']).toBe(origin);
    expect(res.headers['access-control-allow-credentials']).toBe('true');
    expect(res.headers.vary).toMatch(/Origin/);
  });

  it('gives any other origin (or a look-alike) the wildcard, never credentials', async () => {
    for (const origin of [OTHER, `${WEB}.evil.example`, 'https://web.example.com:8443', 'http://web.example.com', 'null']) {
      const res = await alice.agent.get('/api/v1/status').set('Origin', origin);
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(res.headers['access-control-allow-credentials']).toBeUndefined();
      expect(res.headers.vary).toMatch(/Origin/);
      const preflight = await t.http().options('/api/v1/users/me').set('Origin', origin).set('Access-Control-Request-Method', 'PATCH');
      expect(preflight.headers['access-control-allow-origin']).toBe('*');
      expect(preflight.headers['access-control-allow-credentials']).toBeUndefined();
      expect(preflight.headers.vary).toMatch(/Origin/);
    }
  });

  it('answers a request without Origin as before', async () => {
    const res = await t.http().get('/api/v1/status');
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
  });
});
