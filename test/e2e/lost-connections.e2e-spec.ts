import { describe, expect, it } from '@jest/globals';
import { execFileSync, spawn } from 'node:child_process';
import { sql } from 'drizzle-orm';
import { Redis as IORedis } from 'ioredis';
import net from 'node:net';
import pg from 'pg';
import { createClient } from 'redis';
import { RedisConnections } from '../../src/common/redis.js';
import { dependencyUnavailable } from '../../src/common/dependency-failure.js';
import { withUserLock } from '../../src/scoring/import-lock.js';
import { openTestDatabase, usingPostgres } from '../support/app.js';

const REDIS_URL = process.env.TEST_REDIS_URL;
const hasRedisServer = (() => {
  try {
    execFileSync('redis-server', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

/** The rows of a raw statement's result (node-postgres's shape: these tests run on PostgreSQL). */
const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

/** A port nothing listens on: one the system gave, then closed. */
async function closedPort(): Promise<number> {
  const server = net.createServer().listen(0, '127.0.0.1');
  await new Promise((ok) => server.once('listening', ok));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((ok) => server.close(ok));
  return port;
}

/**
 * A dependency that goes away: the errors its clients then raise are told apart from the request's own (a 503, not a
 * 500), and a PostgreSQL connection that ends under a running transaction fails that transaction without ending the
 * process (node-postgres emits 'error' on a checked-out client, which nothing listened to).
 */
describe('lost connections', () => {
  it('a refused PostgreSQL connection is a dependency failure; a query mistake is not', async () => {
    const client = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${await closedPort()}/test` });
    const refused = await client.connect().then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(refused).toMatchObject({ code: 'ECONNREFUSED' });
    expect(dependencyUnavailable(refused)).toBe(true);
    expect(dependencyUnavailable(Object.assign(new Error('syntax error at or near "SELEC"'), { code: '42601' }))).toBe(false);
    expect(dependencyUnavailable(new TypeError("Cannot read properties of undefined (reading 'id')"))).toBe(false);
    // Drizzle wraps the driver's error as its cause.
    expect(dependencyUnavailable(new Error('Failed query: select 1', { cause: refused }))).toBe(true);
  });

  (usingPostgres ? it : it.skip)('a transaction whose connection is terminated fails with a dependency error; the process and the pool go on', async () => {
    const { database, drop } = await openTestDatabase();
    const killer = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await killer.connect();
    try {
      const failure = await database
        .transaction(async (tx) => {
          const [{ pid }] = rowsOf<{ pid: number }>(await tx.execute(sql`SELECT pg_backend_pid() AS pid`));
          await killer.query('SELECT pg_terminate_backend($1)', [pid]);
          // The backend's end reaches the idle, checked-out client as an 'error' event before the next query.
          await new Promise((ok) => setTimeout(ok, 300));
          await tx.execute(sql`SELECT 1`);
        })
        .then(
          () => undefined,
          (err: unknown) => err,
        );
      expect(failure).toBeInstanceOf(Error);
      expect(dependencyUnavailable(failure)).toBe(true);
      // The broken client was dropped: the next statements get a working one.
      for (let i = 0; i < 3; i++) expect(rowsOf(await database.db.execute(sql`SELECT 1 AS one`))).toEqual([{ one: 1 }]);
    } finally {
      await killer.end();
      await drop();
    }
  });

  (usingPostgres ? it : it.skip)(
    "an import lock whose release fails while the database is away is released once it is back, and the caller sees the import's own error",
    async () => {
      const { database, url, drop } = await openTestDatabase();
      const name = new URL(url!).pathname.slice(1);
      const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await admin.connect();
      try {
        const [{ id }] = rowsOf<{ id: number }>(
          await database.db.execute(
            sql`INSERT INTO users (username, username_lowercase, about, social_media, join_date, last_seen) VALUES ('lockee', 'lockee', '', '{}', 0, 0) RETURNING id`,
          ),
        );
        const failure = await withUserLock(database, id, 'import-1', async () => {
          // The database goes away under the import: no new connection is allowed, every open one is ended.
          await admin.query(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS false`);
          await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [name]);
          await new Promise((ok) => setTimeout(ok, 300));
          throw new Error('the import failed');
        }).then(
          () => undefined,
          (err: unknown) => err,
        );
        // Not the release's connection error: the import's own.
        expect((failure as Error).message).toBe('the import failed');
        await admin.query(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS true`);
        // Retried in the background (every 2.5 s), long before the lock would go stale (30 s).
        let held = 1;
        for (let i = 0; i < 40 && held; i++) {
          await new Promise((ok) => setTimeout(ok, 250));
          held = rowsOf<{ n: number }>(await database.db.execute(sql`SELECT count(*)::int AS n FROM import_locks WHERE user_id = ${id}`))[0].n;
        }
        expect(held).toBe(0);
      } finally {
        await admin.query(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS true`);
        await admin.end();
        await drop();
      }
    },
    30_000,
  );

  (REDIS_URL ? it : it.skip)("Redis clients' errors while disconnected are dependency failures", async () => {
    const offline = new IORedis(REDIS_URL!, { enableOfflineQueue: false, lazyConnect: true, maxRetriesPerRequest: 0 });
    const ioError = await offline.get('k').then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(dependencyUnavailable(ioError)).toBe(true);
    offline.disconnect();

    const sessions = createClient({ url: REDIS_URL, disableOfflineQueue: true });
    await sessions.connect();
    sessions.destroy();
    const closed = await sessions.get('k').then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(dependencyUnavailable(closed)).toBe(true);
  });

  (hasRedisServer ? it : it.skip)(
    'a process started while Redis is down waits for it, and gives up after its wait',
    async () => {
      const port = await closedPort();
      const url = `redis://127.0.0.1:${port}`;
      await expect(RedisConnections.connect(url, { waitMs: 600 })).rejects.toThrow();

      const waits: string[] = [];
      const connecting = RedisConnections.connect(url, { waitMs: 20_000, onWait: (message) => waits.push(message) });
      await new Promise((ok) => setTimeout(ok, 1200));
      const server = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
      try {
        const redis = await connecting;
        expect(waits.length).toBeGreaterThan(0);
        expect(waits[0]).toMatch(/^Redis is not reachable \(.+\); trying again in 250 ms\.$/);
        expect(await redis.rateLimits.ping()).toBe('PONG');
        await redis.close();
      } finally {
        server.kill('SIGKILL');
      }
    },
    30_000,
  );
});
