import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Redis as IORedis } from 'ioredis';
import { freePort, killAll, NodeProcess, Postgres, Redis, ROOT, sleep, tempBase } from './cluster.js';
import { lockCheck, query, storageChecks, webhookCheck, type Check, type ReceivedWebhook } from './checks.js';
import { diskFaults, type DiskFaultResult } from './disk.js';
import { Load, percentile, Window, type Chart, type Player } from './load.js';

/**
 * `npm run chaos` (every fault), `npm run chaos -- --short` (CI's subset), `npm run chaos -- --soak [minutes]`
 * (the load without faults), `--only <text>` (the faults whose name contains it). See RELIABILITY.md for what it checks and the figures of its runs.
 */

const args = process.argv.slice(2);
const SHORT = args.includes('--short');
const SOAK = args.includes('--soak');
const SOAK_MINUTES = SOAK ? Number(args[args.indexOf('--soak') + 1]) || 30 : 0;
const KEEP = args.includes('--keep');
/** `--only <text>`: only the faults whose name contains the text (to reproduce one fault quickly). */
const ONLY = args.includes('--only') ? args[args.indexOf('--only') + 1]?.toLowerCase() : undefined;
const wanted = (name: string) => !ONLY || name.toLowerCase().includes(ONLY);

/** How long a process may take to answer ready again once its fault is over, and a killed worker's import to complete. */
const READY_WITHIN_MS = 30_000;
const IMPORT_RECOVERY_WITHIN_MS = 60_000;
/** Worker steps (ImportsService's IMPORT_STEPS) a kill -9 lands in; the worker waits this long at each (IMPORT_STEP_PAUSE_MS). */
const STEPS = ['taken', 'matching', 'converted', 'written', 'committed', 'published'] as const;
const STEP_PAUSE_MS = 600;
const CATALOG = path.join(ROOT, 'test/fixtures/import-pipeline/catalog');

interface FaultResult {
  name: string;
  checks: Check[];
  recoveryMs?: number;
  note?: string;
}

const log = (line: string) => console.log(`[chaos ${new Date().toISOString().slice(11, 19)}] ${line}`);

class Deployment {
  apis: NodeProcess[] = [];
  workers: NodeProcess[] = [];
  received: ReceivedWebhook[] = [];
  receiverUrl = '';
  private receiver?: http.Server;

  constructor(
    readonly base: string,
    readonly primary: Postgres,
    readonly replica: Postgres,
    readonly redis: Redis,
  ) {}

