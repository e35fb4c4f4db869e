import autocannon from 'autocannon';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, count, eq } from 'drizzle-orm';
import pg from 'pg';
import { ApiKeysService } from '../src/api-keys/api-keys.service.js';
import { randomHex } from '../src/common/crypto.js';
import { Database, embeddedDbDir } from '../src/database/database.js';
import { charts, scores } from '../src/database/schema.js';
import { ApiKeysRepository } from '../src/repositories/api-keys.repository.js';
import { UsersRepository } from '../src/repositories/users.repository.js';
import { loadSdvxCatalog } from './catalog-fixture.js';
import { PG_URL, postgresReachable, serve, table } from './support.js';

const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const PLAYERS = Number(process.env.BENCH_HOOKS_PLAYERS ?? 16);
const PORT = Number(process.env.BENCH_HOOKS_PORT ?? 3998);

/** Barbatos's difficulty index of each SDVX difficulty (the fourth chart, whatever its name, is 3). */
const BARBATOS_DIFFICULTY: Record<string, number> = { NOV: 0, ADV: 1, EXH: 2, INF: 3, GRV: 3, HVN: 3, VVD: 3, XCD: 3, MXM: 4 };

interface Target {
  songID: number;
  difficulty: number;
}

/**
 * Player p's k-th play: an SDVX6 (EXCEED GEAR) Barbatos payload on chart (p + 16k) of the list,
 * so that no two plays of a run share a chart until the list wraps round.
 */
function play(targets: Target[], p: number, k: number): string {
  const t = targets[(p + PLAYERS * k) % targets.length];
  const score = 8_000_000 + ((p * 7_919 + k * 104_729) % 1_900_000);
  return JSON.stringify({
    difficulty: t.difficulty,
    level: 15,
    song_id: t.songID,
    score,
    max_chain: 900,
    percent: 70 + (k % 30),
    clear_type: 2 + (k % 2),
    gauge_type: 0,
    ex_score: 2_000 + (k % 1_000),
    grade: 8,
    early_crit: 300,
    s_crit: 500,
    late_crit: 100,
    early_near: 20,
    late_near: 15,
    early_error: 3,
    late_error: 2,
    chip_s_crit: 500,
    chip_crit: 300,
    chip_near: 35,
    chip_error: 5,
    long_crit: 80,
    long_error: 0,
    vol_crit: 60,
    vol_error: 0,
  });
}

interface Run {
  rps: number;
  p50: number;
  p99: number;
  failures: string;
}

/**
 * POSTs `request(p, k)` on 16 connections, one per player, for warm-up then DURATION seconds. Each
 * connection keeps its own player and play counter, so a player's requests never overlap (as one
 * game client's) and every play is new.
 */
async function load(url: string, tokens: string[], request: (p: number, k: number) => { path: string; body: string }) {
  const counters = tokens.map(() => 0);
  let perScoreErrors = 0;
  const run = async (duration: number): Promise<Run> => {
    let nextPlayer = 0;
    const r = await autocannon({
      url,
      connections: PLAYERS,
      duration,
      setupClient: (client) => {
        const p = nextPlayer++ % PLAYERS;
        client.setRequests([
          {
            setupRequest: (req) => {
              const { path: requestPath, body } = request(p, counters[p]++);
              return {
                ...req,
                method: 'POST',
                path: requestPath,
                body,
                headers: { authorization: `Bearer ${tokens[p]}`, 'content-type': 'application/json' },
              };
            },
            onResponse: (status, body) => {
              if (status === 200 && body.includes('"errors":[{')) perScoreErrors++;
            },
          },
        ]);
      },
    });
    const codes = Object.entries(r.statusCodeStats ?? {})
      .filter(([code]) => !code.startsWith('2'))
      .map(([code, { count: n }]) => `${n}× ${code}`);
    const failures = [
      codes.length && `non-2xx: ${codes.join(', ')}`,
      r.errors && `${r.errors} errors (${r.timeouts} timeouts)`,
      perScoreErrors && `${perScoreErrors} answered 200 with per-score errors`,
    ]
      .filter(Boolean)
      .join(', ');
    return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, failures };
  };
  await run(2); // warm-up
  // autocannon drops the requests still in flight when it stops; the server finishes those imports,
  // and a player's next request before that would get 409 (one import per user at a time).
  await new Promise((resolve) => setTimeout(resolve, 2000));
  perScoreErrors = 0;
  return run(DURATION);
}

async function newPlayer(database: Database, name: string): Promise<string> {
  const user = await database.transaction((tx) => new UsersRepository(database).insert({ username: name, email: `${name}@bench.test`, passwordHash: 'x' }, tx));
  const { token } = await new ApiKeysService(new ApiKeysRepository(database)).issue({
    userID: user.id,
    identifier: 'hook',
    permissions: ['submit_score'],
    fromAPIClient: null,
  });
  return token;
}

/** The database kinds measured: BENCH_HOOKS_DATABASES=postgres,pglite (both by default; PostgreSQL when reachable). */
const KINDS = (process.env.BENCH_HOOKS_DATABASES ?? 'postgres,pglite').split(',');

