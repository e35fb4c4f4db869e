import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/** A real deployment on this machine: PostgreSQL primary and streaming replica, Redis, API processes and workers from dist/. */

export const ROOT = process.cwd();
export const PG_BIN = process.env.CHAOS_PG_BIN ?? '/usr/lib/postgresql/15/bin';
export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Everything started, so that a failed run leaves nothing running (killAll). */
const running = { children: new Set<ChildProcess>(), postgres: new Set<Postgres>() };

export function killAll() {
  for (const child of running.children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const pg of running.postgres) pg.stop('immediate');
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** PostgreSQL refuses to run as root: its commands then run as the postgres user. */
function pgUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
  const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
  return { uid, gid };
}

function pgRun(args: string[], bin: string, env: NodeJS.ProcessEnv = {}) {
  const user = pgUser();
  execFileSync(path.join(PG_BIN, bin), args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env }, ...(user ?? {}) });
}

/** A node process of the deployment (API or worker), restartable on its port. */
export class NodeProcess {
  child?: ChildProcess;
  /** Every pid it had: a pid change means it was restarted. */
  readonly pids: number[] = [];
  private lines: string[] = [];
  private waiters: { match: (line: string) => boolean; resolve: (line: string) => void }[] = [];
  private exitedAt?: number;

  constructor(
    readonly name: string,
    readonly kind: 'api' | 'worker' | 'embedded',
    private readonly script: string,
    readonly env: Record<string, string>,
    readonly logFile: string,
    readonly port?: number,
  ) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  get alive(): boolean {
    return !!this.child && this.child.exitCode === null && this.child.signalCode === null;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Starts it; resolves once it said it is listening (API) or ready (worker). */
  async start(timeoutMs = 240_000): Promise<void> {
    const env: NodeJS.ProcessEnv = { ...process.env, ...this.env };
    const child = spawn(process.execPath, [path.join(ROOT, 'dist', this.script)], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = child;
    running.children.add(child);
    this.exitedAt = undefined;
    this.pids.push(child.pid!);
    const out = fs.createWriteStream(this.logFile, { flags: 'a' });
    let partial = '';
    const onData = (chunk: Buffer) => {
      out.write(chunk);
      partial += chunk.toString();
      const parts = partial.split('\n');
      partial = parts.pop() ?? '';
      for (const line of parts) this.onLine(line);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', () => {
      this.exitedAt = Date.now();
      out.end();
    });
    const ready = this.kind === 'worker' ? 'Import worker ready' : 'listening on';
    const started = this.waitForLine((l) => l.includes(ready), timeoutMs);
    const exited = new Promise<never>((_, reject) =>
      child.on('exit', (code, signal) => reject(new Error(`${this.name} exited (${code ?? signal}) while starting:\n${this.tail()}`))),
    );
    await Promise.race([started, exited]);
  }

  private onLine(line: string) {
    this.lines.push(line);
    if (this.lines.length > 400) this.lines.splice(0, this.lines.length - 400);
    for (const w of [...this.waiters])
      if (w.match(line)) {
        this.waiters.splice(this.waiters.indexOf(w), 1);
        w.resolve(line);
      }
  }

  /** Resolves with the first line printed from now on that matches (or among the last 400 lines already printed, with `past`). */
  waitForLine(match: (line: string) => boolean, timeoutMs: number, past = false): Promise<string> {
    const printed = past ? this.lines.find(match) : undefined;
    if (printed !== undefined) return Promise.resolve(printed);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w.resolve !== done);
        reject(new Error(`${this.name}: no matching line within ${timeoutMs} ms`));
      }, timeoutMs);
      const done = (line: string) => {
        clearTimeout(timer);
        resolve(line);
      };
      this.waiters.push({ match, resolve: done });
    });
  }

  tail(n = 30): string {
    return this.lines.slice(-n).join('\n');
  }

  /** kill -9; resolves once it is gone. */
  async kill9(): Promise<void> {
    if (!this.alive) return;
    const child = this.child!;
    const gone = new Promise<void>((r) => child.once('exit', () => r()));
    child.kill('SIGKILL');
    await gone;
  }

  async stop(): Promise<void> {
    if (!this.alive) return;
    const child = this.child!;
    const gone = new Promise<void>((r) => child.once('exit', () => r()));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await gone;
    clearTimeout(timer);
  }

  rssMB(): number | undefined {
    try {
      const status = fs.readFileSync(`/proc/${this.pid}/status`, 'utf8');
      const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
      return kb / 1024;
    } catch {
      return undefined;
    }
  }
}

