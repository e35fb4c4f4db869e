import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { createApp } from '../../src/app.factory.js';
import { loadConfig } from '../../src/config/app-config.js';
import { Database, embeddedDbDir } from '../../src/database/database.js';
import { InlineImportQueue } from '../../src/imports/import-queue.js';
import { buildIfNeeded, runCli } from '../support/cli.js';
import { batchManual, fixtureChart, loadFixtureCatalog, PIPELINE_FIXTURES, T0 } from '../support/imports.js';
import { storedOrphans, storedPb, storedScores } from '../support/stored.js';
import { migratedDataDir } from '../support/template-db.js';

/**
 * The seed CLI retries orphans: a score whose chart was unknown is imported by the same
 * `seeds` run that adds the chart. This runs the built CLI (dist/cli.js) as `npm run cli` does,
 * on an embedded database in a temporary DATA_DIR, which the test opens before and after.
 */

describe('orphans are retried by the seeds CLI once it adds their chart', () => {
  let dataDir: string;

  beforeAll(async () => {
    buildIfNeeded();
    dataDir = await migratedDataDir('st-orphan-cli-');
  }, 300_000);
  afterAll(() => {
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('imports the orphan with its PB during `cli seeds`, and reports it', async () => {
    // 1. The server (in this process) on the embedded database: the catalog without the late chart, and an orphaned score.
    const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', AUTH_RATE_LIMIT_FACTOR: '0', RATE_LIMIT_PER_MINUTE: '0' });
    let database = await Database.open({ dataDir: embeddedDbDir(dataDir) });
    await database.migrate();
    const app = await createApp({ config, database, ownsDatabase: true, redis: null, keyPrefix: 'st-orphan-cli', importQueue: new InlineImportQueue() });
    let userID: number;
    try {
      await app.init();
      await loadFixtureCatalog(database, 'catalog', ['sdvx']);
      const agent = request.agent(app.getHttpServer() as Parameters<typeof request>[0]);
      const reg = await agent
        .post('/api/v1/auth/register')
        .send({ username: 'orphan_owner', '!password': 'orphan-password', email: 'orphan@example.test', captcha: 'x' });
      expect(reg.status).toBe(200);
      userID = reg.body.id;
      const res = await agent
        .post('/api/v1/import/file')
        .field('importType', 'file/batch-manual')
        .attach(
          'scoreData',
          Buffer.from(
            JSON.stringify(
              batchManual('sdvx', 'Single', [
                { matchType: 'sdvxInGameID', identifier: '1100', difficulty: 'EXH', score: 9_500_000, lamp: 'CLEAR', timeAchieved: T0 },
              ]),
            ),
          ),
          'scores.json',
        );
      expect(res.status).toBe(200);
      expect(res.body.errors.map((e: { type: string }) => e.type)).toEqual(['SongOrChartNotFound']);
    } finally {
      await app.close();
    }

    // 2. The CLI adds the chart (the server is stopped: PGlite admits one process).
    const run = await runCli(['seeds', '--from', path.join(PIPELINE_FIXTURES, 'late'), '--games', 'sdvx'], { dataDir });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Orphaned scores retried: 1 (1 now imported, 0 dropped as invalid or duplicate, 0 still unmatched).');

    // 3. The score and its PB exist (as the server, started again, serves them); the orphan is gone.
    database = await Database.open({ dataDir: embeddedDbDir(dataDir) });
    const restarted = await createApp({ config, database, ownsDatabase: true, redis: null, keyPrefix: 'st-orphan-cli', importQueue: new InlineImportQueue() });
    try {
      await restarted.init();
      const api = { http: () => request(restarted.getHttpServer() as Parameters<typeof request>[0]) };
      const stored = await storedScores(api, userID);
      expect(stored).toHaveLength(1);
      expect(stored[0]).toMatchObject({ chartID: fixtureChart('sdvx-100-EXH'), scoreData: { score: 9_500_000 }, timeAchieved: T0 });
      expect(await storedPb(api, userID, fixtureChart('sdvx-100-EXH'))).toMatchObject({
        chartID: fixtureChart('sdvx-100-EXH'),
        rankingData: { rank: 1, outOf: 1 },
      });
      expect(await storedOrphans(database, userID)).toEqual([]);
    } finally {
      await restarted.close();
    }

    // 4. A second run changes nothing and retries nothing.
    const second = await runCli(['seeds', '--from', path.join(PIPELINE_FIXTURES, 'late'), '--games', 'sdvx'], { dataDir });
    expect(second.code).toBe(0);
    expect(second.stdout).not.toContain('Orphaned scores retried');
  }, 120_000);
});
