import autocannon from 'autocannon';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { Database, embeddedDbDir, queryRows } from '../src/database/database.js';
import { keptReadsDataset, type ReadsDataset } from './reads-dataset.js';
import { MIXES, picker, type MixName } from './request-mix.js';
import { postgresReachable, serve, table, type Served } from './support.js';

const USERS = Number(process.env.BENCH_READS_USERS ?? 10_000);
const SCORES_PER_USER = Number(process.env.BENCH_READS_SCORES_PER_USER ?? 100);
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const ROUNDS = Number(process.env.BENCH_READS_ROUNDS ?? 2);
const CONNECTIONS = 64;
/** Seconds of load before each measured run (BENCH_WARMUP): the embedded server needs longer than PostgreSQL to settle. */
const WARMUP = Number(process.env.BENCH_WARMUP ?? 2);
/** What answers: the app with its read cache (on) or without it (off), or the reference server (bench/reference-server.ts). */
type Mode = 'on' | 'off' | 'reference';
/** BENCH_READS_CACHE=both (default: the server with its read cache and without it, alternating), on or off. */
const CACHE_MODES = ({ on: ['on'], off: ['off'], both: ['on', 'off'] } as Record<string, Mode[]>)[process.env.BENCH_READS_CACHE ?? 'both'] ?? ['on', 'off'];
/**
 * BENCH_READS_SERVERS=on,off,reference picks the servers measured, overriding BENCH_READS_CACHE
 * (default: BENCH_READS_CACHE's modes and the reference). The reference needs PostgreSQL: it is
 * left out on PGlite.
 */
const MODES: Mode[] = process.env.BENCH_READS_SERVERS
  ? process.env.BENCH_READS_SERVERS.split(',').filter((m): m is Mode => m === 'on' || m === 'off' || m === 'reference')
  : [...CACHE_MODES, 'reference'];
const SERVER_LABELS: Record<Mode, string> = { on: 'app, cache on', off: 'app, cache off', reference: 'reference (http + pg)' };
/** Requests per endpoint and mix whose bodies must be the same from the reference and the app before anything is timed. */
const SAME_BODY_SAMPLES = 20;
const REFERENCE_PORT = 3997;
/** The cached server's READ_CACHE_MB (BENCH_READ_CACHE_MB; default the app's own, 64). */
const CACHE_MB = process.env.BENCH_READ_CACHE_MB ?? '64';
/** BENCH_READS_MIXES=fixed,cold,zipf (default all three). */
const MIX_NAMES = (process.env.BENCH_READS_MIXES?.split(',') ?? MIXES).filter((m): m is MixName => (MIXES as readonly string[]).includes(m));

interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  failures: string;
}

/** 64 connections for DURATION s after WARMUP s of the same load, each request's path drawn from `nextPath`. */
async function load(base: string, nextPath: () => string): Promise<LoadResult> {
  const options = {
    url: base,
    connections: CONNECTIONS,
    requests: [{ method: 'GET' as const, setupRequest: (req: { path?: string }) => ({ ...req, path: nextPath() }) }],
  };
  await autocannon({ ...options, duration: WARMUP });
  const r = await autocannon({ ...options, duration: DURATION });
  // Errors are mostly timeouts (autocannon gives up after 10 s): reported beside the figures, not hidden.
  const failures = [r.non2xx && `${r.non2xx} non-2xx`, r.errors && `${r.errors} errors (${r.timeouts} timeouts)`].filter(Boolean).join(', ');
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, failures };
}

/**
 * Aborts the bench unless the reference server answers SAME_BODY_SAMPLES requests of every
 * endpoint and mix with the app's status and bytes (the app with its cache when it runs, else
 * without; a server started for the check alone is stopped after it).
 */
