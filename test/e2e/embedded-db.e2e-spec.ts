import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import request from 'supertest';
import { InlineImportQueue } from '../../src/imports/import-queue.js';
import { buildIfNeeded, runNode } from '../support/cli.js';
import { freePort, startBuiltServer } from '../support/server-process.js';
import { storedUser } from '../support/stored.js';
import { migratedDataDir } from '../support/template-db.js';
import { createApp } from '../../src/app.factory.js';
import { openConfiguredDatabase } from '../../src/bootstrap.js';
import { loadConfig } from '../../src/config/app-config.js';
import { Database, embeddedDbDir } from '../../src/database/database.js';

/**
 * The embedded database (PGlite in DATA_DIR/db) and the admin CLI, run as real separate processes:
 * the built server (dist/main.js) and CLI (dist/cli.js), as `npm start` and `npm run cli` run them.
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CLI = path.join(ROOT, 'dist', 'cli.js');
const STEP_TIMEOUT_MS = 120_000;

/** The environment of a child process on dataDir: embedded mode, whatever the test run uses. */
function childEnv(dataDir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...extra };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  delete env.SMTP_URL;
  return env;
}

const cli = (dataDir: string, ...args: string[]) => runNode(CLI, args, childEnv(dataDir));

function tempDataDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'st-embedded-'));
}

/** Servers still running when the file ends (a failed test), stopped in afterAll. */
const running = new Set<ChildProcess>();

