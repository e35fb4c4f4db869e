import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestApp, type TestApp } from '../support/app.js';
import { signUp, type SignedUpUser } from '../support/users.js';

/**
 * A NUL (U+0000) anywhere in a request is a 400 that says so, on every route: PostgreSQL's text
 * cannot hold it, and before the check `GET /oauth/authorize?client_id=%00…` answered 500.
 */
let t: TestApp;
let player: SignedUpUser;

beforeAll(async () => {
  t = await createTestApp();
  player = await signUp(t);
});
afterAll(async () => {
  await t.close();
});

const NUL_MESSAGE = /contains a NUL character/;

describe('a NUL in a request', () => {
  it('in the query of /oauth/authorize (the fuzzer’s 500) is a 400', async () => {
    const res = await t.http().get('/api/v1/oauth/authorize?client_id=%00abc&response_type=code&redirect_uri=http%3A%2F%2Fx');
    expect(res.status).toBe(400);
    expect(res.body.description ?? res.body.message).toMatch(/The query string contains a NUL character/);
  });

  it('in the path is a 400', async () => {
    const res = await t.http().get('/api/v1/users/ab%00cd');
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toMatch(/The path contains a NUL character/);
  });

  it('in a JSON body string or key is a 400 naming where', async () => {
    const login = await t
      .http()
      .post('/api/v1/auth/login')
      .set('Content-Type', 'application/json')
      .send('{"username":"a\\u0000b","!password":"x","captcha":"x"}');
    expect(login.status).toBe(400);
    expect(JSON.stringify(login.body)).toMatch(/username: contains a NUL character/);
    const key = await t.http().post('/api/v1/auth/login').set('Content-Type', 'application/json').send('{"a\\u0000":1}');
    expect(key.status).toBe(400);
    expect(JSON.stringify(key.body)).toMatch(/a key contains a NUL character/);
  });

  it('in a form field is a 400', async () => {
    const res = await t.http().post('/api/v1/oauth/token').type('form').send('grant_type=authorization_code&code=%00&client_id=x');
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toMatch(/The request body\.code contains a NUL character/);
  });

  it('in a multipart text field is a 400', async () => {
    const png = Buffer.from('89504e470d0a1a0a', 'hex');
    const res = await player.agent.put(`/api/v1/users/${player.user.id}/pfp`).field('note', 'a\u0000b').attach('pfp', png, 'a.png');
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toMatch(/NUL character/);
  });

  it('in the session cookie is a 400', async () => {
    const res = await t.http().get('/api/v1/users/me').set('Cookie', 'score_tracker_session=s%3Aab%00cd');
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toMatch(/The Cookie header contains a NUL character/);
  });

  it('leaves the same requests without the NUL as they were', async () => {
    expect((await t.http().get('/api/v1/users/abcd')).status).toBe(404);
    expect((await t.http().get('/api/v1/users/me').set('Cookie', 'score_tracker_session=s%3Aabcd')).status).toBe(401);
  });

  it('in the query string is a 400 on every route of the API (guest and player), never a 500', async () => {
    const doc = (await t.http().get('/api/v1/docs.json')).body as { paths: Record<string, Record<string, unknown>> };
    const routes = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.keys(methods)
        .filter((m) => ['get', 'post', 'put', 'patch', 'delete'].includes(m))
        .map((m) => [m as 'get' | 'post' | 'put' | 'patch' | 'delete', path.replace(/\{[^}]+\}/g, '1')] as const),
    );
    expect(routes.length).toBeGreaterThan(100);
    const wrong: string[] = [];
    for (const [method, path] of routes) {
      for (const who of ['guest', 'player'] as const) {
        const url = `${path}?x=%00`;
        const client = who === 'guest' ? t.http() : player.agent;
        const res = await {
          get: () => client.get(url),
          post: () => client.post(url),
          put: () => client.put(url),
          patch: () => client.patch(url),
          delete: () => client.delete(url),
        }[method]();
        // USC's IR protocol answers its errors with HTTP 200 and its own code (40: bad request) in the body.
        const status = path.startsWith('/api/v1/ir/usc/') && res.status === 200 ? (res.body as { statusCode: number }).statusCode * 10 : res.status;
        if (status !== 400 || !NUL_MESSAGE.test(JSON.stringify(res.body))) wrong.push(`${who} ${method.toUpperCase()} ${path}: ${res.status}`);
      }
    }
    expect(wrong).toEqual([]);
  }, 120_000);
});
