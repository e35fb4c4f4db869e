import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import request from 'supertest';
import { createApp } from '../../src/app.factory.js';
import { loadConfig } from '../../src/config/app-config.js';
import { Database, embeddedDbDir } from '../../src/database/database.js';
import { InlineImportQueue } from '../../src/imports/import-queue.js';
import { buildIfNeeded, runCli } from '../support/cli.js';
import { countRows } from '../support/stored.js';
import { migratedDataDir } from '../support/template-db.js';

const API = '/api/v1';

/**
 * `npm run cli -- announce "<title>"` sends a SITE_ANNOUNCEMENT to every user. This runs the built
 * CLI (dist/cli.js) on an embedded database in a temporary DATA_DIR: the server (in this process)
 * registers the users, stops (PGlite admits one process), the CLI announces, and the server,
 * started again, shows each user the notification.
 */
describe('cli announce', () => {
  let dataDir: string;
  const config = () =>
    loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', AUTH_RATE_LIMIT_FACTOR: '0', RATE_LIMIT_PER_MINUTE: '0', SNAPSHOT_SCHEDULE: 'false' });

  async function withServer<T>(fn: (http: () => ReturnType<typeof request>, agent: () => InstanceType<typeof request.agent>) => Promise<T>): Promise<T> {
    const database = await Database.open({ dataDir: embeddedDbDir(dataDir) });
    await database.migrate();
    const app = await createApp({
      config: config(),
      database,
      ownsDatabase: true,
      redis: null,
      keyPrefix: 'st-announce',
      importQueue: new InlineImportQueue(),
    });
    try {
      await app.init();
      const server = app.getHttpServer() as Parameters<typeof request>[0];
      return await fn(
        () => request(server),
        () => request.agent(server),
      );
    } finally {
      await app.close();
    }
  }

  const users = [
    { username: 'announce_one', password: 'announce-pw-1' },
    { username: 'announce_two', password: 'announce-pw-2' },
    { username: 'announce_three', password: 'announce-pw-3' },
  ];

  beforeAll(async () => {
    buildIfNeeded();
    dataDir = await migratedDataDir('st-announce-cli-');
    await withServer(async (_http, agent) => {
      for (const u of users) {
        const res = await agent()
          .post(`${API}/auth/register`)
          .send({ username: u.username, '!password': u.password, email: `${u.username}@example.test`, captcha: 'x' });
        expect(res.status).toBe(200);
      }
    });
  }, 300_000);
  afterAll(() => {
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('refuses a blank title and sends nothing (every refused argument: test/unit/cli-commands.spec.ts)', async () => {
    const blank = await runCli(['announce', '   '], { dataDir });
    expect(blank.code).not.toBe(0);
    expect(blank.stderr).toContain('The title must not be blank.');
    const database = await Database.open({ dataDir: embeddedDbDir(dataDir) });
    try {
      expect(await countRows(database, 'notifications')).toBe(0);
    } finally {
      await database.close();
    }
  });

  it('sends a SITE_ANNOUNCEMENT to every user, each with its own notifID', async () => {
    const before = Date.now();
    const run = await runCli(['announce', '  Maintenance on Sunday at 02:00 UTC  '], { dataDir });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Announcement sent to 3 user(s): Maintenance on Sunday at 02:00 UTC');

    await withServer(async (_http, agent) => {
      const ids = new Set<string>();
      for (const u of users) {
        const session = agent();
        const login = await session.post(`${API}/auth/login`).send({ username: u.username, '!password': u.password, captcha: 'x' });
        expect(login.status).toBe(200);
        const res = await session.get(`${API}/users/${login.body.userID}/notifications`);
        expect(res.status).toBe(200);
        expect(res.body).toEqual([
          {
            notifID: expect.stringMatching(/^N[0-9a-f]{40}$/),
            title: 'Maintenance on Sunday at 02:00 UTC',
            sentTo: login.body.userID,
            sentAt: expect.any(Number),
            read: false,
            body: { type: 'SITE_ANNOUNCEMENT', content: {} },
          },
        ]);
        expect(res.body[0].sentAt).toBeGreaterThanOrEqual(before);
        ids.add(res.body[0].notifID);
      }
      expect(ids.size).toBe(3);
    });
  });
});
