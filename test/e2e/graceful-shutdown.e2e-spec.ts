import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import request from 'supertest';
import { Database, embeddedDbDir } from '../../src/database/database.js';
import { batchManual, MINUTE, T0 } from '../support/imports.js';
import { embeddedDataDirWithCatalog, freePort, startBuiltServer } from '../support/server-process.js';
import { countRows, importRow } from '../support/stored.js';

/** SIGTERM to the built server (dist/main.js) while an inline import runs: the import finishes, then the process exits 0. */
const SCORES = 20_000;

describe('graceful shutdown of an API process', () => {
  let dataDir: string;
  let child: ChildProcess | undefined;

  beforeAll(async () => {
    dataDir = await embeddedDataDirWithCatalog('st-shutdown-');
  }, 300_000);
  afterAll(() => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('stops accepting connections, finishes the import in flight, closes the database and exits 0', async () => {
    const port = await freePort();
    const server = await startBuiltServer(dataDir, port, { SHUTDOWN_TIMEOUT_MS: '120000' });
    child = server.child;

    const url = `http://127.0.0.1:${port}`;
    const agent = request.agent(url);
    const reg = await agent
      .post('/api/v1/auth/register')
      .send({ username: 'shutdown_user', '!password': 'shutdown-password', email: 'shutdown@example.test', captcha: 'x' });
    expect(reg.status).toBe(200);

    const elements = Array.from({ length: SCORES }, (_, i) => ({
      matchType: 'sdvxInGameID',
      identifier: '1001',
      difficulty: 'EXH',
      score: 9_000_000 + i,
      lamp: 'CLEAR',
      timeAchieved: T0 + i * MINUTE,
    }));
    const importing = agent
      .post('/api/v1/import/file')
      .field('importType', 'file/batch-manual')
      .attach('scoreData', Buffer.from(JSON.stringify(batchManual('sdvx', 'Single', elements))), 'scores.json')
      .then((res) => {
        settled = true;
        return res;
      });
    let settled = false;
    // The upload takes milliseconds and the import seconds: a second in, it is running.
    await new Promise((r) => setTimeout(r, 1000));
    expect(settled).toBe(false);

    server.child.kill('SIGTERM');
    // No new connections once it has taken the signal (its event loop turns between the import's queries).
    while (!server.output().includes('SIGTERM: finishing')) await new Promise((r) => setTimeout(r, 20));
    await expect(request(url).get('/api/v1/status')).rejects.toThrow(/ECONNREFUSED/);

    const res = await importing;
    expect(res.status).toBe(200);
    expect(await server.exited).toBe(0);
    expect(server.output()).toMatch(/Stopped\./);

    const database = await Database.open({ dataDir: embeddedDbDir(dataDir) });
    try {
      expect(await importRow(database, res.body.importID)).toBeDefined();
      expect(await countRows(database, 'scores', { importID: res.body.importID })).toBe(SCORES);
    } finally {
      await database.close();
    }
  }, 300_000);
});
