import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { ApiKeysService } from '../src/api-keys/api-keys.service.js';
import { PERMISSIONS } from '../src/common/permissions.js';
import { randomHex } from '../src/common/crypto.js';
import { Database } from '../src/database/database.js';
import { EMPTY_SOCIALS, users } from '../src/database/schema.js';
import { ApiKeysRepository } from '../src/repositories/api-keys.repository.js';
import { buildReadsDataset } from './reads-dataset.js';
import { PG_URL, postgresReachable, serve, table } from './support.js';

/** Crowd sizes (players) of the datasets, comma-separated: BENCH_CROWD_SIZES=1000,3000. */
const SIZES = (process.env.BENCH_CROWD_SIZES ?? '1000,3000').split(',').map(Number);
const PLAYS = 100;
const IMPORTS = 7;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * How an import's cost depends on the crowd: on PostgreSQL, a dataset of each size (100 SDVX plays
 * per player, popular charts played most, as in the reads suite), then IMPORTS new players each
 * import 100 plays over HTTP (direct-manual, inline) into the running server, one after another,
 * each once the server's rank refresher has re-ranked the charts the previous one left dirty
 * (that delay is reported too). Equal times at every size mean the import does not grow with the
 * crowd.
 */
export async function crowdImportBench(): Promise<string> {
  if (!(await postgresReachable())) return `PostgreSQL at ${PG_URL} is not reachable: skipped.`;
  const rows: (string | number)[][] = [];
  for (const size of SIZES) {
    const dbName = `st_crowd_${randomHex(4)}`;
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'st-crowd-'));
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${dbName}"`);
    await admin.end();
    const u = new URL(PG_URL);
    u.pathname = `/${dbName}`;
    const dbUrl = u.toString();
    try {
      const database = await Database.open({ url: dbUrl, poolSize: 10 });
      await database.migrate();
      const started = Date.now();
      const dataset = await buildReadsDataset(database, size, PLAYS, (l) => console.error(`${size}${l}`));
      const buildS = (Date.now() - started) / 1000;
      await database.db.execute(sql`ANALYZE`);
      const now = Date.now();
      const tokens: string[] = [];
      for (let i = 0; i < IMPORTS; i++) {
        const [late] = await database.db
          .insert(users)
          .values({ username: `crowd${i}`, usernameLowercase: `crowd${i}`, about: '', socialMedia: EMPTY_SOCIALS, joinDate: now, lastSeen: now })
          .returning({ id: users.id });
        const { token } = await new ApiKeysService(new ApiKeysRepository(database)).issue({
          userID: late.id,
          identifier: 'bench',
          permissions: [...PERMISSIONS],
          fromAPIClient: null,
        });
        tokens.push(token);
      }
      await database.close();

      const server = await serve(
        ['dist/main.js'],
        { DATABASE_URL: dbUrl, DATA_DIR: dataDir, PORT: '3998', LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: '0', SNAPSHOT_SCHEDULE: 'false' },
        3998,
      );
      const ms: number[] = [];
      const catchUpMs: number[] = [];
      const watcher = new pg.Client({ connectionString: dbUrl });
      await watcher.connect();
      try {
        for (const [i, token] of tokens.entries()) {
          const body = JSON.stringify({
            meta: { game: 'sdvx', playtype: 'Single', service: 'bench' },
            scores: dataset.plays((i + 0.5) / tokens.length, PLAYS),
          });
          const t0 = performance.now();
          const res = await fetch(`${server.url}/api/v1/ir/direct-manual/import`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
            body,
          });
          await res.text();
          ms.push(performance.now() - t0);
          if (res.status !== 200) throw new Error(`import answered ${res.status}`);
          // How long the server's rank refresher takes to leave no chart dirty (stored ranks stale).
          const t1 = performance.now();
          while ((await watcher.query('SELECT 1 FROM chart_rankings WHERE dirty_since IS NOT NULL LIMIT 1')).rowCount && performance.now() - t1 < 30_000)
            await new Promise((r) => setTimeout(r, 20));
          catchUpMs.push(performance.now() - t1);
          await new Promise((r) => setTimeout(r, 500));
        }
      } finally {
        await watcher.end();
        await server.stop();
      }
      // The first import warms the server's caches: the rest are the figure.
      const timedMs = ms.slice(1);
      rows.push([
        size,
        dataset.scores,
        `${buildS.toFixed(0)} s`,
        Math.round(median(timedMs)),
        `${Math.round(Math.min(...timedMs))}–${Math.round(Math.max(...timedMs))}`,
        ms.map((m) => Math.round(m)).join(', '),
        catchUpMs.map((m) => Math.round(m)).join(', '),
      ]);
      console.error(`  ${rows.at(-1)!.join(' | ')}`);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
      const c = new pg.Client({ connectionString: PG_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
      await c.end();
    }
  }
  return table(['players', 'scores', 'dataset built in', 'import median ms', 'range ms', 'every import (first warms up)', 'ms until no chart is dirty'], rows);
}