async function expectSameBodies(
  servers: Map<Mode, Served>,
  start: (mode: Mode) => Promise<Served>,
  list: Endpoint[],
  mixesOf: (name: string) => readonly MixName[],
): Promise<void> {
  const reference = servers.get('reference')!;
  const own = servers.get('on') ?? servers.get('off');
  const app = own ?? (await start('off'));
  try {
    for (const [name, pathFor] of list)
      for (const mix of mixesOf(name)) {
        const next = pathFor(mix);
        for (let i = 0; i < SAME_BODY_SAMPLES; i++) {
          const url = next();
          const [a, r] = await Promise.all([fetch(app.url + url), fetch(reference.url + url)]);
          const [aBody, rBody] = await Promise.all([a.text(), r.text()]);
          if (a.status !== 200 || r.status !== 200 || aBody !== rBody) {
            let at = 0;
            while (at < aBody.length && aBody[at] === rBody[at]) at++;
            throw new Error(
              `The reference server's answer differs from the app's for GET ${url} (${name}, ${mix} mix): app ${a.status}, reference ${r.status}` +
                (aBody !== rBody
                  ? `; bodies differ from character ${at}:\n  app:       ${aBody.slice(Math.max(0, at - 80), at + 120)}\n  reference: ${rBody.slice(Math.max(0, at - 80), at + 120)}`
                  : ''),
            );
          }
        }
      }
    console.error(`  the reference server answers ${SAME_BODY_SAMPLES} requests of each endpoint and mix with the app's bytes`);
  } finally {
    if (!own) await app.stop();
  }
}

/** Who and what requests are spread over: the GPT's players, its charts with PBs, and words of its song titles. */
interface Population {
  userIDs: number[];
  chartIDs: string[];
  searchTerms: string[];
}

async function population(database: Database): Promise<Population> {
  const userIDs = (
    await queryRows<{ id: number }>(database.db, sql`SELECT user_id AS id FROM user_game_stats WHERE game = 'sdvx' AND playtype = 'Single' ORDER BY 1`)
  ).map((r) => Number(r.id));
  const chartIDs = (
    await queryRows<{ id: string }>(database.db, sql`SELECT DISTINCT chart_id AS id FROM personal_bests WHERE game = 'sdvx' AND playtype = 'Single' ORDER BY 1`)
  ).map((r) => r.id);
  const words = await queryRows<{ w: string }>(
    database.db,
    sql`SELECT DISTINCT lower(w) AS w FROM songs, regexp_split_to_table(title, '\\s+') w WHERE game = 'sdvx' AND w ~ '^[A-Za-z]{4,}$' ORDER BY 1 LIMIT 500`,
  );
  return { userIDs, chartIDs, searchTerms: words.map((r) => r.w) };
}

type Endpoint = [name: string, path: (mix: MixName) => () => string];

