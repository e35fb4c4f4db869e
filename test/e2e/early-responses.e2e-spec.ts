import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { createTestApp, type TestApp } from '../support/app.js';
import { issueToken, signUp } from '../support/users.js';

interface Outcome {
  status?: number;
  connection?: string;
  body: string;
  /** A socket error (ECONNRESET, EPIPE) seen before the answer was complete, or within 500 ms after it. */
  error?: string;
}

/**
 * Sends `size` bytes with a real Node client, as fast as the server takes them, and reports what
 * the client saw. `close` sends `Connection: close` (a client without keep-alive).
 */
function send(port: number, method: string, path: string, size: number, options: { type: string; close: boolean }): Promise<Outcome> {
  return new Promise((resolve) => {
    const outcome: Outcome = { body: '' };
    const settle = () => setTimeout(() => resolve(outcome), 500);
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        headers: { 'Content-Type': options.type, 'Content-Length': size },
        agent: options.close ? false : new http.Agent({ keepAlive: true }),
      },
      (res) => readAnswer(res, outcome, settle),
    );
    req.on('error', (err: NodeJS.ErrnoException) => {
      outcome.error ??= err.code;
      settle();
    });
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    let sent = 0;
    const pump = () => {
      while (sent < size) {
        const n = Math.min(chunk.length, size - sent);
        sent += n;
        if (!req.write(chunk.subarray(0, n))) return void req.once('drain', pump);
      }
      req.end();
    };
    req.on('error', () => undefined);
    pump();
  });
}

interface BodyRequest {
  path: string;
  headers: Record<string, string>;
  size: number;
  chunked: boolean;
  /** Pause between 64 KB pieces (0: as fast as the server takes them). */
  pauseMs: number;
}

const PIECE = Buffer.alloc(64 * 1024, 0x61);

/** Sends `size` bytes in 64 KB pieces, framed as chunks or not, pausing `pauseMs` between pieces. */
async function writeBody(write: (piece: Buffer) => Promise<void>, r: BodyRequest): Promise<void> {
  for (let sent = 0; sent < r.size; sent += PIECE.length) {
    const piece = PIECE.subarray(0, Math.min(PIECE.length, r.size - sent));
    await write(r.chunked ? Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n')]) : piece);
    if (r.pauseMs) await new Promise((resolve) => setTimeout(resolve, r.pauseMs));
  }
  if (r.chunked) await write(Buffer.from('0\r\n\r\n'));
}

/**
 * A DELETE over a raw socket from a client that reads nothing until it has sent its whole request,
 * as many HTTP libraries do: an answer the server resets before the client reads it is lost (the
 * kernel drops it with the connection), and the client sees EPIPE or ECONNRESET instead.
 */
function deleteThenRead(port: number, r: BodyRequest): Promise<Outcome> {
  return new Promise((resolve) => {
    const outcome: Outcome = { body: '' };
    let received = '';
    const socket = net.connect(port, '127.0.0.1');
    socket.pause();
    socket.on('error', (err: NodeJS.ErrnoException) => (outcome.error ??= err.code));
    socket.on('close', () => {
      const match = /^HTTP\/1\.1 (\d{3}) [^\r]*\r\n([\s\S]*?)\r\n\r\n([\s\S]*)$/.exec(received);
      if (match) {
        outcome.status = Number(match[1]);
        outcome.connection = /^connection: *(.*)$/im.exec(match[2])?.[1];
        outcome.body = match[3];
      }
      resolve(outcome);
    });
    const framing = r.chunked ? { 'Transfer-Encoding': 'chunked' } : { 'Content-Length': String(r.size) };
    const head = Object.entries({ Host: `127.0.0.1:${port}`, ...r.headers, ...framing }).map(([name, value]) => `${name}: ${value}\r\n`);
    const write = (piece: Buffer) =>
      new Promise<void>((done, fail) => {
        if (socket.destroyed) return fail(new Error('closed'));
        if (socket.write(piece)) return done();
        const closed = () => {
          socket.off('drain', drained);
          fail(new Error('closed'));
        };
        const drained = () => {
          socket.off('close', closed);
          done();
        };
        socket.once('drain', drained).once('close', closed);
      });
    write(Buffer.from(`DELETE ${r.path} HTTP/1.1\r\n${head.join('')}\r\n`))
      .then(() => writeBody(write, r))
      .then(
        () => {
          // Everything is sent: now read the answer. The test's client then hangs up (the server closes, or keeps the connection alive).
          socket.on('data', (chunk: Buffer) => {
            received += chunk.toString('latin1');
            const head = received.indexOf('\r\n\r\n');
            const length = /^content-length: *(\d+)/im.exec(received.slice(0, head))?.[1];
            if (head >= 0 && length !== undefined && received.length >= head + 4 + Number(length)) socket.end();
          });
          socket.resume();
        },
        () => socket.resume(),
      );
  });
}

/** The same DELETE from node:http, which reads the answer while it sends, and stops sending once it has it. */
function deleteWhileReading(port: number, r: BodyRequest): Promise<Outcome> {
  return new Promise((resolve) => {
    const outcome: Outcome = { body: '' };
    let answered = false;
    const settle = () => setTimeout(() => resolve(outcome), 300);
    const headers = { ...r.headers, ...(r.chunked ? { 'Transfer-Encoding': 'chunked' } : { 'Content-Length': String(r.size) }) };
    const req = http.request({ host: '127.0.0.1', port, method: 'DELETE', path: r.path, headers, agent: false }, (res) => {
      answered = true;
      readAnswer(res, outcome, settle);
    });
    req.on('error', (err: NodeJS.ErrnoException) => {
      outcome.error ??= err.code;
      if (!answered) settle();
    });
    // node:http frames chunks itself.
    const write = (piece: Buffer) =>
      new Promise<void>((done, fail) => {
        if (answered || req.destroyed) return fail(new Error('answered'));
        if (req.write(piece)) done();
        else req.once('drain', done);
      });
    writeBody(write, { ...r, chunked: false }).then(
      () => req.end(),
      () => undefined,
    );
  });
}

/** Runs `jobs` with at most `width` at once. */
async function inPool<T>(width: number, jobs: (() => Promise<T>)[]): Promise<T[]> {
  const results: T[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < jobs.length) {
        const at = next++;
        results[at] = await jobs[at]();
      }
    }),
  );
  return results;
}