  static async start(stepPauseMs: number): Promise<Deployment> {
    const base = tempBase();
    log(`temporary directory ${base}`);
    const primary = await Postgres.initPrimary(base);
    const replica = await Postgres.initReplica(base, primary);
    const redis = await Redis.create();
    const d = new Deployment(base, primary, replica, redis);
    await d.startReceiver();
    const dataDir = path.join(base, 'data');
    fs.mkdirSync(dataDir);
    const common: Record<string, string> = {
      DATABASE_URL: primary.url,
      // Read by the read-replica routing of issue 26 once it is merged; ignored before.
      DATABASE_REPLICA_URLS: `postgres://postgres@127.0.0.1:${replica.port}/postgres`,
      REPLICA_MAX_LAG_MS: '2000',
      REDIS_URL: redis.url,
      DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      SESSION_SECRET: 'chaos-session-secret-0123456789abcdef',
      SECRETS_KEY: 'chaos-secrets-key-0123456789abcdefghij',
      LOG_FORMAT: 'json',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_MINUTE: '0',
      AUTH_RATE_LIMIT_FACTOR: '0',
      SNAPSHOT_SCHEDULE: 'false',
      WEBHOOKS_ALLOW_PRIVATE: 'true',
      WEBHOOK_RETRY_BASE_MS: '1000',
      WEBHOOK_POLL_INTERVAL_MS: '1000',
      IMPORT_JOB_LOCK_MS: '10000',
      IMPORT_WORKER_CONCURRENCY: '4',
      SHUTDOWN_TIMEOUT_MS: '5000',
    };
    for (let i = 0; i < 2; i++) {
      const port = await freePort();
      d.apis.push(new NodeProcess(`api-${i + 1}`, 'api', 'main.js', { ...common, PORT: String(port) }, path.join(base, `api-${i + 1}.log`), port));
      d.workers.push(
        new NodeProcess(
          `worker-${i + 1}`,
          'worker',
          'worker.js',
          { ...common, LOG_LEVEL: 'info', IMPORT_STEP_PAUSE_MS: String(stepPauseMs) },
          path.join(base, `worker-${i + 1}.log`),
        ),
      );
    }
    // The first API process migrates; the catalog goes in before the others start.
    await d.apis[0].start();
    execFileSync(process.execPath, [path.join(ROOT, 'dist/cli.js'), 'seeds', '--from', CATALOG, '--games', 'sdvx'], {
      cwd: ROOT,
      env: { ...process.env, ...common },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    await Promise.all([d.apis[1].start(), ...d.workers.map((w) => w.start())]);
    return d;
  }

  private async startReceiver() {
    this.receiver = http.createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (c: string) => (body += c));
      req.on('end', () => {
        this.received.push({ body, at: Date.now() });
        res.end('ok');
      });
    });
    await new Promise<void>((r) => this.receiver!.listen(0, '127.0.0.1', r));
    this.receiverUrl = `http://127.0.0.1:${(this.receiver!.address() as AddressInfo).port}/hook`;
  }

  get nodes(): NodeProcess[] {
    return [...this.apis, ...this.workers];
  }

  liveApis(): string[] {
    const live = this.apis.filter((a) => a.alive).map((a) => a.url);
    return live.length ? live : this.apis.map((a) => a.url);
  }

  async stop() {
    await Promise.all(this.nodes.map((n) => n.stop()));
    await this.redis.kill9();
    this.replica.stop();
    this.primary.stop();
    this.receiver?.close();
  }
}

async function ready(url: string): Promise<boolean> {
  try {
    const res = await fetch(`${url}/api/v1/status/ready`, { signal: AbortSignal.timeout(3000) });
    return res.status === 200;
  } catch {
    return false;
  }
}

/** Resolves with the ms until every API process answers ready (or rejects after READY_WITHIN_MS). */
async function allReady(d: Deployment, since: number): Promise<number> {
  const until = since + READY_WITHIN_MS;
  for (;;) {
    const states = await Promise.all(d.apis.map((a) => ready(a.url)));
    if (states.every(Boolean)) return Date.now() - since;
    if (Date.now() > until) throw new Error(`not ready within ${READY_WITHIN_MS} ms: ${d.apis.filter((_, i) => !states[i]).map((a) => a.name)}`);
    await sleep(100);
  }
}

/** A fresh import through the queue completes: the workers take jobs again. Resolves with its latency. */
async function probeImport(load: Load, timeoutMs: number): Promise<number> {
  const started = Date.now();
  for (;;) {
    const imp = await load.fileImport();
    if (imp) {
      while (!imp.final && Date.now() - started < timeoutMs) await sleep(100);
      if (imp.final?.status === 'completed') return Date.now() - started;
      throw new Error(`the probe import ${imp.importID} ${imp.final ? `failed: ${JSON.stringify(imp.final)}` : 'did not finish'}`);
    }
    if (Date.now() - started > timeoutMs) throw new Error('no import was accepted');
    await sleep(250);
  }
}