function endpoints(d: ReadsDataset, p: Population): Endpoint[] {
  const gpt = '/api/v1/games/sdvx/Single';
  const user = (mix: MixName) => picker(mix, p.userIDs, d.sampleUserID, 1);
  const chart = (mix: MixName) => picker(mix, p.chartIDs, d.sampleChartID, 2);
  const term = (mix: MixName) => picker(mix, p.searchTerms, d.searchTerm, 3);
  const ugpt = (suffix: string) => (mix: MixName) => {
    const next = user(mix);
    return () => `/api/v1/users/${next()}/games/sdvx/Single/${suffix}`;
  };
  return [
    ['/status', () => () => '/api/v1/status'],
    // One page per GPT: the same request under every mix.
    ['GPT leaderboard', () => () => `${gpt}/leaderboard`],
    [
      'chart pbs',
      (mix) => {
        const next = chart(mix);
        return () => `${gpt}/charts/${next()}/pbs`;
      },
    ],
    ['UGPT pbs/best', ugpt('pbs/best')],
    ['UGPT scores/recent', ugpt('scores/recent')],
    ['UGPT leaderboard-adjacent', ugpt('leaderboard-adjacent')],
    [
      'charts?search',
      (mix) => {
        const next = term(mix);
        return () => `${gpt}/charts?search=${encodeURIComponent(next())}`;
      },
    ],
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

/** Identifies the dataset: its size and the migrations it was built with. */
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const range = (xs: number[]) => (xs.length > 1 ? ` (${Math.round(Math.min(...xs))}–${Math.round(Math.max(...xs))})` : '');

/**
 * Drives the read endpoints with autocannon at 64 connections against the real server in its own
 * process (statement logging off), under each request mix, with its read cache and without it
 * (BENCH_READS_CACHE), beside a bare NestJS hello-world: the ceiling. On PostgreSQL a third
 * server answers the same requests: the reference (bench/reference-server.ts, bare node:http + pg,
 * one statement per request), what the data itself costs; it must answer a sample of every
 * endpoint and mix with the app's bytes before anything is timed, and a note gives the app's
 * req/s (cache on) over the reference's per endpoint (BENCH_READS_SERVERS=on,off,reference picks
 * the servers). The servers are measured in alternation, round by round (ceiling, then every
 * endpoint and mix on each server), and each figure is the median of BENCH_READS_ROUNDS rounds
 * with its range. The dataset (10,000 players, 1,000,000 scores by default) is built once and kept.
 * Afterwards, an untimed pass with statement logging on EXPLAINs every statement (PostgreSQL).
 */
export async function readsBench(): Promise<string> {
  const rows: (string | number)[][] = [];
  const notes: string[] = [];
  const note = (text: string) => {
    notes.push(text);
    console.error(`  ${text}`);
  };
  // BENCH_READS_DATABASES=postgres (or pglite) runs one kind only.
  const only = process.env.BENCH_READS_DATABASES?.toLowerCase();
  const kinds: ('PGlite' | 'PostgreSQL')[] = [
    ...((!only || only.includes('postgres')) && (await postgresReachable()) ? (['PostgreSQL'] as const) : []),
    ...(!only || only.includes('pglite') ? (['PGlite'] as const) : []),
  ];
  const hello = await serve(['dist-bench/bench/hello-server.js'], {});
  try {
    for (const kind of kinds) {
      const kept = await keptReadsDataset(kind, USERS, SCORES_PER_USER);
      note(kept.builtNote);
      const database = await Database.open(kept.url ? { url: kept.url, poolSize: 2 } : { dataDir: embeddedDbDir(kept.env.DATA_DIR) });
      const people = await population(database).finally(() => database.close());
      note(
        `${kind}: requests spread over ${people.userIDs.length} players, ${people.chartIDs.length} charts with PBs and ${people.searchTerms.length} title words.`,
      );
      const base = { ...kept.env, PORT: '3999', LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: '0', SNAPSHOT_SCHEDULE: 'false' };
      const list = endpoints(kept.dataset, people);
      const results = new Map<string, LoadResult[]>();
      const record = (k: string, r: LoadResult) => results.set(k, [...(results.get(k) ?? []), r]);
      // The reference serves the six data routes, not /status, and runs on PostgreSQL only.
      const modes = MODES.filter((m) => m !== 'reference' || kept.url);
      const routes = (mode: Mode) => list.filter(([name]) => mode !== 'reference' || name !== '/status');
      const mixesOf = (name: string): readonly MixName[] => (name === '/status' || name === 'GPT leaderboard' ? (['fixed'] as const) : MIX_NAMES);
      // The embedded database is one process's: the two servers take turns on it.
      const servers = new Map<Mode, Served>();
      const start = async (mode: Mode) => {
        if (mode === 'reference')
          return serve(['dist-bench/bench/reference-server.js'], { DATABASE_URL: kept.url!, PORT: String(REFERENCE_PORT) }, REFERENCE_PORT);
        const port = mode === 'on' ? 3999 : 3998;
        return serve(['dist/main.js'], { ...base, PORT: String(port), READ_CACHE_MB: mode === 'off' ? '0' : CACHE_MB }, port);
      };
      try {
        if (kept.url) for (const mode of modes) servers.set(mode, await start(mode));
        if (servers.has('reference')) await expectSameBodies(servers, start, routes('reference'), mixesOf);
        for (let round = 1; round <= ROUNDS; round++) {
          record('ceiling', await load(hello.url, () => '/hello'));
          for (const mode of modes) {
            const server = servers.get(mode) ?? (await start(mode));
            try {
              for (const [name, pathFor] of routes(mode))
                for (const mix of mixesOf(name)) record(`${name}|${mix}|${mode}`, await load(server.url, pathFor(mix)));
            } finally {
              if (!kept.url) await server.stop();
            }
          }
          console.error(`  ${kind}: round ${round}/${ROUNDS} done`);
        }
      } finally {
        for (const server of servers.values()) await server.stop();
      }
      const ceiling = results.get('ceiling')!;
      const ceilingRps = median(ceiling.map((r) => r.rps));
      rows.push([
        kind,
        'hello world (ceiling)',
        '—',
        '—',
        `${Math.round(ceilingRps)}${range(ceiling.map((r) => r.rps))}`,
        '100%',
        median(ceiling.map((r) => r.p50)),
        `${median(ceiling.map((r) => r.p99))}${range(ceiling.map((r) => r.p99))}`,
        '',
      ]);
      for (const [key, rs] of results) {
        if (key === 'ceiling') continue;
        const [name, mix, mode] = key.split('|');
        const rps = median(rs.map((r) => r.rps));
        rows.push([
          kind,
          name,
          mix,
          SERVER_LABELS[mode as Mode],
          `${Math.round(rps)}${range(rs.map((r) => r.rps))}`,
          `${((rps / ceilingRps) * 100).toFixed(0)}%`,
          median(rs.map((r) => r.p50)),
          `${median(rs.map((r) => r.p99))}${range(rs.map((r) => r.p99))}`,
          rs
            .map((r) => r.failures)
            .filter(Boolean)
            .join('; '),
        ]);
      }

      const ratios = routes('reference').flatMap(([name]) => {
        const mix = mixesOf(name).includes('cold') ? 'cold' : 'fixed';
        const [app, reference] = (['on', 'reference'] as const).map((m) => results.get(`${name}|${mix}|${m}`));
        if (!app || !reference) return [];
        const ratio = median(app.map((r) => r.rps)) / median(reference.map((r) => r.rps));
        return [`${name}${mix === 'cold' ? '' : ` (${mix})`} ${ratio.toFixed(2)}x`];
      });
      if (ratios.length) note(`${kind}: app (cache on) req/s ÷ reference (http + pg) req/s, cold mix (issue 14 asks >= 0.8x): ${ratios.join(', ')}.`);

      if (kept.url) {
        // Untimed: every statement of a few requests per endpoint and mix, logged, then EXPLAINed.
        const sqlLog = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'st-reads-log-')), 'sql.log');
        const logged = await serve(['dist/main.js'], { ...base, SQL_LOG_FILE: sqlLog }, 3999);
        try {
          for (const [, pathFor] of list)
            for (const mix of MIX_NAMES) {
              const next = pathFor(mix);
              for (let i = 0; i < 3; i++) await (await fetch(`${logged.url}${next()}`)).arrayBuffer();
            }
        } finally {
          await logged.stop();
        }
        const scans = await seqScans(kept.url, sqlLog);
        fs.rmSync(path.dirname(sqlLog), { recursive: true, force: true });
        note(
          scans.length
            ? `${kind}: sequential scans found:\n${scans.map((s) => `  - ${s}`).join('\n')}`
            : `${kind}: EXPLAIN of every statement these endpoints ran shows no sequential scan on scores, personal_bests or pb_ratings.`,
        );
      }
    }
  } finally {
    await hello.stop();
  }
  return `${table(['Database', 'Endpoint', 'Mix', 'Server', 'req/s: median (range)', 'of ceiling', 'p50 ms', 'p99 ms: median (range)', 'failed requests'], rows)}\n\n${notes.join('\n')}`;
}
