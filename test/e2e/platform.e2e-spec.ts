import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Writable } from 'node:stream';
import sharp from 'sharp';
import { createTestApp, type TestApp } from '../support/app.js';
import { signUp, type SignedUpUser } from '../support/users.js';

/** A pino destination that keeps every log line, parsed. */
class LogCapture extends Writable {
  readonly raw: string[] = [];
  override _write(chunk: Buffer, _enc: BufferEncoding, done: () => void) {
    this.raw.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    done();
  }
  entries(): Record<string, unknown>[] {
    return this.raw.map((line) => JSON.parse(line) as Record<string, unknown>);
  }
}

describe('plain responses, errors and request handling', () => {
  let t: TestApp;
  let alice: SignedUpUser;
  const logs = new LogCapture();

  beforeAll(async () => {
    t = await createTestApp({ LOG_LEVEL: 'info', BODY_LIMIT_BYTES: '2048' }, { logDestination: logs });
    alice = await signUp(t, { username: 'Alice_Platform' });
  });
  afterAll(async () => {
    await t.close();
  });

  describe('error shape (API_ENVELOPE=plain)', () => {
    it('answers successes with the bare object', async () => {
      const res = await t.http().get('/api/v1/status');
      expect(res.status).toBe(200);
      expect(res.body).not.toHaveProperty('success');
      expect(res.body).toHaveProperty('serverTime');
    });

    it('answers errors with {statusCode, error, message}', async () => {
      const res = await t.http().get('/api/v1/users/nobody_at_all');
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ statusCode: 404, error: 'Not Found', message: 'The user nobody_at_all does not exist.' });
    });

    it('is 404 in the same shape for an unknown route, whatever the method', async () => {
      for (const method of ['get', 'post', 'delete'] as const) {
        const res = await t.http()[method]('/api/v1/no/such/route');
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ statusCode: 404, error: 'Not Found', message: expect.stringContaining('/api/v1/no/such/route') });
      }
    });

    it('is 400 for a malformed JSON body, with the parser’s reason', async () => {
      const res = await t.http().post('/api/v1/status').set('Content-Type', 'application/json').send('{"echo": "unterminated');
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ statusCode: 400, error: 'Bad Request', message: expect.stringMatching(/^Malformed JSON body/) });
    });

    it('is 400 for a JSON body that is not an object', async () => {
      const res = await t.http().post('/api/v1/status').set('Content-Type', 'application/json').send('[1, 2]');
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/must be a JSON object/);
    });

    it('is 413 for a body over BODY_LIMIT_BYTES, JSON or form', async () => {
      const big = 'x'.repeat(4096);
      const json = await t.http().post('/api/v1/status').send({ echo: big });
      expect(json.status).toBe(413);
      expect(json.body).toEqual({ statusCode: 413, error: 'Payload Too Large', message: expect.stringMatching(/too large/) });
      const form = await t.http().post('/api/v1/status').type('form').send(`echo=${big}`);
      expect(form.status).toBe(413);
      // Just under the limit is fine.
      expect(
        (
          await t
            .http()
            .post('/api/v1/status')
            .send({ echo: 'x'.repeat(1000) })
        ).status,
      ).toBe(200);
    });

    it('is 400, not 500, for text the database cannot store (a NUL character)', async () => {
      const inBody = await alice.agent.post('/api/v1/clients/create').send({ name: 'nul\u0000name', permissions: ['submit_score'] });
      expect(inBody.status).toBe(400);
      expect(inBody.body.message).toMatch(/NUL character/);
      expect((await t.http().get('/api/v1/users/ab%00cd')).status).toBe(400);
    });
  });

  describe('CORS without CORS_ORIGINS (the default)', () => {
    it('lets every origin call without credentials, and none with them', async () => {
      for (const origin of ['https://web.example.com', 'http://localhost:5173']) {
        const res = await t.http().get('/api/v1/status').set('Origin', origin);
        expect(res.headers['access-control-allow-origin']).toBe('*');
        expect(res.headers['access-control-allow-credentials']).toBeUndefined();
        const preflight = await t.http().options('/api/v1/users/me').set('Origin', origin).set('Access-Control-Request-Method', 'PATCH');
        expect(preflight.status).toBe(204);
        expect(preflight.headers['access-control-allow-origin']).toBe('*');
        expect(preflight.headers['access-control-allow-credentials']).toBeUndefined();
      }
    });
  });

  describe('request ids', () => {
    it('returns a fresh X-Request-Id on every response', async () => {
      const a = await t.http().get('/api/v1/status');
      const b = await t.http().get('/api/v1/status');
      expect(a.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(b.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(a.headers['x-request-id']).not.toBe(b.headers['x-request-id']);
    });

    it('echoes a sane incoming id and replaces an unsafe one', async () => {
      const sane = await t.http().get('/api/v1/status').set('X-Request-Id', 'trace-abc.123_XYZ');
      expect(sane.headers['x-request-id']).toBe('trace-abc.123_XYZ');
      const unsafe = await t.http().get('/api/v1/status').set('X-Request-Id', 'bad id with spaces <script>');
      expect(unsafe.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      const tooLong = await t.http().get('/api/v1/status').set('X-Request-Id', 'a'.repeat(200));
      expect(tooLong.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    });

    it('is sent on error responses too', async () => {
      const res = await t.http().get('/api/v1/no/such/route').set('X-Request-Id', 'err-req-1');
      expect(res.headers['x-request-id']).toBe('err-req-1');
    });
  });

  describe('request log', () => {
    it('logs each request with its id, never a body key that starts with ! nor its value, nor a captcha', async () => {
      const password = 'Sup3r-Secret-Value-4242';
      const res = await t
        .http()
        .post('/api/v1/auth/login')
        .set('X-Request-Id', 'login-log-check')
        .send({ username: 'alice_platform', '!password': password, captcha: 'visible-captcha-value' });
      expect(res.status).toBe(401);

      const entry = logs.entries().find((e) => (e.req as { id?: string } | undefined)?.id === 'login-log-check');
      expect(entry).toBeDefined();
      expect(entry).toMatchObject({ req: { method: 'POST', url: '/api/v1/auth/login' }, res: { statusCode: 401 } });
      expect(entry!.body).toEqual({ username: 'alice_platform', captcha: '[redacted]' });

      const everything = logs.raw.join('\n');
      expect(everything).not.toContain('!password');
      expect(everything).not.toContain(password);
      expect(everything).not.toContain('visible-captcha-value');
    });

    it('drops private keys at any depth and never logs request headers', async () => {
      await t
        .http()
        .post('/api/v1/status')
        .set('X-Request-Id', 'nested-log-check')
        .set('Authorization', 'Bearer abcdef0123456789')
        .send({ echo: 'kept', nested: { '!secret': 'deep-secret-value', visible: 1 } });
      const entry = logs.entries().find((e) => (e.req as { id?: string } | undefined)?.id === 'nested-log-check');
      expect(entry).toBeDefined();
      expect(entry!.body).toEqual({ echo: 'kept', nested: { visible: 1 } });
      const everything = logs.raw.join('\n');
      expect(everything).not.toContain('deep-secret-value');
      expect(everything).not.toContain('abcdef0123456789');
    });
  });

  describe(':userID resolution', () => {
    it('accepts the numeric id, the username in any case, and `me`', async () => {
      for (const param of [String(alice.user.id), 'Alice_Platform', 'alice_platform', 'ALICE_PLATFORM']) {
        const res = await t.http().get(`/api/v1/users/${param}`);
        expect([param, res.status]).toEqual([param, 200]);
        expect(res.body.id).toBe(alice.user.id);
      }
      const me = await alice.agent.get('/api/v1/users/me');
      expect(me.status).toBe(200);
      expect(me.body.username).toBe('Alice_Platform');
    });

    it('is 401 for `me` as a guest', async () => {
      const res = await t.http().get('/api/v1/users/me');
      expect(res.status).toBe(401);
      expect(res.body.message).toMatch(/'me'/);
    });

    it('is 404 for an unknown id or username, including ids beyond 32 bits', async () => {
      for (const param of ['999999', 'no_such_user', '99999999999999999999']) {
        const res = await t.http().get(`/api/v1/users/${param}`);
        expect([param, res.status]).toEqual([param, 404]);
        expect(res.body.message).toMatch(/does not exist/);
      }
    });
  });

  describe('OpenAPI', () => {
    it('serves an OpenAPI document at /api/v1/docs.json describing the routes', async () => {
      const res = await t.http().get('/api/v1/docs.json');
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/json/);
      expect(res.body.openapi).toMatch(/^3\./);
      expect(res.body.info.title).toBeTruthy();
      for (const path of ['/api/v1/status', '/api/v1/clients/create', '/api/v1/oauth/token', '/api/v1/users/{userID}/api-tokens']) {
        expect(Object.keys(res.body.paths as object)).toContain(path);
      }
      expect(Object.keys(res.body.paths['/api/v1/oauth/token'].post.requestBody.content as object)).toEqual(
        expect.arrayContaining(['application/json', 'application/x-www-form-urlencoded']),
      );
    });
  });
});

describe('API_ENVELOPE=tachi', () => {
  let t: TestApp;
  let bob: SignedUpUser;

  beforeAll(async () => {
    t = await createTestApp({ API_ENVELOPE: 'tachi', BODY_LIMIT_BYTES: '2048' });
    const res = await t
      .http()
      .post('/api/v1/auth/register')
      .send({ username: 'bob_tachi', '!password': 'long-enough-pw', email: 'bob@tachi.test', captcha: 'x' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, description: expect.any(String), body: { username: 'bob_tachi' } });
    const agent = t.agent();
    expect((await agent.post('/api/v1/auth/login').send({ username: 'bob_tachi', '!password': 'long-enough-pw', captcha: 'x' })).status).toBe(200);
    bob = { user: res.body.body, username: 'bob_tachi', password: 'long-enough-pw', email: 'bob@tachi.test', agent };
  });
  afterAll(async () => {
    await t.close();
  });

  it('wraps a success as {success: true, description, body}', async () => {
    const res = await t.http().get('/api/v1/status?echo=hi');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, description: expect.any(String), body: expect.objectContaining({ echo: 'hi', whoami: null }) });
  });

  it('wraps an empty result as body {}', async () => {
    const client = await bob.agent.post('/api/v1/clients/create').send({ name: 'Envelope test', permissions: ['submit_score'] });
    expect(client.body.success).toBe(true);
    const res = await bob.agent.delete(`/api/v1/clients/${client.body.body.clientID}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, description: expect.any(String), body: {} });
  });

  it('answers errors as {success: false, description} with the right status', async () => {
    const cases = [
      [await t.http().get('/api/v1/users/nobody_here'), 404],
      [await t.http().get('/api/v1/users/me'), 401],
      [await t.http().get('/api/v1/no/such/route'), 404],
      [await t.http().post('/api/v1/status').set('Content-Type', 'application/json').send('{bad json'), 400],
      [
        await t
          .http()
          .post('/api/v1/status')
          .send({ echo: 'x'.repeat(4096) }),
        413,
      ],
      [await bob.agent.post('/api/v1/clients/create').send({ name: 'x' }), 400],
    ] as const;
    for (const [res, status] of cases) {
      expect(res.status).toBe(status);
      expect(res.body).toEqual({ success: false, description: expect.any(String) });
      expect(res.body.description.length).toBeGreaterThan(0);
    }
  });

  it('leaves non-JSON answers unwrapped: images and the OpenAPI document', async () => {
    const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#00ff00' } })
      .png()
      .toBuffer();
    const put = await bob.agent.put('/api/v1/users/me/pfp').attach('pfp', png, 'p.png');
    expect(put.status).toBe(200);
    expect(put.body).toEqual({ success: true, description: expect.any(String), body: { get: expect.any(String) } });
    const image = await t.http().get(`/api/v1/users/${bob.user.id}/pfp`).buffer(true);
    expect(image.status).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect((await sharp(image.body as Buffer).metadata()).format).toBe('png');

    const docs = await t.http().get('/api/v1/docs.json');
    expect(docs.status).toBe(200);
    expect(docs.body.openapi).toMatch(/^3\./);
  });
});