async function setupPlayers(d: Deployment, count: number): Promise<Player[]> {
  const api = d.apis[0].url;
  const register = async (username: string, password: string) => {
    const res = await fetch(`${api}/api/v1/auth/register`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username, '!password': password, email: `${username}@example.test` }),
    });
    if (res.status !== 200) throw new Error(`register ${username}: ${res.status} ${await res.text()}`);
    const cookie = res.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    return { id: ((await res.json()) as { id: number }).id, cookie };
  };
  const post = async (cookie: string, route: string, body: unknown) => {
    const res = await fetch(`${api}${route}`, { method: 'POST', headers: { 'Content-Type': 'application/json', Cookie: cookie }, body: JSON.stringify(body) });
    if (res.status !== 200) throw new Error(`${route}: ${res.status} ${await res.text()}`);
    return (await res.json()) as Record<string, unknown>;
  };
  const stamp = Date.now().toString(36).slice(-4);
  const dev = await register(`chaosdev${stamp}`, 'chaos-dev-password');
  const client = await post(dev.cookie, '/api/v1/clients/create', { name: 'Chaos receiver', webhookUri: d.receiverUrl, permissions: ['submit_score'] });
  const players: Player[] = [];
  for (let i = 0; i < count; i++) {
    const username = `chaos${stamp}p${i}`;
    const password = `chaos-password-${i}`;
    const u = await register(username, password);
    const key = await post(u.cookie, `/api/v1/users/${u.id}/api-tokens/create`, { clientID: client.clientID });
    players.push({ id: u.id, username, password, token: String(key.token), nextDan: 0 });
  }
  return players;
}

async function sdvxCharts(): Promise<Chart[]> {
  const charts = JSON.parse(fs.readFileSync(path.join(CATALOG, 'charts-sdvx.json'), 'utf8')) as {
    difficulty: string;
    data: { inGameID: number };
    versions: string[];
    playtype: string;
    isPrimary: boolean;
  }[];
  return charts
    .filter((c) => c.isPrimary && c.versions.includes('konaste') && ['NOV', 'ADV', 'EXH', 'MXM'].includes(c.difficulty))
    .map((c) => ({ inGameID: c.data.inGameID, difficulty: c.difficulty }));
}

/** Runs one fault in its own window of the load, then every check against what that window's clients were told. */
async function runFault(
  d: Deployment,
  load: Load,
  name: string,
  inject: () => Promise<{ downFrom?: number; clearedAt: number; recoveryMs?: number; note?: string }>,
): Promise<FaultResult> {
  log(`fault: ${name}`);
  const w = load.window(name);
  const before = new Map(d.nodes.map((n) => [n, n.pid]));
  await sleep(SHORT ? 1500 : 3000);
  let injected: Awaited<ReturnType<typeof inject>>;
  const checks: Check[] = [];
  try {
    injected = await inject();
  } catch (err) {
    checks.push({ name: 'fault injected', ok: false, detail: (err as Error).message });
    injected = { clearedAt: Date.now() };
  }
  let recoveryMs = injected.recoveryMs;
  try {
    const readyMs = await allReady(d, injected.clearedAt);
    const probeMs = await probeImport(load, IMPORT_RECOVERY_WITHIN_MS);
    recoveryMs = Math.max(recoveryMs ?? 0, readyMs);
    checks.push({
      name: `ready within ${READY_WITHIN_MS / 1000} s`,
      ok: true,
      detail: `APIs ready ${readyMs} ms after the fault cleared; a probe import then took ${probeMs} ms`,
    });
  } catch (err) {
    checks.push({ name: `ready within ${READY_WITHIN_MS / 1000} s`, ok: false, detail: (err as Error).message });
  }
  const readyAt = Date.now();
  await sleep(SHORT ? 1500 : 3000);
  load.window(`${name} (after)`);
  w.endedAt = Date.now();
  const settled = await load.settle(IMPORT_RECOVERY_WITHIN_MS * 2, w);
  if (!settled) log(`${w.accepted.filter((a) => !a.final).length} accepted import(s) of the window still pending`);
  const down = injected.downFrom !== undefined ? { from: injected.downFrom, to: readyAt } : undefined;
  checks.push(...(await storageChecks(d.primary.url, w, down)));
  // Nothing runs once the window's imports are final (the load goes on: a lock may be held for a moment).
  let locks = await lockCheck(d.primary.url);
  for (let i = 0; i < 20 && !locks.ok; i++) {
    await sleep(500);
    const again = await lockCheck(d.primary.url);
    locks = again;
  }
  checks.push(locks);
  checks.push(await waitForWebhooks(d, load));
  const restarted = d.nodes.filter((n) => before.get(n) !== n.pid && !injected.note?.includes(n.name));
  checks.push({
    name: 'no restart needed',
    ok: !restarted.length && d.nodes.every((n) => n.alive),
    detail: restarted.length
      ? `restarted: ${restarted.map((n) => n.name).join(', ')}`
      : `${d.nodes.length} processes alive${injected.note ? `; ${injected.note}` : ''}`,
  });
  const result = { name, checks, recoveryMs, note: injected.note };
  // Each fault's verdict as soon as it is known: a run cut short still leaves its figures.
  log(`${name}: ${checks.every((c) => c.ok) ? 'passed' : 'FAILED'}${recoveryMs !== undefined ? `, recovered in ${(recoveryMs / 1000).toFixed(1)} s` : ''}`);
  for (const c of checks) log(`  ${c.ok ? 'pass' : 'FAIL'} ${c.name}: ${c.detail}`);
  for (const c of checks.filter((c) => !c.ok)) for (const line of serverCauses(d, c.detail)) log(`    ${line}`);
  return result;
}