const MB = 1_000_000;

/** Records an answer's status, Connection header and body in `outcome`; `settle` once it has ended. */
function readAnswer(res: http.IncomingMessage, outcome: Outcome, settle: () => void): void {
  outcome.status = res.statusCode;
  outcome.connection = res.headers.connection;
  res.on('data', (chunk: Buffer) => (outcome.body += chunk.toString()));
  res.on('end', settle);
  res.on('error', (err: NodeJS.ErrnoException) => (outcome.error ??= err.code));
}

describe('early answers to requests with a large unread body', () => {
  let t: TestApp;
  let port: number;

  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen(0, '127.0.0.1');
    port = ((t.app.getHttpServer() as http.Server).address() as AddressInfo).port;
  });
  afterAll(async () => {
    await t.close();
  });

  const cases: [string, string, number, string, number][] = [
    ['a guest DELETE of a score (401), 300 KB', '/api/v1/scores/S0000', 300_000, 'application/octet-stream', 401],
    ['a guest DELETE of an API token (401), 100 KB', '/api/v1/users/me/api-tokens/1', 100_000, 'application/octet-stream', 401],
    ['a DELETE on an unknown route (404), 400 KB', '/api/v1/no-such-route', 400_000, 'application/octet-stream', 404],
    ['a guest direct-manual import (401), 8 MB', '/ir/direct-manual/import', 8_000_000, 'application/octet-stream', 401],
    ['a direct-manual import over the size limit (413), 70 MB announced', '/ir/direct-manual/import', 70_000_000, 'application/json', 413],
  ];

  for (const close of [true, false]) {
    describe(close ? 'a client that sends Connection: close' : 'a keep-alive client', () => {
      it.each(cases)('receives the status of %s, without a reset', async (_what, path, size, type, status) => {
        const method = path.startsWith('/ir/') ? 'POST' : 'DELETE';
        const outcome = await send(port, method, path, size, { type, close });
        expect(outcome).toMatchObject({ status });
        expect(outcome.error).toBeUndefined();
        expect(JSON.parse(outcome.body)).toMatchObject({ statusCode: status });
      });
    });
  }

  it('leaves requests whose body was read (or that have none) on a kept-alive connection', async () => {
    const agent = new http.Agent({ keepAlive: true });
    const get = await new Promise<http.IncomingMessage>((resolve, reject) =>
      http.get({ host: '127.0.0.1', port, path: '/api/v1/status', agent }, resolve).on('error', reject),
    );
    get.resume();
    expect(get.statusCode).toBe(200);
    expect(get.headers.connection).toBe('keep-alive');
    const read = await send(port, 'DELETE', '/api/v1/scores/S0000', 3_000_000, { type: 'application/json', close: false });
    expect(read).toMatchObject({ status: 400, connection: 'keep-alive' });
    agent.destroy();
  });

  it('keeps the connection for a small unread body, and closes it (with the header) for a large one', async () => {
    const small = await send(port, 'DELETE', '/api/v1/scores/S0000', 200_000, { type: 'application/octet-stream', close: false });
    expect(small.connection).toBe('keep-alive');
    const large = await send(port, 'POST', '/ir/direct-manual/import', 3_000_000, { type: 'application/octet-stream', close: false });
    expect(large.connection).toBe('close');
    expect(large.status).toBe(401);
  });
});

