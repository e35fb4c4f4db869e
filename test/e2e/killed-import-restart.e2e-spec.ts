import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import request from 'supertest';
import { Database, embeddedDbDir } from '../../src/database/database.js';
import { LOCK_STALE_MS } from '../../src/scoring/import-lock.js';
import { batchManual, MINUTE, T0 } from '../support/imports.js';
import { embeddedDataDirWithCatalog, freePort, startBuiltServer, type ServerProcess } from '../support/server-process.js';
import { countRows, importRows } from '../support/stored.js';

/** kill -9 of the built server (dist/main.js) on the embedded database while an inline import runs, then a restart. */
const SCORES = 20_000;

const elements = (count: number, offset = 0) =>
  Array.from({ length: count }, (_, i) => ({
    matchType: 'sdvxInGameID',
    identifier: '1001',
    difficulty: 'EXH',
    score: 9_000_000 + offset + i,
    lamp: 'CLEAR',
    timeAchieved: T0 + (offset + i) * MINUTE,
  }));

describe('an inline import killed with its process (embedded database)', () => {
  let dataDir: string;
  const children: ChildProcess[] = [];

  async function startServer(port: number): Promise<ServerProcess> {
    const server = await startBuiltServer(dataDir, port);
    children.push(server.child);
    return server;
  }

  beforeAll(async () => {
    dataDir = await embeddedDataDirWithCatalog('st-killed-');
  }, 300_000);
  afterAll(() => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('is marked failed at the next start, and the player’s next import runs at once (no 409)', async () => {
    const port = await freePort();
    const first = await startServer(port);
    const url = `http://127.0.0.1:${port}`;
    const agent = request.agent(url);
    const reg = await agent
      .post('/api/v1/auth/register')
      .send({ username: 'killed_user', '!password': 'killed-password', email: 'killed@example.test', captcha: 'x' });
    expect(reg.status).toBe(200);

    const upload = (count: number, offset: number) =>
      agent
        .post('/api/v1/import/file')
        .field('importType', 'file/batch-manual')
        .attach('scoreData', Buffer.from(JSON.stringify(batchManual('sdvx', 'Single', elements(count, offset)))), 'scores.json');
    const importing = upload(SCORES, 0).then(
      () => 'answered',
      () => 'connection lost',
    );
    // The upload takes milliseconds and the import seconds: a second in, it is running and holds the user's lock.
    await new Promise((r) => setTimeout(r, 1000));
    first.child.kill('SIGKILL');
    await first.exited;
    expect(await importing).toBe('connection lost');

    // The restart comes well within LOCK_STALE_MS of the dead process's last heartbeat.
    const killedAt = Date.now();
    const second = await startServer(port);
    const login = await agent.post('/api/v1/auth/login').send({ username: 'killed_user', '!password': 'killed-password', captcha: 'x' });
    expect(login.status).toBe(200);

    const next = await upload(3, SCORES);
    expect(Date.now() - killedAt).toBeLessThan(LOCK_STALE_MS);
    expect(next.status).toBe(200);
    expect(next.body.importID).toEqual(expect.any(String));

    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);

    const database = await Database.open({ dataDir: embeddedDbDir(dataDir) });
    try {
      const rows = await importRows(database);
      const killed = rows.filter((r) => r.importID !== next.body.importID);
      expect(killed).toHaveLength(1);
      expect(killed[0]).toMatchObject({ status: 'failed', failure: { statusCode: 500, message: expect.stringMatching(/stopped before it finished/) } });
      expect(rows.find((r) => r.importID === next.body.importID)?.status).toBe('completed');
      expect(await countRows(database, 'importLocks', { owner: killed[0].importID })).toBe(0);
    } finally {
      await database.close();
    }
  }, 300_000);
});
