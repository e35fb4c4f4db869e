import { afterEach, describe, expect, it } from '@jest/globals';
import net from 'node:net';
import { loadConfig } from '../../src/config/app-config.js';
import { RateLimitedException } from '../../src/http/rate-limited.exception.js';
import type { ApiRequest } from '../../src/http/request.js';
import { RateLimitService } from '../../src/http/rate-limit/rate-limit.service.js';
import { createRateLimitClient } from '../../src/common/redis.js';

/**
 * A stand-in Redis that answers the connection handshake and then, once `silent`, never answers
 * again: a hung server, which the real one cannot be made into without pausing every client.
 */
async function hangingRedis() {
  const state = { silent: false };
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('data', (chunk) => {
      if (state.silent) return;
      const text = chunk.toString();
      const commands = text.split('\r\n').filter((line) => /^[A-Za-z]+$/.test(line));
      for (const command of commands) {
        if (command.toUpperCase() === 'INFO') {
          const info = '# Server\r\nredis_version:7.0.0\r\nloading:0\r\n';
          socket.write(`$${Buffer.byteLength(info)}\r\n${info}\r\n`);
        } else socket.write('+OK\r\n');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `redis://127.0.0.1:${port}`,
    state,
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const request = (ip: string) => ({ ip, body: {} }) as unknown as ApiRequest;

/** forgot-password: 3 per IP per 5 minutes. Returns the outcome of each of n attempts. */
async function attempts(limits: RateLimitService, ip: string, n: number): Promise<string[]> {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    try {
      await limits.checkAuth('forgot-password', request(ip));
      out.push('ok');
    } catch (err) {
      out.push(err instanceof RateLimitedException ? 'limited' : `error: ${String(err)}`);
    }
  }
  return out;
}

describe('rate limits while Redis is down', () => {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });
  const config = loadConfig({ AUTH_RATE_LIMIT_FACTOR: '1', LOG_LEVEL: 'silent' });

  it('fall back to per-process limits at once when Redis refuses connections', async () => {
    const client = createRateLimitClient(`redis://127.0.0.1:${await freePort()}`);
    cleanups.push(async () => client.disconnect());
    await client.connect().catch(() => undefined);
    const limits = new RateLimitService(config, client, 'test:rl');
    const started = Date.now();
    expect(await attempts(limits, '203.0.113.1', 4)).toEqual(['ok', 'ok', 'ok', 'limited']);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('fall back after the command timeout, not forever, when Redis stops answering', async () => {
    const redis = await hangingRedis();
    cleanups.push(redis.close);
    const client = createRateLimitClient(redis.url);
    cleanups.push(async () => client.disconnect());
    await client.connect();
    expect(client.status).toBe('ready');
    redis.state.silent = true;
    const limits = new RateLimitService(config, client, 'test:rl');
    const started = Date.now();
    expect(await attempts(limits, '203.0.113.2', 4)).toEqual(['ok', 'ok', 'ok', 'limited']);
    expect(Date.now() - started).toBeLessThan(10_000);
  }, 20_000);
});
