import { spawn, spawnSync } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CommandOutput } from '../../src/cli-socket/command-output.js';
import { runCliCommand, type CommandHost } from '../../src/processes/cli-commands.js';
import type { TestApp } from './app.js';

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

/**
 * Runs a CLI command on a test app's own services, as the server runs one sent over its socket
 * (processes/cli-in-server.ts): for commands whose effect a test checks in an in-process app.
 */
export async function runCommandInApp(t: TestApp, argv: string[]): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const out: CommandOutput = {
    writeOut: (text) => void (stdout += text),
    writeErr: (text) => void (stderr += text),
    progress: () => ({ phase: () => undefined, advance: () => undefined, done: () => undefined, log: (line) => void (stderr += `${line}\n`) }),
    stdout: { isTTY: false, hasColors: false },
    stderr: { isTTY: false, hasColors: false },
  };
  const refuse = () => Promise.reject(new Error('not in a test app'));
  const host: CommandHost = {
    resolvePath: (file) => path.resolve(file),
    config: () => t.config,
    withServices: (fn) => fn(t.app),
    backupEmbedded: refuse,
    restoreEmbedded: refuse,
  };
  const code = await runCliCommand(argv, out, host);
  return { code, stdout, stderr };
}
