import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { CLI_PROTOCOL_VERSION, MAX_REQUEST_BYTES } from '../../src/cli-socket/protocol.js';
import { Database, embeddedDbDir } from '../../src/database/database.js';
import { buildIfNeeded, runCli, socketExchange, type CliRun } from '../support/cli.js';
import { freePort, startBuiltServer, type ServerProcess } from '../support/server-process.js';
import { storedUser } from '../support/stored.js';
import { migratedDataDir } from '../support/template-db.js';

/**
 * `npm run cli` while the built server (dist/main.js) runs on the embedded database: the CLI
 * (dist/cli.js) sends its command through the server's socket DATA_DIR/cli.sock, the server runs
 * it on its own application and open database, and the CLI prints its output and exits with its
 * code, as if it had run alone.
 */
const STEP_TIMEOUT_MS = 120_000;

const register = (username: string) => ({ username, '!password': 'socket-password', email: `${username.toLowerCase()}@socket.test`, captcha: 'x' });

const cliRequest = (argv: string[], extra: Record<string, unknown> = {}) =>
  `${JSON.stringify({ v: CLI_PROTOCOL_VERSION, argv, cwd: os.tmpdir(), stdout: { isTTY: false, hasColors: false }, stderr: { isTTY: false, hasColors: false }, ...extra })}\n`;

/** Invite codes that `invites list` prints as unused. */
const unusedCodes = (run: CliRun) =>
  run.stdout
    .split('\n')
    .filter((l) => l.endsWith('\tunused'))
    .map((l) => l.split('\t')[0]);