/** The API's log of a request a failed check names (`request <id>`): the error and its causes, which the client never sees. */
function serverCauses(d: Deployment, detail: string): string[] {
  const id = /request ([0-9a-f-]{36})/.exec(detail)?.[1];
  if (!id) return [];
  for (const api of d.apis) {
    const text = fs.existsSync(api.logFile) ? fs.readFileSync(api.logFile, 'utf8') : '';
    const line = text.split('\n').find((l) => l.includes(id) && l.includes('"level":50'));
    if (!line) continue;
    let msg = line;
    try {
      msg = String((JSON.parse(line) as { msg?: unknown }).msg ?? line);
    } catch {
      // Not JSON: the line as it is.
    }
    return [`${api.name} logged: ${msg.split('\n')[0].slice(0, 300)}`, ...msg.split('\n').filter((l) => l.startsWith('caused by'))];
  }
  return [`no log line of request ${id}`];
}

async function waitForWebhooks(d: Deployment, load: Load): Promise<Check> {
  const until = Date.now() + 45_000;
  let check = webhookCheck(load.windows, d.received);
  while (!check.ok && Date.now() < until) {
    await sleep(500);
    check = webhookCheck(load.windows, d.received);
  }
  return check;
}

/** kill -9 of the worker that runs an import when it reaches `step`; the killed worker is started again at once (its supervisor's job). */
async function killWorkerAt(d: Deployment, load: Load, step: string) {
  const imp = await load.fileImport();
  if (!imp) throw new Error('the import to kill was not accepted');
  const needle = `Import ${imp.importID} step ${step}`;
  // The worker may have taken it before the 202 reached us: the lines it already printed count.
  const waiting = d.workers.map((w) => w.waitForLine((l) => l.includes(needle), 60_000, true).then(() => w));
  const victim = await Promise.any(waiting);
  const killedAt = Date.now();
  await victim.kill9();
  // Started again at once, but the import does not wait for it: the other worker takes the job once its lock lapses.
  const restarted = victim.start();
  while (!imp.final && Date.now() - killedAt < IMPORT_RECOVERY_WITHIN_MS) await sleep(100);
  if (imp.final?.status !== 'completed') throw new Error(`the killed import ${imp.importID} did not complete: ${JSON.stringify(imp.final ?? 'pending')}`);
  await restarted;
  return { clearedAt: killedAt, recoveryMs: imp.final.at - killedAt, note: `${victim.name} killed in step ${step} and started again` };
}

async function killApi(d: Deployment) {
  const victim = d.apis[0];
  const killedAt = Date.now();
  await victim.kill9();
  await sleep(1000);
  await victim.start();
  // The fault is over once its supervisor has started it again (how long that took is in the note).
  return { clearedAt: Date.now(), note: `${victim.name} killed under load and started again (listening after ${Date.now() - killedAt} ms)` };
}

async function restartRedis(d: Deployment) {
  const from = Date.now();
  await d.redis.kill9();
  await sleep(3000);
  await d.redis.start();
  return { downFrom: from, clearedAt: Date.now() };
}

async function restartPrimary(d: Deployment) {
  const from = Date.now();
  d.primary.stop('immediate');
  await sleep(3000);
  d.primary.start();
  return { downFrom: from, clearedAt: Date.now() };
}