/**
 * Issue 26: a DELETE with a large body (1, 5 or 20 MB), as a guest (401), as another player (403, or
 * 404 for a score that is not theirs to see) or as the owner (404: nothing of that id), with
 * Content-Length or chunked, sent fast or slowly, by a client that reads the answer while it sends
 * or only after it has sent everything: every one receives its status, never a reset.
 */
describe('DELETE routes with a large body: every client receives its status', () => {
  let t: TestApp;
  let port: number;
  /** The other player's API token; the owner's session cookie (API tokens are managed from a session only). */
  let otherToken: string;
  let ownerCookie: string;
  let routes: { name: string; path: string; guest: number; other: number; owner: number }[];

  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen(0, '127.0.0.1');
    port = ((t.app.getHttpServer() as http.Server).address() as AddressInfo).port;
    const owner = await signUp(t);
    const other = await signUp(t);
    otherToken = await issueToken(other, ['delete_score', 'manage_targets']);
    const login = await t.http().post('/api/v1/auth/login').send({ username: owner.username, '!password': owner.password, captcha: 'x' });
    ownerCookie = String(login.headers['set-cookie']).split(';')[0];
    const ugpt = `/api/v1/users/${owner.user.id}/games/iidx/SP/targets`;
    routes = [
      { name: 'a score', path: `/api/v1/scores/S${'0'.repeat(40)}`, guest: 401, other: 404, owner: 404 },
      { name: 'an API token', path: `/api/v1/users/${owner.user.id}/api-tokens/999999`, guest: 401, other: 403, owner: 404 },
      { name: 'a UGPT goal', path: `${ugpt}/goals/G${'0'.repeat(40)}`, guest: 401, other: 403, owner: 404 },
      { name: 'a UGPT quest', path: `${ugpt}/quests/Q${'0'.repeat(40)}`, guest: 401, other: 403, owner: 404 },
    ];
  });
  afterAll(async () => {
    await t.close();
  });

  type Who = 'guest' | 'other' | 'owner';
  const WHO: Who[] = ['guest', 'other', 'owner'];
  const headersOf = (who: Who, extra: Record<string, string> = {}) => ({
    'Content-Type': 'application/octet-stream',
    ...(who === 'other' ? { Authorization: `Bearer ${otherToken}` } : who === 'owner' ? { Cookie: ownerCookie } : {}),
    ...extra,
  });
  /** What went wrong, one line per request; [] when every client received its status. */
  const wrong = (label: string, outcome: Outcome, status: number) =>
    outcome.status === status && outcome.error === undefined && (JSON.parse(outcome.body) as { statusCode: number }).statusCode === status
      ? []
      : [`${label}: ${outcome.status ?? 'no status'}${outcome.error ? ` (${outcome.error})` : ''}, expected ${status}`];

  it('answers each without a body, as the table expects', async () => {
    const problems = await inPool(
      4,
      routes.flatMap((route) =>
        WHO.map(
          (who) => async () =>
            wrong(
              `${route.name} as ${who}`,
              await deleteThenRead(port, { path: route.path, headers: headersOf(who), size: 0, chunked: false, pauseMs: 0 }),
              route[who],
            ),
        ),
      ),
    );
    expect(problems.flat()).toEqual([]);
  });

  it('answers bodies of 1, 5 and 20 MB sent fast, with Content-Length or chunked, read during or after sending', async () => {
    const jobs = routes.flatMap((route) =>
      WHO.flatMap((who) =>
        [MB, 5 * MB, 20 * MB].flatMap((size) =>
          [false, true].flatMap((chunked) =>
            (['after', 'during'] as const).map((reads) => async () => {
              const request = { path: route.path, headers: headersOf(who), size, chunked, pauseMs: 0 };
              const outcome = reads === 'after' ? await deleteThenRead(port, request) : await deleteWhileReading(port, request);
              return wrong(`${route.name} as ${who}, ${size / MB} MB ${chunked ? 'chunked' : 'with Content-Length'}, read ${reads}`, outcome, route[who]);
            }),
          ),
        ),
      ),
    );
    expect((await inPool(6, jobs)).flat()).toEqual([]);
  });

  it('answers bodies sent slowly (for 12 s, past the 10 s that an early answer once lingered), all at once', async () => {
    // 24 clients together, each sending its body in 64 KB pieces over about 12 s and reading the answer only then.
    const sizes = [MB, 5 * MB, 20 * MB];
    const jobs = routes.flatMap((route, r) =>
      WHO.flatMap((who, w) =>
        [false, true].map((chunked, c) => async () => {
          const size = sizes[(r + w + c) % sizes.length];
          const pauseMs = Math.floor(12_000 / Math.ceil(size / PIECE.length));
          const close: Record<string, string> = c === 0 ? { Connection: 'close' } : {};
          const outcome = await deleteThenRead(port, { path: route.path, headers: headersOf(who, close), size, chunked, pauseMs });
          return wrong(`${route.name} as ${who}, ${size / MB} MB ${chunked ? 'chunked' : 'with Content-Length'} over 12 s`, outcome, route[who]);
        }),
      ),
    );
    expect((await inPool(jobs.length, jobs)).flat()).toEqual([]);
  });

  it('keeps a JSON body over BODY_LIMIT_BYTES a 413, read through before the answer', async () => {
    const jobs = routes.flatMap((route) =>
      [false, true].map((chunked) => async () => {
        const request = { path: route.path, headers: headersOf('owner', { 'Content-Type': 'application/json' }), size: 20 * MB, chunked, pauseMs: 0 };
        return wrong(`${route.name}, 20 MB of JSON ${chunked ? 'chunked' : 'with Content-Length'}`, await deleteThenRead(port, request), 413);
      }),
    );
    expect((await inPool(4, jobs)).flat()).toEqual([]);
  });
});

