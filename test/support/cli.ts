import { spawn, spawnSync } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** What `npm run cli` does first: build dist/ when the sources are newer. Throws when the build fails. */
export function buildIfNeeded(): void {
  const build = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'build-if-needed.mjs')], { cwd: ROOT, encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`build failed:\n${build.stdout}\n${build.stderr}`);
}

/**
 * Runs the built CLI (dist/cli.js) as `npm run cli` does, on DATA_DIR=dataDir: the embedded
 * database unless databaseUrl is given. Redis is never used.
 */
export function runCli(args: string[], options: { dataDir: string; databaseUrl?: string }): Promise<CliRun> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: options.dataDir, LOG_LEVEL: 'warn' };
  delete env.REDIS_URL;
  if (options.databaseUrl) env.DATABASE_URL = options.databaseUrl;
  else delete env.DATABASE_URL;
  return runNode(path.join(ROOT, 'dist', 'cli.js'), args, env);
}

/** Runs a node script of the project to its end, collecting its exit code and output. */
export function runNode(script: string, args: string[], env: NodeJS.ProcessEnv): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Writes payload on a new connection to a CLI socket and resolves with the server's messages (JSON lines) once it closes the connection. */
export function socketExchange(socketPath: string, payload: string | Buffer, options: { end?: boolean } = {}): Promise<Array<Record<string, unknown>>> {
  return new Promise((resolve, reject) => {
    const socket = net.createConnection(socketPath);
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
    socket.on('error', reject);
    socket.on('close', () =>
      resolve(
        received
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as Record<string, unknown>),
      ),
    );
    socket.write(payload);
    if (options.end) socket.end();
  });
}