async function stopReplica(d: Deployment) {
  const from = Date.now();
  d.replica.stop('fast');
  await sleep(5000);
  d.replica.start();
  return { downFrom: from, clearedAt: Date.now(), ...(await replicaCaughtUp(d, from)) };
}

async function lagReplica(d: Deployment) {
  const from = Date.now();
  await query(d.replica.url, 'SELECT pg_wal_replay_pause()');
  await sleep(5000);
  const [lag] = await query<{ behind: string }>(
    d.primary.url,
    `SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), replay_lsn)::bigint AS behind FROM pg_stat_replication`,
  );
  await query(d.replica.url, 'SELECT pg_wal_replay_resume()');
  const caught = await replicaCaughtUp(d, from);
  return { downFrom: from, clearedAt: Date.now(), note: `replay paused 5 s (${lag?.behind ?? '?'} bytes behind); ${caught.note}` };
}

/** The replica has replayed everything the primary wrote before this call. */
async function replicaCaughtUp(d: Deployment, since: number) {
  const [{ lsn }] = await query<{ lsn: string }>(d.primary.url, 'SELECT pg_current_wal_lsn()::text AS lsn');
  for (;;) {
    try {
      const [row] = await query<{ ok: boolean }>(d.replica.url, `SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS ok`, [lsn]);
      if (row.ok) return { note: `replica caught up ${Date.now() - since} ms after the fault began` };
    } catch {
      /* starting */
    }
    if (Date.now() - since > 60_000) throw new Error('the replica did not catch up within 60 s');
    await sleep(100);
  }
}

async function combined(d: Deployment, load: Load) {
  const from = Date.now();
  const kill = killWorkerAt(d, load, 'written');
  await sleep(200);
  const api = killApi(d);
  const redis = restartRedis(d);
  const [killed, apiKilled] = await Promise.all([kill, api, redis]);
  return { downFrom: from, clearedAt: Date.now(), note: `${killed.note}; ${apiKilled.note}; Redis restarted` };
}

function printTable(results: FaultResult[]) {
  const rows: string[][] = [['fault', 'check', 'result', 'recovery', 'detail']];
  for (const r of results) {
    r.checks.forEach((c, i) =>
      rows.push([
        i ? '' : r.name,
        c.name,
        c.ok ? 'pass' : 'FAIL',
        i ? '' : r.recoveryMs !== undefined ? `${(r.recoveryMs / 1000).toFixed(1)} s` : '',
        c.detail,
      ]),
    );
  }
  const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => (i === 4 ? 0 : row[i].length))));
  for (const row of rows) console.log(row.map((cell, i) => (i === 4 ? cell : cell.padEnd(widths[i]))).join(' | '));
}

async function backlog(redisUrl: string): Promise<number> {
  const redis = new IORedis(redisUrl, { maxRetriesPerRequest: 1, lazyConnect: true });
  try {
    await redis.connect();
    const keys = await redis.keys('*:imports:wait');
    let n = 0;
    for (const k of keys) n += await redis.llen(k);
    const delayed = await redis.keys('*:imports:delayed');
    for (const k of delayed) n += await redis.zcard(k);
    return n;
  } finally {
    redis.disconnect();
  }
}