/** Starts the built server on dataDir (test/support/server-process.ts) and tracks it until it exits. */
async function startServer(dataDir: string): Promise<{ child: ChildProcess; url: string; stop: () => Promise<number | null> }> {
  const port = await freePort();
  const { child, exited } = await startBuiltServer(dataDir, port);
  running.add(child);
  void exited.then(() => running.delete(child));
  return {
    child,
    url: `http://127.0.0.1:${port}`,
    stop: async () => {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

/** Opens dataDir's embedded database in this process, runs fn, and closes it again. */
async function withEmbedded<T>(dataDir: string, fn: (database: Database) => Promise<T>): Promise<T> {
  const database = await Database.open({ dataDir: embeddedDbDir(dataDir) });
  try {
    await database.migrate();
    return await fn(database);
  } finally {
    await database.close();
  }
}

/** Runs the real app in this process on dataDir's embedded database. */
async function withApp<T>(dataDir: string, env: Record<string, string>, fn: (http: () => ReturnType<typeof request>) => Promise<T>): Promise<T> {
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', AUTH_RATE_LIMIT_FACTOR: '0', RATE_LIMIT_PER_MINUTE: '0', ...env });
  const database = await openConfiguredDatabase(config);
  await database.migrate();
  const app = await createApp({ config, database, ownsDatabase: true, redis: null, keyPrefix: 'st-embedded', importQueue: new InlineImportQueue() });
  try {
    await app.init();
    const server = app.getHttpServer() as Parameters<typeof request>[0];
    return await fn(() => request(server));
  } finally {
    await app.close();
  }
}

const register = (username: string, extra: Record<string, string> = {}) => ({
  username,
  '!password': 'embedded-password',
  email: `${username.toLowerCase()}@embedded.test`,
  captcha: 'x',
  ...extra,
});

describe('embedded database (PGlite in DATA_DIR/db) and the CLI', () => {
  const dirs: string[] = [];
  /** An empty DATA_DIR: the CLI or the server creates the database in it. */
  const newEmptyDir = () => {
    const dir = tempDataDir();
    dirs.push(dir);
    return dir;
  };
  /** A DATA_DIR holding a migrated database, as after a first start (a copy of the template). */
  const newDir = async () => {
    const dir = await migratedDataDir('st-embedded-');
    dirs.push(dir);
    return dir;
  };

  beforeAll(() => {
    buildIfNeeded();
  }, 300_000);
  afterAll(() => {
    for (const child of running) child.kill('SIGKILL');
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  describe('the data-directory lock', () => {
    it(
      'sends the CLI’s commands to the running server (which holds the database), and lets the CLI open it once the server stopped',
      async () => {
        const dataDir = await newDir();
        const server = await startServer(dataDir);
        let stopped = false;
        try {
          const reg = await request(server.url).post('/api/v1/auth/register').send(register('Locked_User'));
          expect(reg.status).toBe(200);

          // The server holds the database: the command runs in it, through DATA_DIR/cli.sock (see cli-socket.e2e-spec.ts).
          const second = await cli(dataDir, 'auth-level', 'locked_user', '3');
          expect(second.stderr).toBe('');
          expect(second.code).toBe(0);
          expect(second.stdout).toMatch(/Locked_User \(id \d+\) now has auth level 3/);
          // The lock is still the server's.
          expect(JSON.parse(fs.readFileSync(path.join(dataDir, 'db.lock'), 'utf8')).pid).toBe(server.child.pid);

          // The server sees the change at once.
          const read = await request(server.url).get('/api/v1/users/locked_user');
          expect(read.status).toBe(200);
          expect(read.body.authLevel).toBe(3);

          expect(await server.stop()).not.toBe(1);
          stopped = true;
        } finally {
          if (!stopped) await server.stop();
        }
        expect(fs.existsSync(path.join(dataDir, 'db.lock'))).toBe(false);
        expect(fs.existsSync(path.join(dataDir, 'cli.sock'))).toBe(false);

        // With the server stopped, the CLI opens the same data itself.
        const run = await cli(dataDir, 'auth-level', 'locked_user', '2');
        expect(run.stderr).toBe('');
        expect(run.code).toBe(0);
        await withEmbedded(dataDir, async (database) => {
          expect((await storedUser(database, { usernameLowercase: 'locked_user' }))?.authLevel).toBe(2);
        });
      },
      STEP_TIMEOUT_MS,
    );

    it(
      'refuses a second process while this process holds the database, and admits it once closed',
      async () => {
        const dataDir = await newDir();
        const database = await Database.open({ dataDir: embeddedDbDir(dataDir) });
        try {
          const lock = JSON.parse(fs.readFileSync(path.join(dataDir, 'db.lock'), 'utf8')) as { pid: number; hostname: string };
          expect(lock).toMatchObject({ pid: process.pid, hostname: os.hostname() });
          // Nor may this process open it a second time.
          await expect(Database.open({ dataDir: embeddedDbDir(dataDir) })).rejects.toThrow(/already open in this process/);

          const refused = await cli(dataDir, 'migrate');
          expect(refused.code).toBe(1);
          expect(refused.stderr).toContain(`in use by process ${process.pid}`);
          expect(refused.stdout).not.toContain('Migrations applied');
          // The refused process left the owner's lock alone.
          expect(JSON.parse(fs.readFileSync(path.join(dataDir, 'db.lock'), 'utf8')).pid).toBe(process.pid);
        } finally {
          await database.close();
        }
        expect(fs.existsSync(path.join(dataDir, 'db.lock'))).toBe(false);
        const ok = await cli(dataDir, 'migrate');
        expect(ok.code).toBe(0);
        expect(ok.stdout).toContain('Migrations applied.');
      },
      STEP_TIMEOUT_MS,
    );

    it(
      'takes over a stale lock left by a dead process, or one that is unreadable',
      async () => {
        const dataDir = await newDir();
        fs.mkdirSync(embeddedDbDir(dataDir), { recursive: true });
        const lockPath = path.join(dataDir, 'db.lock');

        const dead = spawnSync(process.execPath, ['-e', '']);
        expect(dead.status).toBe(0);
        fs.writeFileSync(lockPath, JSON.stringify({ pid: dead.pid, hostname: os.hostname(), startedAt: Date.now() - 60_000, command: 'crashed server' }));
        const run = await cli(dataDir, 'migrate');
        expect(run.stderr).toBe('');
        expect(run.code).toBe(0);
        expect(fs.existsSync(lockPath)).toBe(false);

        fs.writeFileSync(lockPath, '{"pid": 12'); // half-written by a process that died mid-write
        const again = await cli(dataDir, 'migrate');
        expect(again.code).toBe(0);
        expect(fs.existsSync(lockPath)).toBe(false);
      },
      STEP_TIMEOUT_MS,
    );

    it(
      'keeps data across a close and a reopen',
      async () => {
        const dataDir = await newDir();
        await withApp(dataDir, {}, async (http) => {
          expect((await http().post('/api/v1/auth/register').send(register('Durable_User'))).status).toBe(200);
        });
        await withApp(dataDir, {}, async (http) => {
          const res = await http().get('/api/v1/users/durable_user');
          expect(res.status).toBe(200);
          expect(res.body.username).toBe('Durable_User');
          const login = await http().post('/api/v1/auth/login').send({ username: 'DURABLE_USER', '!password': 'embedded-password', captcha: 'x' });
          expect(login.status).toBe(200);
        });
      },
      STEP_TIMEOUT_MS,
    );
  });

  describe('CLI', () => {
    it(
      'auth-level sets a user’s level (username case-insensitive), and refuses unknown users and bad levels',
      async () => {
        const dataDir = await newDir();
        await withApp(dataDir, {}, async (http) => {
          expect((await http().post('/api/v1/auth/register').send(register('Level_User'))).status).toBe(200);
        });

        const ok = await cli(dataDir, 'auth-level', 'LEVEL_USER', '3');
        expect(ok.code).toBe(0);
        expect(ok.stdout).toMatch(/Level_User \(id \d+\) now has auth level 3/);

        const unknown = await cli(dataDir, 'auth-level', 'nobody_here', '2');
        expect(unknown.code).toBe(1);
        expect(unknown.stderr).toContain('No user is named nobody_here');

        // Every refused argument: test/unit/cli-commands.spec.ts. One here, through the built CLI's exit code.
        const bad = await cli(dataDir, 'auth-level', 'level_user', '7');
        expect(bad.code).not.toBe(0);
        expect(bad.stderr).toMatch(/level must be an integer from 0 to 3/);

        await withEmbedded(dataDir, async (database) => {
          expect((await storedUser(database, { usernameLowercase: 'level_user' }))?.authLevel).toBe(3);
        });
      },
      STEP_TIMEOUT_MS,
    );

    it(
      'invites create -n 2 prints two codes that each admit one registration when INVITE_ONLY=true',
      async () => {
        const dataDir = newEmptyDir(); // the CLI's first run creates the database
        const run = await cli(dataDir, 'invites', 'create', '-n', '2');
        expect(run.code).toBe(0);
        const codes = run.stdout.trim().split('\n');
        expect(codes).toHaveLength(2);
        for (const code of codes) expect(code).toMatch(/^[0-9a-f]{40}$/);
        expect(codes[0]).not.toBe(codes[1]);

        await withApp(dataDir, { INVITE_ONLY: 'true' }, async (http) => {
          const without = await http().post('/api/v1/auth/register').send(register('No_Invite'));
          expect(without.status).toBe(400);
          expect(without.body.message).toMatch(/invite/i);
          const wrong = await http()
            .post('/api/v1/auth/register')
            .send(register('Wrong_Invite', { inviteCode: 'f'.repeat(40) }));
          expect(wrong.status).toBe(400);

          expect(
            (
              await http()
                .post('/api/v1/auth/register')
                .send(register('Invited_One', { inviteCode: codes[0] }))
            ).status,
          ).toBe(200);
          const reused = await http()
            .post('/api/v1/auth/register')
            .send(register('Invited_Again', { inviteCode: codes[0] }));
          expect(reused.status).toBe(400);
          expect(reused.body.message).toMatch(/already been used/);
          expect(
            (
              await http()
                .post('/api/v1/auth/register')
                .send(register('Invited_Two', { inviteCode: codes[1] }))
            ).status,
          ).toBe(200);
        });

        const list = await cli(dataDir, 'invites', 'list');
        expect(list.code).toBe(0);
        expect(list.stdout.match(/used by user \d+/g)).toHaveLength(2);
      },
      STEP_TIMEOUT_MS,
    );
  });
});
