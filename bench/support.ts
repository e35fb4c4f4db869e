import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { ApiKeysService } from '../src/api-keys/api-keys.service.js';
import { PERMISSIONS } from '../src/common/permissions.js';
import { Database } from '../src/database/database.js';
import { ApiKeysRepository } from '../src/repositories/api-keys.repository.js';
import { UsersRepository } from '../src/repositories/users.repository.js';
import { randomHex } from '../src/common/crypto.js';
import { PROJECT_ROOT } from '../src/common/project-root.js';

export const SEEDS_DIR = path.resolve(process.env.BENCH_SEEDS_DIR ?? path.join(import.meta.dirname, '..', '..', '..', 'shared', 'seeds', 'tachi'));
export const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export interface BenchDatabase {
  kind: 'PGlite' | 'PostgreSQL';
  database: Database;
  dispose: () => Promise<void>;
}

export async function postgresReachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

/** A fresh, migrated database of each kind available: PGlite on disk always, PostgreSQL when reachable. */
export async function benchDatabases(): Promise<(() => Promise<BenchDatabase>)[]> {
  const makers: (() => Promise<BenchDatabase>)[] = [
    async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'st-bench-'));
      const database = await Database.open({ dataDir: path.join(dir, 'db') });
      await database.migrate();
      return { kind: 'PGlite', database, dispose: async () => (await database.close(), fs.rmSync(dir, { recursive: true, force: true })) };
    },
  ];
  if (await postgresReachable()) {
    makers.push(async () => {
      const name = `st_bench_${randomHex(4)}`;
      const admin = new pg.Client({ connectionString: PG_URL });
      await admin.connect();
      await admin.query(`CREATE DATABASE "${name}"`);
      await admin.end();
      const url = new URL(PG_URL);
      url.pathname = `/${name}`;
      const database = await Database.open({ url: url.toString(), poolSize: 10 });
      await database.migrate();
      return {
        kind: 'PostgreSQL',
        database,
        dispose: async () => {
          await database.close();
          const c = new pg.Client({ connectionString: PG_URL });
          await c.connect();
          await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
          await c.end();
        },
      };
    });
  } else {
    console.error(`PostgreSQL at ${PG_URL} is not reachable: PostgreSQL figures are skipped.`);
  }
  return makers;
}

export async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const start = process.hrtime.bigint();
  const value = await fn();
  return { ms: Number(process.hrtime.bigint() - start) / 1e6, value };
}

export function table(headers: string[], rows: (string | number)[][]): string {
  const cells = [headers, ...rows.map((r) => r.map(String))];
  const widths = headers.map((_, i) => Math.max(...cells.map((r) => r[i].length)));
  const line = (r: string[]) => `| ${r.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  return [line(cells[0]), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...cells.slice(1).map(line)].join('\n');
}

export interface Served {
  url: string;
  stop: () => Promise<void>;
}

/** Starts a node process and waits for it to print its URL (READY <url>) or to listen on a known port. */
export function serve(args: string[], env: Record<string, string>, port?: number): Promise<Served> {
  return new Promise((resolve, reject) => {
    const child: ChildProcess = spawn(process.execPath, args, { cwd: PROJECT_ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const onData = (d: Buffer) => {
      output += d.toString();
      const ready = /READY (\S+)/.exec(output) ?? (port && /listening on (http\S+)/.exec(output));
      if (ready)
        resolve({
          url: port ? `http://127.0.0.1:${port}` : ready[1],
          stop: () => new Promise<void>((r) => (child.once('exit', () => r()), child.kill('SIGTERM'))),
        });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`server exited with ${code}:\n${output}`)));
  });
}

/** A user with an API key holding every permission, made through the repositories (no HTTP). */
export async function newUser(database: Database, name: string): Promise<{ id: number; token: string }> {
  const user = await database.transaction((tx) => new UsersRepository(database).insert({ username: name, email: `${name}@bench.test`, passwordHash: 'x' }, tx));
  const { token } = await new ApiKeysService(new ApiKeysRepository(database)).issue({
    userID: user.id,
    identifier: 'bench',
    permissions: [...PERMISSIONS],
    fromAPIClient: null,
  });
  return { id: user.id, token };
}