async function soak(d: Deployment, load: Load, minutes: number): Promise<boolean> {
  const samples: { at: number; rss: Record<string, number>; connections: number; backlog: number; p99: number; p50: number; requests: number }[] = [];
  const end = Date.now() + minutes * 60_000;
  const SAMPLE_MS = 30_000;
  log(`soak: ${minutes} min, a sample every ${SAMPLE_MS / 1000} s`);
  while (Date.now() < end) {
    const w = load.window(`soak ${samples.length + 1}`);
    await sleep(Math.min(SAMPLE_MS, Math.max(1000, end - Date.now())));
    const times = w.outcomes.filter((o) => o.op !== 'poll' && o.status > 0).map((o) => o.ms);
    const [{ n }] = await query<{ n: string }>(d.primary.url, `SELECT count(*) AS n FROM pg_stat_activity WHERE backend_type = 'client backend'`);
    const rss: Record<string, number> = {};
    for (const p of d.nodes) rss[p.name] = Math.round(p.rssMB() ?? 0);
    samples.push({
      at: Date.now(),
      rss,
      connections: Number(n) - 1,
      backlog: await backlog(d.redis.url),
      p99: percentile(times, 99),
      p50: percentile(times, 50),
      requests: times.length,
    });
    const s = samples[samples.length - 1];
    log(
      `soak sample ${samples.length}: ${s.requests} requests, p50 ${s.p50} ms, p99 ${s.p99} ms, ${s.connections} connections, backlog ${s.backlog}, RSS ${JSON.stringify(s.rss)}`,
    );
  }
  load.window('soak end');
  // The first two minutes warm up (JIT, caches, pools); then the first and last quarters of the rest are compared.
  const steady = samples.filter((s) => s.at - samples[0].at >= 120_000 - SAMPLE_MS);
  const q = Math.max(1, Math.floor(steady.length / 4));
  const first = steady.slice(0, q);
  const last = steady.slice(-q);
  const median = (xs: number[]) => percentile(xs, 50);
  const checks: Check[] = [];
  for (const p of d.nodes) {
    const a = median(first.map((s) => s.rss[p.name]));
    const b = median(last.map((s) => s.rss[p.name]));
    const bound = Math.max(40, a * 0.25);
    checks.push({ name: `RSS ${p.name}`, ok: b - a <= bound, detail: `${a} MB → ${b} MB (bound +${Math.round(bound)} MB)` });
  }
  const c1 = Math.max(...first.map((s) => s.connections));
  const c2 = Math.max(...last.map((s) => s.connections));
  checks.push({ name: 'open connections', ok: c2 <= c1 + 4, detail: `max ${c1} → max ${c2} (pg_stat_activity client backends; bound +4)` });
  const b1 = Math.max(...first.map((s) => s.backlog));
  const b2 = Math.max(...last.map((s) => s.backlog));
  checks.push({ name: 'queue backlog', ok: b2 <= Math.max(b1, 10), detail: `max ${b1} → max ${b2} waiting or delayed jobs` });
  const p1 = median(first.map((s) => s.p99));
  const p2 = median(last.map((s) => s.p99));
  checks.push({ name: 'p99 stable', ok: p2 <= p1 * 1.5 + 50, detail: `median p99 ${p1} ms → ${p2} ms (bound ×1.5 + 50 ms)` });
  await load.stop();
  const settled = await load.settle(120_000);
  const all = load.windows;
  const storage = await storageChecks(d.primary.url, mergeWindows(all), undefined);
  checks.push(...storage, await waitForWebhooks(d, load));
  checks.push({ name: 'accepted imports settled', ok: settled, detail: `${load.pending.size} pending at the end` });
  printTable([{ name: `soak ${minutes} min`, checks }]);
  // Reads on the replica: each API process's readiness counts the statements its replicas answered.
  for (const api of d.apis) {
    const ready = (await fetch(`${api.url}/api/v1/status/ready`)
      .then((r) => r.json())
      .catch(() => ({}))) as { replicas?: { state: string; reads: number }[] };
    console.log(`soak: ${api.name}: statements answered by the replica: ${(ready.replicas ?? []).map((r) => `${r.reads} (${r.state})`).join(', ') || 'none'}`);
  }
  const reads = load.windows.reduce((n, w) => n + w.outcomes.filter((o) => o.op === 'read' && o.status === 200).length, 0);
  console.log(`soak: ${reads} read requests answered 200 (the load's reads; the players' own reads after their writes read the primary)`);
  const requests = samples.reduce((n, s) => n + s.requests, 0);
  console.log(`soak: ${requests} requests, ${load.all.hooks} hook answers, ${load.all.accepted} imports accepted, ${load.all.scoresAnswered} scores answered`);
  console.log(JSON.stringify({ samples }, null, 0));
  return checks.every((c) => c.ok);
}