describe('the CLI while the server runs on the embedded database (DATA_DIR/cli.sock)', () => {
  let dataDir: string;
  let work: string;
  let server: ServerProcess;
  let url: string;
  let socketPath: string;
  let stopped = false;
  const cli = (...args: string[]) => runCli(args, { dataDir });

  beforeAll(async () => {
    buildIfNeeded();
    dataDir = await migratedDataDir('st-cli-socket-');
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'st-cli-socket-files-'));
    socketPath = path.join(dataDir, 'cli.sock');
    const port = await freePort();
    server = await startBuiltServer(dataDir, port);
    url = `http://127.0.0.1:${port}`;
  }, 300_000);

  afterAll(async () => {
    if (!stopped) {
      server.child.kill('SIGKILL');
      await server.exited;
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('listens on DATA_DIR/cli.sock, which only its own user may use (mode 0600)', () => {
    const stat = fs.lstatSync(socketPath);
    expect(stat.isSocket()).toBe(true);
    expect((stat.mode & 0o777).toString(8)).toBe('600');
    expect(stat.uid).toBe(process.getuid!());
    expect(server.output()).toContain(`CLI commands through ${socketPath}`);
  });

  it(
    'runs auth-level in the server: its output and exit code come back, and the user is an administrator at once',
    async () => {
      const agent = request.agent(url);
      expect((await agent.post('/api/v1/auth/register').send(register('Socket_Admin'))).status).toBe(200);
      // The server has this session's user in memory: the command's write must reach it.
      expect((await agent.get('/api/v1/admin/audit')).status).toBe(403);

      const run = await cli('auth-level', 'SOCKET_ADMIN', '3');
      expect(run).toEqual({ code: 0, stdout: expect.stringMatching(/^Socket_Admin \(id \d+\) now has auth level 3\.\n$/), stderr: '' });

      expect((await agent.get('/api/v1/users/socket_admin')).body.authLevel).toBe(3);
      expect((await agent.get('/api/v1/admin/audit')).status).toBe(200);
    },
    STEP_TIMEOUT_MS,
  );

  it(
    'invites create -n 2 prints two codes, which invites list then shows',
    async () => {
      const run = await cli('invites', 'create', '-n', '2');
      expect(run.code).toBe(0);
      expect(run.stderr).toBe('');
      const codes = run.stdout.trim().split('\n');
      expect(codes).toHaveLength(2);
      for (const code of codes) expect(code).toMatch(/^[0-9a-f]{40}$/);
      expect(codes[0]).not.toBe(codes[1]);
      expect(unusedCodes(await cli('invites', 'list'))).toEqual(expect.arrayContaining(codes));
    },
    STEP_TIMEOUT_MS,
  );

  it(
    'reports bad arguments, unknown users and unknown commands as a local run does: a message on stderr and a nonzero exit code',
    async () => {
      const badLevel = await cli('auth-level', 'socket_admin', '7');
      expect(badLevel.code).toBe(1);
      expect(badLevel.stdout).toBe('');
      expect(badLevel.stderr).toBe("error: command-argument value '7' is invalid for argument 'level'. level must be an integer from 0 to 3.\n");

      const missing = await cli('auth-level', 'socket_admin');
      expect(missing.code).toBe(1);
      expect(missing.stderr).toMatch(/missing required argument 'level'/);

      const unknownUser = await cli('auth-level', 'nobody_here', '2');
      expect(unknownUser).toEqual({ code: 1, stdout: '', stderr: 'No user is named nobody_here.\n' });

      const unknownCommand = await cli('frobnicate');
      expect(unknownCommand.code).toBe(1);
      expect(unknownCommand.stderr).toMatch(/unknown command 'frobnicate'/);

      const unknownGame = await cli('rerank', '--games', 'sdvx,nope');
      expect(unknownGame.code).toBe(1);
      expect(unknownGame.stderr).toMatch(/^Unknown game\(s\): nope\./);

      for (const run of [badLevel, missing, unknownUser, unknownCommand, unknownGame]) expect(run.stderr).not.toMatch(/\n\s+at /);

      // Help and the version are output too, with exit code 0.
      const help = await cli('--help');
      expect(help.code).toBe(0);
      expect(help.stdout).toMatch(/^Usage: npm run cli -- \[options\] \[command\]/);
      expect(help.stdout).toContain('auth-level');
      const version = await cli('--version');
      expect(version.code).toBe(0);
      expect(version.stdout).toMatch(/^\d+\.\d+\.\d+/);
    },
    STEP_TIMEOUT_MS,
  );

  it(
    'runs several commands at once',
    async () => {
      const before = unusedCodes(await cli('invites', 'list')).length;
      const runs = await Promise.all([
        cli('invites', 'create', '-n', '3'),
        cli('invites', 'create', '-n', '3'),
        cli('auth-level', 'socket_admin', '2'),
        cli('audit', '--limit', '5'),
        cli('invites', 'create', '-n', '3'),
      ]);
      for (const run of runs) expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
      const created = [runs[0], runs[1], runs[4]].flatMap((r) => r.stdout.trim().split('\n'));
      expect(new Set(created).size).toBe(9);
      expect(runs[2].stdout).toMatch(/now has auth level 2/);
      expect(unusedCodes(await cli('invites', 'list'))).toHaveLength(before + 9);
      expect((await request(url).get('/api/v1/users/socket_admin')).body.authLevel).toBe(2);
    },
    STEP_TIMEOUT_MS,
  );

  it(
    'streams progress (seeds), resolves a relative --from against the CLI’s directory, and the server serves the new charts at once',
    async () => {
      const search = () => request(url).get('/api/v1/games/sdvx/Single/charts?search=albida');
      const before = await search();
      expect(JSON.stringify(before.body)).not.toContain('ALBIDA');

      // runCli runs in the project's root: the server (whose directory may differ) must read this path from there.
      const run = await cli('seeds', '--from', 'test/fixtures/seeds/clean', '--games', 'sdvx');
      expect(run.code).toBe(0);
      expect(run.stdout).toContain(`Seeds from ${path.resolve('test/fixtures/seeds/clean')} for sdvx:`);
      expect(run.stdout).toMatch(/songs-sdvx\.json\s+\d+ records: \d+ new/);
      // Not a terminal: the progress displays are plain lines (on a terminal, cli-progress bars), drawn by the CLI.
      expect(run.stderr).toMatch(/^Validating songs-sdvx\.json: 0\/\d+$/m);
      expect(run.stderr).toMatch(/^Writing records: (\d+)\/\1$/m);

      const after = await search();
      expect(after.status).toBe(200);
      expect(JSON.stringify(after.body)).toContain('ALBIDA');

      const nowhere = await cli('seeds', '--from', 'no/such/dir', '--games', 'sdvx');
      expect(nowhere.code).toBe(1);
      expect(nowhere.stderr).toBe(`${path.resolve('no/such/dir')} is not a directory.\n`);
    },
    STEP_TIMEOUT_MS,
  );

  it(
    'recalc shows its progress',
    async () => {
      const run = await cli('recalc', '--game', 'sdvx');
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/^Recalculated \d+ score\(s\)\.\n$/);
      expect(run.stderr).toMatch(/^Recalculating scores: 0\/\d+$/m);
    },
    STEP_TIMEOUT_MS,
  );

  it(
    'backs up while the server runs (through the server’s open database); restore says it needs the server stopped',
    async () => {
      const file = path.join(work, 'live.tar.gz');
      const backup = await cli('backup', file);
      expect(backup).toEqual({ code: 0, stdout: expect.stringMatching(/^Backed up the embedded database to .*live\.tar\.gz \(\d+ bytes\)\.\n$/), stderr: '' });
      expect(fs.statSync(file).size).toBeGreaterThan(0);

      const restore = await cli('restore', '--force', file);
      expect(restore.code).toBe(1);
      expect(restore.stdout).toBe('');
      expect(restore.stderr).toMatch(/^restore needs the server stopped: the running server \(process \d+\)/);
      expect(restore.stderr).toContain('Stop the server, run restore again, then start the server.');

      // The backup is a whole database: opened elsewhere, it holds what the server had.
      const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'st-cli-socket-copy-'));
      try {
        const database = await Database.open({ dataDir: embeddedDbDir(copy), loadDataDir: new Blob([fs.readFileSync(file)]) });
        try {
          expect((await storedUser(database, { usernameLowercase: 'socket_admin' }))?.authLevel).toBe(2);
        } finally {
          await database.close();
        }
      } finally {
        fs.rmSync(copy, { recursive: true, force: true });
      }
    },
    STEP_TIMEOUT_MS,
  );

  it(
    'bounds the request and checks it: too large, not JSON, another protocol version',
    async () => {
      const tooLarge = await socketExchange(socketPath, Buffer.alloc(MAX_REQUEST_BYTES + 10, 'a'));
      expect(tooLarge).toEqual([
        { t: 'err', text: expect.stringMatching(/request is too large/) },
        { t: 'exit', code: 1 },
      ]);

      const notJson = await socketExchange(socketPath, 'hello\n');
      expect(notJson).toEqual([
        { t: 'err', text: 'The request is not JSON.\n' },
        { t: 'exit', code: 1 },
      ]);

      const otherVersion = await socketExchange(socketPath, cliRequest(['migrate'], { v: 99 }));
      expect(otherVersion).toEqual([
        { t: 'err', text: expect.stringMatching(/version 99 .* version 1/) },
        { t: 'exit', code: 1 },
      ]);

      const ok = await socketExchange(socketPath, cliRequest(['migrate']));
      expect(ok).toEqual([
        { t: 'out', text: 'Migrations applied.\n' },
        { t: 'exit', code: 0 },
      ]);
    },
    STEP_TIMEOUT_MS,
  );

  it(
    'finishes a command whose CLI went away (Ctrl-C), and goes on serving',
    async () => {
      const before = unusedCodes(await cli('invites', 'list')).length;
      await new Promise<void>((resolve, reject) => {
        const socket = net.createConnection(socketPath, () => {
          socket.write(cliRequest(['invites', 'create', '-n', '4']), () => {
            socket.destroy();
            resolve();
          });
        });
        socket.on('error', reject);
      });
      let after = before;
      for (let i = 0; i < 50 && after < before + 4; i++) {
        await new Promise((r) => setTimeout(r, 100));
        after = unusedCodes(await cli('invites', 'list')).length;
      }
      expect(after).toBe(before + 4);
    },
    STEP_TIMEOUT_MS,
  );

  it(
    'removes the socket when the server stops; the CLI then opens the database itself',
    async () => {
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
      stopped = true;
      expect(fs.existsSync(socketPath)).toBe(false);
      const run = await cli('auth-level', 'socket_admin', '3');
      expect(run).toEqual({ code: 0, stdout: expect.stringMatching(/^Socket_Admin \(id \d+\) now has auth level 3\.\n$/), stderr: '' });
    },
    STEP_TIMEOUT_MS,
  );

  it(
    'replaces the stale socket that a crashed server left, and the CLI meanwhile opens the database itself',
    async () => {
      const port = await freePort();
      server = await startBuiltServer(dataDir, port);
      stopped = false;
      url = `http://127.0.0.1:${port}`;
      server.child.kill('SIGKILL');
      await server.exited;
      stopped = true;
      expect(fs.lstatSync(socketPath).isSocket()).toBe(true); // left behind

      const local = await cli('invites', 'create');
      expect(local.code).toBe(0);
      expect(local.stderr).toBe('');

      server = await startBuiltServer(dataDir, await freePort());
      stopped = false;
      const remote = await cli('auth-level', 'socket_admin', '1');
      expect(remote).toEqual({ code: 0, stdout: expect.stringMatching(/now has auth level 1\.\n$/), stderr: '' });
      expect(server.output()).toContain('CLI commands through');
    },
    STEP_TIMEOUT_MS,
  );
});