interface Setup {
  kind: 'PostgreSQL' | 'PGlite';
  /** The server's database settings. */
  env: Record<string, string>;
  open: () => Promise<Database>;
  dispose: () => Promise<void>;
}

async function postgresSetup(dataDir: string): Promise<Setup> {
  const dbName = `st_hooks_${randomHex(4)}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${dbName}"`);
  await admin.end();
  const dbUrl = new URL(PG_URL);
  dbUrl.pathname = `/${dbName}`;
  return {
    kind: 'PostgreSQL',
    env: { DATABASE_URL: dbUrl.toString(), DATA_DIR: dataDir },
    open: () => Database.open({ url: dbUrl.toString(), poolSize: 4 }),
    dispose: async () => {
      const c = new pg.Client({ connectionString: PG_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
      await c.end();
    },
  };
}

function pgliteSetup(dataDir: string): Setup {
  // The server's embedded database is DATA_DIR/db; the bench prepares it there and closes it first.
  return { kind: 'PGlite', env: { DATA_DIR: dataDir }, open: () => Database.open({ dataDir: embeddedDbDir(dataDir) }), dispose: async () => {} };
}

/**
 * Single-score hook submissions (POST /ir/barbatos/score/submit: auth, import lock, the whole
 * pipeline and its commit for one score) from 16 players at once, against the server in its own
 * process on PostgreSQL and on the embedded PGlite; beside each, in the same run, the bare
 * authenticated POST /api/v1/status (the token is looked up, the answer is a constant) on the same
 * 16 connections and tokens.
 */
export async function hooksBench(): Promise<string> {
  const rows: (string | number)[][] = [];
  let notes: string[] = [];
  for (const kind of KINDS) {
    if (kind === 'postgres' && !(await postgresReachable())) {
      notes.push(`PostgreSQL at ${PG_URL} is not reachable: its rows were skipped.`);
      continue;
    }
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'st-hooks-'));
    const setup = kind === 'pglite' ? pgliteSetup(dataDir) : await postgresSetup(dataDir);
    try {
      const result = await measure(setup);
      rows.push(...result.rows);
      notes = [...notes, ...result.notes.filter((n) => !notes.includes(n))];
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
      await setup.dispose();
    }
  }
  return `${table(['Database', 'Request', 'req/s', 'of baseline', 'p50 ms', 'p99 ms', 'failed requests'], rows)}\n\n${notes.join('\n')}`;
}

async function measure(setup: Setup): Promise<{ rows: (string | number)[][]; notes: string[] }> {
  const database = await setup.open();
  await database.migrate();
  const source = await loadSdvxCatalog(database);
  const targets = (
    await database.db
      .select({ data: charts.data, difficulty: charts.difficulty, versions: charts.versions })
      .from(charts)
      .where(and(eq(charts.game, 'sdvx'), eq(charts.playtype, 'Single')))
  )
    .filter((c) => c.versions.includes('exceed') && typeof c.data.inGameID === 'number' && c.difficulty in BARBATOS_DIFFICULTY)
    .map((c) => ({ songID: c.data.inGameID as number, difficulty: BARBATOS_DIFFICULTY[c.difficulty] }));
  const tokens: string[] = [];
  for (let p = 0; p < PLAYERS; p++) tokens.push(await newPlayer(database, `hook_player_${p}`));
  await database.close();

  const server = await serve(
    ['dist/main.js'],
    { ...setup.env, PORT: String(PORT), LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: '0', SNAPSHOT_SCHEDULE: 'false' },
    PORT,
  );
  let baseline: Run;
  let hooks: Run;
  try {
    baseline = await load(server.url, tokens, () => ({ path: '/api/v1/status', body: '{"echo":"bench"}' }));
    hooks = await load(server.url, tokens, (p, k) => ({ path: '/ir/barbatos/score/submit', body: play(targets, p, k) }));
  } finally {
    await server.stop();
  }

  const check = await setup.open();
  const [{ n: stored }] = await check.db.select({ n: count() }).from(scores);
  await check.close();

  const rows = [
    [setup.kind, 'bare authenticated POST /api/v1/status', Math.round(baseline.rps), '100%', baseline.p50, baseline.p99, baseline.failures || '—'],
    [
      setup.kind,
      'POST /ir/barbatos/score/submit (one new score)',
      Math.round(hooks.rps),
      `${((hooks.rps / baseline.rps) * 100).toFixed(0)}%`,
      hooks.p50,
      hooks.p99,
      hooks.failures || '—',
    ],
  ];
  for (const r of rows) console.error(`  ${r.join(' | ')}`);
  const notes = [
    `${PLAYERS} players (one connection and one submit_score token each; a player's requests never overlap), ${DURATION} s after a 2 s warm-up, server in its own process (dist/main.js; on PostgreSQL DATABASE_POOL_SIZE at its default of 10, on PGlite the embedded database in DATA_DIR), ${source}, ${targets.length} EXCEED GEAR charts.`,
    `Every hook request is an SDVX6 payload on a chart no other request of the run used (until the chart list wraps) with its own receive time; ${setup.kind}: ${stored} scores stored in all, warm-ups included.`,
  ];
  return { rows, notes };
}
