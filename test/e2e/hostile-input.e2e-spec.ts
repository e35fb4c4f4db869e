import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Writable } from 'node:stream';
import { createTestApp, type TestApp } from '../support/app.js';
import { batchManual, importText, player, type Player } from '../support/imports.js';
import { bearer } from '../support/users.js';

/** A pino destination that keeps every log line. */
class LogCapture extends Writable {
  readonly raw: string[] = [];
  override _write(chunk: Buffer, _enc: BufferEncoding, done: () => void) {
    this.raw.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    done();
  }
  entry(requestId: string): Record<string, unknown> | undefined {
    return this.raw.map((line) => JSON.parse(line) as Record<string, unknown>).find((e) => (e.req as { id?: string } | undefined)?.id === requestId);
  }
}

/** `levels` arrays inside each other, as JSON text: [[[…]]]. */
const nested = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;

const SCORE = { score: 9_000_000, lamp: 'CLEAR', matchType: 'sdvxInGameID', identifier: '1', difficulty: 'EXH', timeAchieved: 1_700_000_000_000 };

/** One app for the file: nestjs-pino keeps the first app's log destination for the whole process. */
let t: TestApp;
let p: Player;
const logs = new LogCapture();

beforeAll(async () => {
  t = await createTestApp({ LOG_LEVEL: 'info' }, { logDestination: logs });
  p = await player(t);
});
afterAll(async () => {
  await t.close();
});

describe('hostile JSON input', () => {
  it('answers 400 to a body nested 100,000 levels deep, logs it, and keeps serving', async () => {
    for (const [id, body] of [
      ['deep-array', nested(100_000)],
      ['deep-object', `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`],
    ]) {
      const res = await t.http().post('/api/v1/status').set('Content-Type', 'application/json').set('X-Request-Id', id).send(body);
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/nested more than 64 levels/);
      expect(logs.entry(id)).toMatchObject({ res: { statusCode: 400 } });
    }
    expect((await t.http().get('/api/v1/status')).status).toBe(200);
  });

  it('answers 400 to a deeply nested direct-manual body and scoreData file', async () => {
    const deep = JSON.stringify(batchManual('sdvx', 'Single', [{ ...SCORE, scoreMeta: { x: 0 } }])).replace('{"x":0}', `{"x":${nested(200)}}`);
    const body = await t.http().post('/api/v1/ir/direct-manual/import').set(bearer(p.token)).set('Content-Type', 'application/json').send(deep);
    expect(body.status).toBe(400);
    expect(body.body.message).toMatch(/nested more than 64 levels/);
    const file = await importText(t, p.token, deep);
    expect(file.status).toBe(400);
    expect(file.body.message).toMatch(/scoreData file cannot be accepted: The JSON is nested more than 64 levels/);
  });

  it('answers 400, not 500, to a lone surrogate in an import score, naming where it is', async () => {
    const text = JSON.stringify(batchManual('sdvx', 'Single', [SCORE, { ...SCORE, identifier: 'LONE' }])).replace('"LONE"', '"12\\ud800"');
    const file = await importText(t, p.token, text);
    expect(file.status).toBe(400);
    expect(file.body.message).toMatch(/scores\[1\]\.identifier: contains a lone surrogate/);
    const body = await t.http().post('/api/v1/ir/direct-manual/import').set(bearer(p.token)).set('Content-Type', 'application/json').send(text);
    expect(body.status).toBe(400);
    expect(body.body.message).toMatch(/scores\[1\]\.identifier: contains a lone surrogate/);
  });

  it('answers 400 to a lone surrogate anywhere in a JSON body, in keys too', async () => {
    const value = await p.agent.patch(`/api/v1/users/${p.user.id}`).set('Content-Type', 'application/json').send('{"status": "hi \\udc00 there"}');
    expect(value.status).toBe(400);
    expect(value.body.message).toMatch(/status: contains a lone surrogate/);
    const key = await t.http().post('/api/v1/status').set('Content-Type', 'application/json').send('{"\\ud83d": 1}');
    expect(key.status).toBe(400);
    expect(key.body.message).toMatch(/lone surrogate/);
    // A whole pair is fine.
    const pair = await p.agent.patch(`/api/v1/users/${p.user.id}`).send({ status: 'hi 😀 there' });
    expect(pair.status).toBe(200);
  });
});

describe('request log redaction', () => {
  it('redacts secrets, codes, tokens, passwords and captchas at any depth', async () => {
    await t.http().post('/api/v1/oauth/token').set('X-Request-Id', 'redact-token-exchange').send({
      client_id: 'CIvisible',
      client_secret: 'CS-hidden-1',
      code: 'code-hidden-2',
      redirect_uri: 'https://example.test/cb',
      grant_type: 'authorization_code',
    });
    const entry = logs.entry('redact-token-exchange');
    expect(entry?.body).toEqual({
      client_id: 'CIvisible',
      client_secret: '[redacted]',
      code: '[redacted]',
      redirect_uri: 'https://example.test/cb',
      grant_type: 'authorization_code',
    });

    await t
      .http()
      .post('/api/v1/status')
      .set('X-Request-Id', 'redact-nested')
      .send({ echo: 'kept', nested: { newPassword: 'pw-hidden-3', list: [{ apiToken: 'tok-hidden-4', fine: true }] } });
    expect(logs.entry('redact-nested')?.body).toEqual({ echo: 'kept', nested: { newPassword: '[redacted]', list: [{ apiToken: '[redacted]', fine: true }] } });

    const everything = logs.raw.join('\n');
    for (const secret of ['CS-hidden-1', 'code-hidden-2', 'pw-hidden-3', 'tok-hidden-4']) expect(everything).not.toContain(secret);
  });

  it('replaces subtrees past the depth limit with a marker instead of logging them', async () => {
    await t
      .http()
      .post('/api/v1/status')
      .set('X-Request-Id', 'redact-deep')
      .send({ a: { b: { c: { d: { e: { f: { g: 'deep-value-5' } } } } } } });
    expect(logs.entry('redact-deep')?.body).toEqual({ a: { b: { c: { d: { e: { f: '[nested too deeply]' } } } } } });
    expect(logs.raw.join('\n')).not.toContain('deep-value-5');
  });
});
