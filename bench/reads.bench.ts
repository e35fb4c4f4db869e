import autocannon from 'autocannon';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { Database, embeddedDbDir } from '../src/database/database.js';
import { randomHex } from '../src/common/crypto.js';
import { buildReadsDataset, type ReadsDataset } from './reads-dataset.js';
import { PG_URL, postgresReachable, serve, table } from './support.js';

const USERS = Number(process.env.BENCH_READS_USERS ?? 10_000);
const SCORES_PER_USER = Number(process.env.BENCH_READS_SCORES_PER_USER ?? 100);
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = 64;

async function load(url: string, headers: Record<string, string> = {}) {
  await autocannon({ url, connections: CONNECTIONS, duration: 2, headers }); // warm-up
  const r = await autocannon({ url, connections: CONNECTIONS, duration: DURATION, headers });
  // Errors are mostly timeouts (autocannon gives up after 10 s): reported beside the figures, not hidden.
  const failures = [r.non2xx && `${r.non2xx} non-2xx`, r.errors && `${r.errors} errors (${r.timeouts} timeouts)`].filter(Boolean).join(', ');
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, failures };
}

function endpoints(d: ReadsDataset): [string, string][] {
  const gpt = '/api/v1/games/sdvx/Single';
  const ugpt = `/api/v1/users/${d.sampleUserID}/games/sdvx/Single`;
  return [
    ['/status', '/api/v1/status'],
    ['GPT leaderboard', `${gpt}/leaderboard`],
    ['chart pbs', `${gpt}/charts/${d.sampleChartID}/pbs`],
    ['UGPT pbs/best', `${ugpt}/pbs/best`],
    ['UGPT scores/recent', `${ugpt}/scores/recent`],
    ['UGPT leaderboard-adjacent', `${ugpt}/leaderboard-adjacent`],
    ['charts?search', `${gpt}/charts?search=${encodeURIComponent(d.searchTerm)}`],
  ];
}

/** EXPLAINs every SELECT the server ran (on PostgreSQL) and names those with a sequential scan of scores or personal_bests. */
async function seqScans(url: string, logFile: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const found = new Set<string>();
  try {
    const seen = new Set<string>();
    for (const line of fs.readFileSync(logFile, 'utf8').split('\n').filter(Boolean)) {
      const { query, params } = JSON.parse(line) as { query: string; params: unknown[] };
      if (!/^\s*(select|with)/i.test(query) || seen.has(query)) continue;
      seen.add(query);
      const plan = (await client.query(`EXPLAIN ${query}`, params)).rows.map((r: Record<string, string>) => r['QUERY PLAN']).join('\n');
      for (const table of ['scores', 'personal_bests', 'pb_ratings'])
        if (new RegExp(`Seq Scan on ${table}\\b`).test(plan)) found.add(`${table}: ${query.slice(0, 160)}`);
    }
  } finally {
    await client.end();
  }
  return [...found];
}

/**
 * Builds the dataset (10,000 users, 1,000,000 scores by default) on each database kind, then
 * drives the read endpoints with autocannon at 64 connections against the real server in its own
 * process, beside a bare NestJS hello-world measured in the same run.
 */
export async function readsBench(): Promise<string> {
  const rows: (string | number)[][] = [];
  const notes: string[] = [];
  const hello = await serve(['dist-bench/bench/hello-server.js'], {});
  const ceiling = await load(`${hello.url}/hello`);
  await hello.stop();
  const note = (text: string) => {
    notes.push(text);
    console.error(`  ${text}`);
  };
  const row = (cells: (string | number)[]) => {
    rows.push(cells);
    console.error(`  ${cells.join(' | ')}`);
  };
  row(['—', 'hello world (ceiling)', Math.round(ceiling.rps), '100%', ceiling.p50, ceiling.p99, ceiling.failures]);

  // BENCH_READS_DATABASES=postgres (or pglite) runs one kind only.
  const only = process.env.BENCH_READS_DATABASES?.toLowerCase();
  const kinds: ('PGlite' | 'PostgreSQL')[] = [
    ...((!only || only.includes('postgres')) && (await postgresReachable()) ? (['PostgreSQL'] as const) : []),
    ...(!only || only.includes('pglite') ? (['PGlite'] as const) : []),
  ];
  for (const kind of kinds) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'st-reads-'));
    const sqlLog = path.join(dataDir, 'sql.log');
    let dbUrl: string | undefined;
    let dbName = '';
    if (kind === 'PostgreSQL') {
      dbName = `st_reads_${randomHex(4)}`;
      const admin = new pg.Client({ connectionString: PG_URL });
      await admin.connect();
      await admin.query(`CREATE DATABASE "${dbName}"`);
      await admin.end();
      const u = new URL(PG_URL);
      u.pathname = `/${dbName}`;
      dbUrl = u.toString();
    }
    try {
      const database = dbUrl ? await Database.open({ url: dbUrl, poolSize: 10 }) : await Database.open({ dataDir: embeddedDbDir(dataDir) });
      await database.migrate();
      const started = Date.now();
      const dataset = await buildReadsDataset(database, USERS, SCORES_PER_USER, (l) => console.error(`${kind}${l}`));
      note(
        `${kind}: dataset of ${dataset.users} users and ${dataset.scores} scores (${dataset.source}) built through the import pipeline (chart ranks deferred to one rerank pass) in ${((Date.now() - started) / 1000).toFixed(0)} s.`,
      );
      note(
        `${kind}: one more player's import of ${SCORES_PER_USER} plays into that dataset (in process, as an inline import): ${dataset.lateImportMs.map((ms) => `${Math.round(ms)} ms`).join(', ')}.`,
      );
      // As autovacuum would on a server, and the embedded server's own statistics job does.
      await database.db.execute(sql`ANALYZE`);
      await database.close();

      const server = await serve(
        ['dist/main.js'],
        {
          ...(dbUrl ? { DATABASE_URL: dbUrl } : {}),
          DATA_DIR: dataDir,
          PORT: '3999',
          LOG_LEVEL: 'warn',
          RATE_LIMIT_PER_MINUTE: '0',
          SNAPSHOT_SCHEDULE: 'false',
          SQL_LOG_FILE: sqlLog,
        },
        3999,
      );
      try {
        for (const [name, url] of endpoints(dataset)) {
          const r = await load(`${server.url}${url}`);
          row([kind, name, Math.round(r.rps), `${((r.rps / ceiling.rps) * 100).toFixed(0)}%`, r.p50, r.p99, r.failures]);
        }
      } finally {
        await server.stop();
      }
      if (dbUrl) {
        const scans = await seqScans(dbUrl, sqlLog);
        note(
          scans.length
            ? `${kind}: sequential scans found:\n${scans.map((s) => `  - ${s}`).join('\n')}`
            : `${kind}: EXPLAIN of every statement these endpoints ran shows no sequential scan on scores, personal_bests or pb_ratings.`,
        );
      }
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
      if (dbName) {
        const admin = new pg.Client({ connectionString: PG_URL });
        await admin.connect();
        await admin.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
        await admin.end();
      }
    }
  }
  return `${table(['Database', 'Endpoint', 'req/s', 'of ceiling', 'p50 ms', 'p99 ms', 'failed requests'], rows)}\n\n${notes.join('\n')}`;
}