describe('DELETE routes with a large body while the rate limiter refuses (429)', () => {
  let t: TestApp;
  let port: number;

  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT_PER_MINUTE: '2' });
    await t.app.listen(0, '127.0.0.1');
    port = ((t.app.getHttpServer() as http.Server).address() as AddressInfo).port;
  });
  afterAll(async () => {
    await t.close();
  });

  it('gives every concurrent client its status: the first two a 401, the rest a 429', async () => {
    const path = `/api/v1/scores/S${'0'.repeat(40)}`;
    const headers = { 'Content-Type': 'application/octet-stream' };
    // The first two pass the limiter (one at a time, so which ones is known); then eight at once, fast and slow.
    const first = [await deleteThenRead(port, { path, headers, size: 5 * MB, chunked: false, pauseMs: 0 })];
    first.push(await deleteWhileReading(port, { path, headers, size: 5 * MB, chunked: true, pauseMs: 0 }));
    expect(first.map((o) => [o.status, o.error])).toEqual([
      [401, undefined],
      [401, undefined],
    ]);
    const rest = await Promise.all(
      [MB, 5 * MB, 20 * MB, 20 * MB].flatMap((size, i) => [
        deleteThenRead(port, { path, headers, size, chunked: i % 2 === 1, pauseMs: i < 2 ? Math.floor(11_000 / (size / PIECE.length)) : 0 }),
        deleteWhileReading(port, { path, headers, size, chunked: i % 2 === 0, pauseMs: 0 }),
      ]),
    );
    expect(rest.map((o) => [o.status, o.error])).toEqual(rest.map(() => [429, undefined]));
  });
});
