import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTestApp, type TestApp } from '../support/app.js';

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
      (res) => {
        outcome.status = res.statusCode;
        outcome.connection = res.headers.connection;
        res.on('data', (chunk: Buffer) => (outcome.body += chunk.toString()));
        res.on('end', settle);
        res.on('error', (err: NodeJS.ErrnoException) => (outcome.error ??= err.code));
      },
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
