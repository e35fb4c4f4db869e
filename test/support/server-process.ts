import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { Database, embeddedDbDir } from '../../src/database/database.js';
import { buildIfNeeded, ROOT } from './cli.js';
import { loadFixtureCatalog } from './imports.js';
import { migratedDataDir } from './template-db.js';

const START_TIMEOUT_MS = 60_000;

/** A port nothing listens on now. */
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

/** Builds dist/ when needed, and returns a new DATA_DIR whose embedded database is migrated and holds the sdvx fixture catalog. */
export async function embeddedDataDirWithCatalog(prefix: string): Promise<string> {
  buildIfNeeded();
  const dataDir = await migratedDataDir(prefix);
  const database = await Database.open({ dataDir: embeddedDbDir(dataDir) });
  try {
    await loadFixtureCatalog(database, 'catalog', ['sdvx']);
  } finally {
    await database.close();
  }
  return dataDir;
}

export interface ServerProcess {
  child: ChildProcess;
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
  /** Everything it printed so far (stdout and stderr). */
  output: () => string;
}

/**
 * The built server (dist/main.js) as `npm start` runs it, on the embedded database in `dataDir`
 * (no DATABASE_URL or REDIS_URL), rate limits and snapshots off; resolves once it listens.
 */
export async function startBuiltServer(dataDir: string, port: number, env: Record<string, string> = {}): Promise<ServerProcess> {
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    AUTH_RATE_LIMIT_FACTOR: '0',
    RATE_LIMIT_PER_MINUTE: '0',
    SNAPSHOT_SCHEDULE: 'false',
    ...env,
  };
  delete childEnv.DATABASE_URL;
  delete childEnv.REDIS_URL;
  const child = spawn(process.execPath, [path.join(ROOT, 'dist', 'main.js')], { cwd: ROOT, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  let listening = false;
  await new Promise<void>((resolve, reject) => {
    // A server that runs but never says it listens fails here, with what it printed, not at the test's timeout.
    const tooLong = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server printed no 'listening on' line within ${START_TIMEOUT_MS} ms:\n${output}`));
    }, START_TIMEOUT_MS);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (!listening && output.includes('listening on')) {
        listening = true;
        clearTimeout(tooLong);
        resolve();
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    void exited.then((code) => {
      clearTimeout(tooLong);
      reject(new Error(`server exited with ${code} before listening:\n${output}`));
    });
  });
  return { child, exited, output: () => output };
}
