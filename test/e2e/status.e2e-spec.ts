import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { PERMISSIONS } from '../../src/common/permissions.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { bearer, issueToken, signUp } from '../support/users.js';

describe('GET/POST /status', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers a guest with whoami null, no permissions and the server times', async () => {
    const before = Date.now();
    const res = await t.http().get('/api/v1/status');
    expect(res.status).toBe(200);
    expect(res.body.whoami).toBeNull();
    expect(res.body.permissions).toEqual([]);
    expect(typeof res.body.version).toBe('string');
    expect(res.body.serverTime).toBeGreaterThanOrEqual(before);
    expect(res.body.startTime).toBeLessThanOrEqual(res.body.serverTime);
    expect(res.body).not.toHaveProperty('echo');
  });

  it('echoes the query on GET and the body on POST', async () => {
    expect((await t.http().get('/api/v1/status?echo=hello')).body.echo).toBe('hello');
    const post = await t.http().post('/api/v1/status').send({ echo: 'from body' });
    expect(post.status).toBe(200);
    expect(post.body.echo).toBe('from body');
  });

  it('shows a session all permissions and a token exactly its own', async () => {
    const u = await signUp(t);
    const session = await u.agent.get('/api/v1/status');
    expect(session.body.whoami).toBe(u.user.id);
    expect([...session.body.permissions].sort()).toEqual([...PERMISSIONS].sort());

    const token = await issueToken(u, ['submit_score', 'delete_score']);
    const viaToken = await t.http().get('/api/v1/status').set(bearer(token));
    expect(viaToken.body.whoami).toBe(u.user.id);
    expect([...viaToken.body.permissions].sort()).toEqual(['delete_score', 'submit_score']);
  });

  it('rejects a malformed or unknown bearer token with 401 instead of treating it as a guest', async () => {
    const unknown = await t
      .http()
      .get('/api/v1/status')
      .set(bearer('0'.repeat(40)));
    expect(unknown.status).toBe(401);
    const malformed = await t.http().get('/api/v1/status').set('Authorization', 'Basic abc');
    expect(malformed.status).toBe(401);
    expect(malformed.body.message).toMatch(/Bearer/);
  });

  it('gives 400 for a non-string echo and for unknown query parameters', async () => {
    expect((await t.http().post('/api/v1/status').send({ echo: 5 })).status).toBe(400);
    expect((await t.http().get('/api/v1/status?nope=1')).status).toBe(400);
  });
});
