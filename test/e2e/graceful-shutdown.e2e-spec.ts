import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawn, type ChildProcess } from 'node:child_process';
import { eq } from 'drizzle-orm';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { Database, embeddedDbDir } from '../../src/database/database.js';
import { imports, scores } from '../../src/database/schema.js';
import { buildIfNeeded, ROOT } from '../support/cli.js';
import { batchManual, loadFixtureCatalog, MINUTE, T0 } from '../support/imports.js';

/** SIGTERM to the built server (dist/main.js) while an inline import runs: the import finishes, then the process exits 0. */
const MAIN = path.join(ROOT, 'dist', 'main.js');
const SCORES = 20_000;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

describe('graceful shutdown of an API process', () => {
  let dataDir: string;
  let child: ChildProcess | undefined;

  beforeAll(async () => {
    buildIfNeeded();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'st-shutdown-'));
    const database = await Database.open({ dataDir: embeddedDbDir(dataDir) });
    try {
      await database.migrate();
      await loadFixtureCatalog(database, 'catalog', ['sdvx']);
    } finally {
      await database.close();
    }
  }, 300_000);
  afterAll(() => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('stops accepting connections, finishes the import in flight, closes the database and exits 0', async () => {
    const port = await freePort();
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      AUTH_RATE_LIMIT_FACTOR: '0',
      RATE_LIMIT_PER_MINUTE: '0',
      SNAPSHOT_SCHEDULE: 'false',
      SHUTDOWN_TIMEOUT_MS: '120000',
    };
    delete env.DATABASE_URL;
    delete env.REDIS_URL;
    const server = spawn(process.execPath, [MAIN], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    child = server;
    let output = '';
    const exited = new Promise<number | null>((resolve) => server.on('exit', (code) => resolve(code)));
    await new Promise<void>((resolve, reject) => {
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('listening on')) resolve();
      };
      server.stdout!.on('data', onData);
      server.stderr!.on('data', onData);
      void exited.then((code) => reject(new Error(`server exited with ${code} before listening:\n${output}`)));
    });

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

    server.kill('SIGTERM');
    // No new connections once it has taken the signal (its event loop turns between the import's queries).
    while (!output.includes('SIGTERM: finishing')) await new Promise((r) => setTimeout(r, 20));
    await expect(request(url).get('/api/v1/status')).rejects.toThrow(/ECONNREFUSED/);

    const res = await importing;
    expect(res.status).toBe(200);
    expect(await exited).toBe(0);
    expect(output).toMatch(/Stopped\./);

    const database = await Database.open({ dataDir: embeddedDbDir(dataDir) });
    try {
      const [row] = await database.db.select().from(imports).where(eq(imports.importID, res.body.importID));
      expect(row).toBeDefined();
      const stored = await database.db.select({ scoreID: scores.scoreID }).from(scores).where(eq(scores.importID, res.body.importID));
      expect(stored).toHaveLength(SCORES);
    } finally {
      await database.close();
    }
  }, 300_000);
});
