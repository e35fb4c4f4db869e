import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sendWebhook } from '../../src/webhooks/webhook-sender.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

/**
 * The webhook HTTP client against real local servers: redirects are followed by hand, each hop's
 * address checked; refused addresses are never connected to. 127.0.0.1 stands for an allowed
 * address and 127.0.0.2 (also loopback on Linux) for a refused one, through the address policy.
 */
describe('sendWebhook', () => {
  let first: WebhookReceiver;
  let second: WebhookReceiver;
  const onlyFirstHost = (address: string) => address === '127.0.0.1';
  const headers = { 'Content-Type': 'application/json', Authorization: 'Bearer WSx', 'X-Webhook-Signature': 'sha256=ab' };

  beforeAll(async () => {
    first = await startWebhookReceiver('127.0.0.1');
    second = await startWebhookReceiver('127.0.0.2');
  });
  afterAll(async () => {
    await first.close();
    await second.close();
  });

  it('posts the body with the headers and reports a 2xx as delivered', async () => {
    first.respond(() => ({ status: 204 }));
    const before = first.received.length;
    const result = await sendWebhook(`${first.url}/hook`, '{"a":1}', headers, { allowPrivate: true, timeoutMs: 5000 });
    expect(result).toEqual({ ok: true, statusCode: 204, error: null, permanent: false, url: `${first.url}/hook` });
    const [got] = first.received.slice(before);
    expect(got).toMatchObject({ path: '/hook', body: '{"a":1}' });
    expect(got.headers).toMatchObject({ 'content-type': 'application/json', authorization: 'Bearer WSx', 'x-webhook-signature': 'sha256=ab' });
  });

  it('refuses a private address without connecting when private addresses are not allowed', async () => {
    const before = first.received.length;
    const result = await sendWebhook(`${first.url}/hook`, '{}', headers, { allowPrivate: false, timeoutMs: 5000 });
    expect(result).toMatchObject({ ok: false, statusCode: null, permanent: true });
    expect(result.error).toMatch(/resolves to 127\.0\.0\.1, a private, loopback or link-local address/);
    expect(first.received.length).toBe(before);
  });

  it('checks a hostname after resolving it: localhost is refused', async () => {
    const port = new URL(first.url).port;
    const result = await sendWebhook(`http://localhost:${port}/hook`, '{}', headers, { allowPrivate: false, timeoutMs: 5000 });
    expect(result).toMatchObject({ ok: false, permanent: true });
    expect(result.error).toMatch(/^localhost resolves to /);
  });

  it('follows a redirect to an allowed address, posting the same body again', async () => {
    first.respond((req) => (req.path === '/old' ? { status: 308, location: '/new' } : { status: 200 }));
    const before = first.received.length;
    const result = await sendWebhook(`${first.url}/old`, '{"b":2}', headers, { allowPrivate: false, isAllowed: onlyFirstHost, timeoutMs: 5000 });
    expect(result).toMatchObject({ ok: true, statusCode: 200, url: `${first.url}/new` });
    expect(first.received.slice(before).map((r) => [r.path, r.body])).toEqual([
      ['/old', '{"b":2}'],
      ['/new', '{"b":2}'],
    ]);
  });

  it('checks every redirect: one to a refused address is not followed', async () => {
    first.respond(() => ({ status: 302, location: `${second.url}/inside` }));
    const result = await sendWebhook(`${first.url}/out`, '{}', headers, { allowPrivate: false, isAllowed: onlyFirstHost, timeoutMs: 5000 });
    expect(result).toMatchObject({ ok: false, permanent: true, url: `${second.url}/inside` });
    expect(result.error).toMatch(/127\.0\.0\.2/);
    expect(second.received).toHaveLength(0);
  });

  it('does not send the bearer secret to another origin after a redirect', async () => {
    first.respond(() => ({ status: 307, location: `${second.url}/elsewhere` }));
    second.respond(() => ({ status: 200 }));
    const result = await sendWebhook(`${first.url}/x`, '{}', headers, { allowPrivate: true, timeoutMs: 5000 });
    expect(result.ok).toBe(true);
    const [got] = second.received.slice(-1);
    expect(got.headers.authorization).toBeUndefined();
    expect(got.headers['x-webhook-signature']).toBe('sha256=ab');
  });

  it('gives up after 5 redirects, and reports non-2xx answers and unreachable hosts as retryable', async () => {
    first.respond(() => ({ status: 302, location: '/loop' }));
    expect(await sendWebhook(`${first.url}/loop`, '{}', headers, { allowPrivate: true, timeoutMs: 5000 })).toMatchObject({
      ok: false,
      permanent: false,
      error: 'More than 5 redirects.',
    });
    first.respond(() => ({ status: 500 }));
    expect(await sendWebhook(`${first.url}/x`, '{}', headers, { allowPrivate: true, timeoutMs: 5000 })).toMatchObject({
      ok: false,
      statusCode: 500,
      permanent: false,
      error: 'The receiver answered 500.',
    });
    const closed = await startWebhookReceiver();
    await closed.close();
    expect(await sendWebhook(`${closed.url}/x`, '{}', headers, { allowPrivate: true, timeoutMs: 5000 })).toMatchObject({
      ok: false,
      statusCode: null,
      permanent: false,
    });
  });

  it('refuses a non-http scheme for good', async () => {
    first.respond(() => ({ status: 302, location: 'ftp://example.com/x' }));
    const result = await sendWebhook(`${first.url}/x`, '{}', headers, { allowPrivate: true, timeoutMs: 5000 });
    expect(result).toMatchObject({ ok: false, permanent: true, error: 'ftp: URLs are not delivered to: only http and https.' });
  });

  it('stops waiting after the timeout, as a retryable failure', async () => {
    const silent = http.createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = silent.address() as AddressInfo;
      const started = Date.now();
      const result = await sendWebhook(`http://127.0.0.1:${port}/slow`, '{}', headers, { allowPrivate: true, timeoutMs: 200 });
      expect(result).toMatchObject({ ok: false, statusCode: null, permanent: false, error: 'No answer within 200 ms.' });
      expect(Date.now() - started).toBeLessThan(2000);
    } finally {
      silent.closeAllConnections();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });
});