export class Postgres {
  constructor(
    readonly name: string,
    readonly dir: string,
    readonly port: number,
    private readonly sockets: string,
  ) {}

  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  static async initPrimary(base: string): Promise<Postgres> {
    const dir = path.join(base, 'pg-primary');
    const port = await freePort();
    fs.mkdirSync(dir, { mode: 0o700 });
    chownToPostgres(dir);
    pgRun(['-D', dir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync'], 'initdb');
    const pg = new Postgres('pg-primary', dir, port, base);
    fs.appendFileSync(
      path.join(dir, 'postgresql.conf'),
      [
        `port = ${port}`,
        `listen_addresses = '127.0.0.1'`,
        `unix_socket_directories = '${base}'`,
        `max_connections = 200`,
        `wal_level = replica`,
        `max_wal_senders = 5`,
        `wal_keep_size = '512MB'`,
        `hot_standby = on`,
        '',
      ].join('\n'),
    );
    pg.start();
    return pg;
  }

  /** A streaming replica of `primary` (pg_basebackup -R: standby.signal and primary_conninfo). */
  static async initReplica(base: string, primary: Postgres): Promise<Postgres> {
    const dir = path.join(base, 'pg-replica');
    const port = await freePort();
    pgRun(['-h', '127.0.0.1', '-p', String(primary.port), '-U', 'postgres', '-D', dir, '-R', '-X', 'stream', '-c', 'fast'], 'pg_basebackup');
    fs.appendFileSync(path.join(dir, 'postgresql.conf'), `port = ${port}\n`);
    const pg = new Postgres('pg-replica', dir, port, base);
    pg.start();
    return pg;
  }

  start() {
    running.postgres.add(this);
    pgRun(['-D', this.dir, '-l', path.join(this.sockets, `${this.name}.log`), '-w', '-t', '60', 'start'], 'pg_ctl');
  }

  /** mode immediate: no checkpoint, crash recovery at the next start (as a kill -9 of the postmaster). */
  stop(mode: 'fast' | 'immediate' = 'fast') {
    try {
      pgRun(['-D', this.dir, '-m', mode, '-w', 'stop'], 'pg_ctl');
    } catch {
      /* already stopped */
    }
  }

  /** The postmaster's pid (first line of postmaster.pid). */
  pid(): number | undefined {
    try {
      return Number(fs.readFileSync(path.join(this.dir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    } catch {
      return undefined;
    }
  }
}

function chownToPostgres(dir: string) {
  const user = pgUser();
  if (user) fs.chownSync(dir, user.uid, user.gid);
}

export class Redis {
  child?: ChildProcess;
  readonly pids: number[] = [];
  constructor(readonly port: number) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  static async create(): Promise<Redis> {
    const redis = new Redis(await freePort());
    await redis.start();
    return redis;
  }

  async start(): Promise<void> {
    this.child = spawn('redis-server', ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    this.pids.push(this.child.pid!);
    running.children.add(this.child);
    for (let i = 0; i < 100; i++) {
      if (await portOpen(this.port)) return;
      await sleep(50);
    }
    throw new Error('redis-server did not listen');
  }

  async kill9(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    const gone = new Promise<void>((r) => child.once('exit', () => r()));
    child.kill('SIGKILL');
    await gone;
  }
}

export function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect({ host: '127.0.0.1', port }, () => {
      s.end();
      resolve(true);
    });
    s.on('error', () => resolve(false));
  });
}

export function tempBase(): string {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'st-chaos-'));
  fs.chmodSync(base, 0o755);
  chownToPostgres(base);
  return base;
}
