import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Check } from './checks.js';
import { freePort, NodeProcess, ROOT, sleep } from './cluster.js';
import { percentile } from './load.js';

/**
 * The embedded database's disk: one API process on PGlite (no DATABASE_URL, no Redis) whose DATA_DIR is a small
 * tmpfs of its own, so that it can be filled (a full disk), and whose writes under DATA_DIR are slowed by
 * slow-disk.c (LD_PRELOAD: every write and fsync there waits; device-mapper's delay target is not available here).
 */

export interface DiskFaultResult {
  name: string;
  checks: Check[];
  recoveryMs?: number;
  note?: string;
  requests?: number;
}

const KSHOOK_HEADERS = { 'User-Agent': 'kshook/1.0.4', 'X-Software-Model': 'QCV:J:B:A:2023121200', 'Content-Type': 'application/json' };

interface Answer {
  status: number;
  ms: number;
  scoreIDs: string[];
  message?: string;
}

export async function diskFaults(options: {
  short: boolean;
  base: string;
  catalog: string;
  log: (line: string) => void;
  /** Which of the two faults to run (`--only`). */
  wanted: (name: string) => boolean;
}): Promise<DiskFaultResult[]> {
  const { base, log } = options;
  const mount = path.join(base, 'embedded');
  fs.mkdirSync(mount);
  let mounted = false;
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=320m', 'tmpfs', mount], { stdio: 'pipe' });
    mounted = true;
  } catch (err) {
    log(`no tmpfs could be mounted (${(err as Error).message.split('\n')[0]}): the full disk is skipped`);
  }
  const shim = path.join(base, 'slow-disk.so');
  let slow = true;
  try {
    execFileSync('cc', ['-shared', '-fPIC', '-O2', '-o', shim, path.join(ROOT, 'bench/chaos/slow-disk.c'), '-ldl'], { stdio: 'pipe' });
  } catch {
    slow = false;
    log('no C compiler: the slow disk is skipped');
  }
  const dataDir = path.join(mount, 'data');
  fs.mkdirSync(dataDir);
  const control = path.join(base, 'slow-disk-delay-us');
  fs.writeFileSync(control, '0');
  const port = await freePort();
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    LOG_FORMAT: 'json',
    RATE_LIMIT_PER_MINUTE: '0',
    AUTH_RATE_LIMIT_FACTOR: '0',
    SNAPSHOT_SCHEDULE: 'false',
    ...(slow ? { LD_PRELOAD: shim, SLOW_DISK_DIR: mount, SLOW_DISK_CONTROL: control } : {}),
  };
  const server = new NodeProcess('embedded', 'embedded', 'main.js', env, path.join(base, 'embedded.log'), port);
  const results: DiskFaultResult[] = [];
  try {
    await server.start();
    execFileSync(process.execPath, [path.join(ROOT, 'dist/cli.js'), 'seeds', '--from', options.catalog, '--games', 'sdvx'], {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
      stdio: 'pipe',
    });
    const token = await playerToken(server.url);
    let n = 0;
    const submit = async (): Promise<Answer> => {
      const at = Date.now();
      n++;
      try {
        const res = await fetch(`${server.url}/ir/kshook/sv6c/score/save`, {
          method: 'POST',
          headers: { ...KSHOOK_HEADERS, Authorization: `Bearer ${token}` },
          body: JSON.stringify({
            score: 9_000_000 + n,
            ex_score: 3000,
            clear: 'CLEAR_EFFECTIVE',
            difficulty: 'DIFFICULTY_EXHAUST',
            grade: 'GRADE_AAA',
            max_chain: 1200,
            music_id: 1001,
            gauge: 8000,
            critical: 1180,
            near: 15,
            error: 5,
            rate: 'RATE_EFFECTIVE',
            track_no: 1,
            retry_count: 0,
          }),
          signal: AbortSignal.timeout(60_000),
        });
        const body = (await res.json().catch(() => ({}))) as { body?: { scoreIDs?: string[] }; description?: string; message?: string };
        return { status: res.status, ms: Date.now() - at, scoreIDs: body.body?.scoreIDs ?? [], message: body.description ?? body.message };
      } catch (err) {
        return { status: 0, ms: Date.now() - at, scoreIDs: [], message: (err as Error).message };
      }
    };
    const burst = async (count: number) => {
      const answers: Answer[] = [];
      for (let i = 0; i < count; i++) answers.push(await submit());
      return answers;
    };
    const stored = async (answers: Answer[]) => {
      const ids = answers.filter((a) => a.status === 200).flatMap((a) => a.scoreIDs);
      let found = 0;
      for (const id of ids) if ((await fetch(`${server.url}/api/v1/scores/${id}`)).status === 200) found++;
      return { ids: ids.length, found };
    };
    const verdict = (name: string, answers: Answer[], allow503: boolean): Check => {
      const bad = answers.filter((a) => !(a.status === 200 || (allow503 && (a.status === 503 || a.status === 507))));
      return {
        name,
        ok: !bad.length,
        detail: `${answers.length} submissions: ${summary(answers)}${bad.length ? `; e.g. ${bad[0].status} ${bad[0].message ?? ''}` : ''}`,
      };
    };
    const readyAgain = async (since: number): Promise<number> => {
      for (;;) {
        const res = await fetch(`${server.url}/api/v1/status/ready`).catch(() => undefined);
        if (res?.status === 200) return Date.now() - since;
        if (!server.alive) throw new Error(`the embedded server exited:\n${server.tail(10)}`);
        if (Date.now() - since > 30_000) throw new Error('not ready within 30 s');
        await sleep(100);
      }
    };

    const baseline = await burst(10);

    if (slow && options.wanted('slow disk (embedded)')) {
      log('fault: slow disk (embedded DATA_DIR)');
      const pid = server.pid;
      fs.writeFileSync(control, '20000');
      const during = await burst(options.short ? 10 : 20);
      fs.writeFileSync(control, '0');
      await sleep(200);
      const clearedAt = Date.now();
      const checks: Check[] = [];
      try {
        const ms = await readyAgain(clearedAt);
        const after = await burst(5);
        const s = await stored([...during, ...after]);
        checks.push(verdict('answers while slow: all 200', during, false));
        checks.push(verdict('answers after: all 200', after, false));
        checks.push({ name: 'answered scores stored', ok: s.found === s.ids, detail: `${s.found}/${s.ids} found by GET /scores/:id` });
        checks.push({
          name: 'no restart needed',
          ok: server.alive && server.pid === pid,
          detail: `p50 ${percentile(
            baseline.map((a) => a.ms),
            50,
          )} ms before, ${percentile(
            during.map((a) => a.ms),
            50,
          )} ms with 20 ms per write and fsync`,
        });
        results.push({ name: 'slow disk (embedded)', checks, recoveryMs: ms, requests: baseline.length + during.length + after.length + s.ids });
      } catch (err) {
        checks.push({ name: 'ready within 30 s', ok: false, detail: (err as Error).message });
        results.push({ name: 'slow disk (embedded)', checks });
      }
    }

    if (mounted && server.alive && options.wanted('full disk (embedded)')) {
      log('fault: full disk (embedded DATA_DIR)');
      const pid = server.pid;
      const filler = path.join(mount, 'filler');
      const { bavail, bsize } = fs.statfsSync(mount);
      execFileSync('fallocate', ['-l', String(bavail * bsize), filler]);
      // 20: fewer fit in the WAL segments already allocated and never reach the full disk.
      const during = await burst(20);
      fs.rmSync(filler);
      const clearedAt = Date.now();
      const checks: Check[] = [verdict('answers while full: 200 or 503', during, true)];
      try {
        const ms = await readyAgain(clearedAt);
        const after = await burst(10);
        const s = await stored([...during, ...after]);
        checks.push(verdict('answers after: all 200', after, false));
        checks.push({ name: 'answered scores stored', ok: s.found === s.ids, detail: `${s.found}/${s.ids} found by GET /scores/:id` });
        checks.push({
          name: 'no restart needed',
          ok: server.alive && server.pid === pid,
          detail: server.alive ? 'the server kept running' : 'the server exited',
        });
        results.push({ name: 'full disk (embedded)', checks, recoveryMs: ms, requests: during.length + after.length + s.ids });
      } catch (err) {
        checks.push({ name: 'ready within 30 s', ok: false, detail: (err as Error).message });
        results.push({ name: 'full disk (embedded)', checks, requests: during.length });
      }
    }
  } finally {
    fs.writeFileSync(path.join(base, 'embedded.tail'), server.tail(100));
    await server.stop();
    if (mounted) execFileSync('umount', ['-l', mount]);
  }
  return results;
}

function summary(answers: Answer[]): string {
  const counts = new Map<number, number>();
  for (const a of answers) counts.set(a.status, (counts.get(a.status) ?? 0) + 1);
  return [...counts].map(([status, k]) => `${k} × ${status || 'no answer'}`).join(', ');
}

async function playerToken(url: string): Promise<string> {
  const username = `diskplayer${Date.now().toString(36).slice(-4)}`;
  const res = await fetch(`${url}/api/v1/auth/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username, '!password': 'disk-player-password', email: `${username}@example.test` }),
  });
  if (res.status !== 200) throw new Error(`register: ${res.status} ${await res.text()}`);
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const { id } = (await res.json()) as { id: number };
  const key = await fetch(`${url}/api/v1/users/${id}/api-tokens/create`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Cookie: cookie },
    body: JSON.stringify({ permissions: ['submit_score'] }),
  });
  if (key.status !== 200) throw new Error(`token: ${key.status} ${await key.text()}`);
  return ((await key.json()) as { token: string }).token;
}