function mergeWindows(windows: readonly Window[]): Window {
  // Not one of the load's windows: the list being merged may be the load's own.
  const merged = new Window('all');
  // One by one: a soak's windows hold over 100,000 outcomes, past what a spread's arguments can carry.
  for (const w of windows) {
    for (const o of w.outcomes) merged.outcomes.push(o);
    for (const a of w.accepted) merged.accepted.push(a);
    for (const h of w.hooks) merged.hooks.push(h);
  }
  return merged;
}

async function main() {
  if (!fs.existsSync(path.join(ROOT, 'dist/main.js'))) throw new Error('dist/ is missing: npm run build');
  const startedAt = Date.now();
  const d = await Deployment.start(SOAK ? 0 : STEP_PAUSE_MS);
  let ok = false;
  try {
    log(
      `deployment up in ${Date.now() - startedAt} ms: primary :${d.primary.port}, replica :${d.replica.port}, redis :${d.redis.port}, APIs ${d.apis.map((a) => a.port).join(', ')}`,
    );
    const players = await setupPlayers(d, SOAK ? 24 : 16);
    const load = new Load(() => d.liveApis(), players, await sdvxCharts(), { concurrency: SOAK ? 8 : 6, scoresPerFile: 20, maxPendingImports: 6 });
    load.window('warm-up');
    load.start();
    await sleep(3000);
    if (SOAK) {
      ok = await soak(d, load, SOAK_MINUTES);
    } else {
      const results: FaultResult[] = [];
      const steps = SHORT ? (['matching', 'written', 'committed'] as const) : STEPS;
      const faults: [string, () => ReturnType<Parameters<typeof runFault>[3]>][] = [
        ...steps.map((step) => [`kill -9 worker: ${step}`, () => killWorkerAt(d, load, step)] as [string, () => ReturnType<typeof killWorkerAt>]),
        ['kill -9 API under load', () => killApi(d)],
        ['Redis restart', () => restartRedis(d)],
        ['PostgreSQL primary restart', () => restartPrimary(d)],
        ['replica stopped', () => stopReplica(d)],
        ...(SHORT ? [] : [['replica lagging', () => lagReplica(d)] as [string, () => ReturnType<typeof lagReplica>]]),
        ['combined: worker + API + Redis', () => combined(d, load)],
      ];
      for (const [name, inject] of faults.filter(([name]) => wanted(name))) results.push(await runFault(d, load, name, inject));
      await load.stop();
      await load.settle(IMPORT_RECOVERY_WITHIN_MS * 2);
      const between = mergeWindows(load.windows.filter((w) => w.name === 'warm-up' || w.name.endsWith('(after)')));
      results.push({ name: 'load between faults', checks: [...(await storageChecks(d.primary.url, between, undefined)), await lockCheck(d.primary.url)] });
      const disk: DiskFaultResult[] =
        wanted('slow disk (embedded)') || wanted('full disk (embedded)') ? await diskFaults({ short: SHORT, base: d.base, catalog: CATALOG, log, wanted }) : [];
      results.push(...disk);
      printTable(results);
      const checks = results.flatMap((r) => r.checks);
      const outcomes = load.all.outcomes + disk.reduce((n, r) => n + (r.requests ?? 0), 0);
      console.log(
        `${results.length} faults, ${checks.filter((c) => c.ok).length}/${checks.length} checks passed; ${outcomes} requests, ` +
          `${load.all.hooks} hook answers and ${load.all.accepted} accepted imports checked (${load.all.scoresAnswered} scores); ${Math.round((Date.now() - startedAt) / 1000)} s`,
      );
      ok = checks.every((c) => c.ok);
    }
    await load.stop();
  } finally {
    if (!ok) for (const n of d.nodes) fs.writeFileSync(path.join(d.base, `${n.name}.tail`), n.tail(100));
    await d.stop();
    if (!KEEP && ok) fs.rmSync(d.base, { recursive: true, force: true });
    else log(`logs kept in ${d.base}`);
  }
  process.exitCode = ok ? 0 : 1;
}

process.on('SIGINT', () => {
  killAll();
  process.exit(130);
});
await main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
killAll();
process.exit();
