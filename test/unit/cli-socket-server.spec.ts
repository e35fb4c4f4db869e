import { afterEach, describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { socketExchange } from '../support/cli.js';
import os from 'node:os';
import path from 'node:path';
import { CLI_PROTOCOL_VERSION } from '../../src/cli-socket/protocol.js';
import { CliSocketServer, type CommandRunner } from '../../src/cli-socket/socket-server.js';

const silent = { log: () => undefined, warn: () => undefined, error: () => undefined };
const request = (argv: string[]) =>
  `${JSON.stringify({ v: CLI_PROTOCOL_VERSION, argv, cwd: '/', stdout: { isTTY: false, hasColors: false }, stderr: { isTTY: true, columns: 120, hasColors: false } })}\n`;

/** Sends a request and collects the server's messages until it closes the connection. */
const exchange = (socketPath: string, argv: string[]) => socketExchange(socketPath, request(argv));

describe('CliSocketServer', () => {
  const dirs: string[] = [];
  const servers: CliSocketServer[] = [];
  const socketIn = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'st-sock-'));
    dirs.push(dir);
    return path.join(dir, 'cli.sock');
  };
  const listen = async (socketPath: string, run: CommandRunner) => {
    const server = await CliSocketServer.listen(socketPath, run, silent);
    servers.push(server);
    return server;
  };
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.close()));
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('creates the socket with mode 0600 and passes the request and the CLI’s terminal to the command', async () => {
    const socketPath = socketIn();
    await listen(socketPath, async (req, out) => {
      out.writeOut(`${req.argv.join('|')} ${out.stderr.isTTY} ${out.stderr.columns}\n`);
      out.writeErr('warned\n');
      return 3;
    });
    expect((fs.statSync(socketPath).mode & 0o777).toString(8)).toBe('600');
    expect(await exchange(socketPath, ['a', 'b c'])).toEqual([
      { t: 'out', text: 'a|b c true 120\n' },
      { t: 'err', text: 'warned\n' },
      { t: 'exit', code: 3 },
    ]);
  });

  it('sends progress steps in order, summing advances', async () => {
    const socketPath = socketIn();
    await listen(socketPath, async (_req, out) => {
      const bar = out.progress();
      bar.phase('Working', 1000);
      for (let i = 0; i < 1000; i++) bar.advance();
      out.writeOut('halfway\n'); // the advances so far come first
      bar.advance(5);
      bar.done();
      bar.log('a line');
      return 0;
    });
    expect(await exchange(socketPath, [])).toEqual([
      { t: 'progress', bar: 1, op: 'phase', label: 'Working', total: 1000 },
      { t: 'progress', bar: 1, op: 'advance', by: 1000 },
      { t: 'out', text: 'halfway\n' },
      { t: 'progress', bar: 1, op: 'advance', by: 5 },
      { t: 'progress', bar: 1, op: 'done' },
      { t: 'progress', bar: 1, op: 'log', line: 'a line' },
      { t: 'exit', code: 0 },
    ]);
  });

  it('reports a command that throws (exit code 1)', async () => {
    const socketPath = socketIn();
    await listen(socketPath, async () => {
      throw new Error('boom');
    });
    const messages = await exchange(socketPath, []);
    expect(messages.at(-1)).toEqual({ t: 'exit', code: 1 });
    expect(messages[0]).toMatchObject({ t: 'err', text: expect.stringContaining('boom') });
  });

  it('on close, stops accepting at once (the file goes) but lets a running command finish', async () => {
    const socketPath = socketIn();
    let finish!: () => void;
    let markStarted!: () => void;
    const started = new Promise<void>((r) => (markStarted = r));
    const server = await listen(socketPath, async (_req, out) => {
      markStarted();
      await new Promise<void>((r) => (finish = r));
      out.writeOut('finished\n');
      return 0;
    });
    const running = exchange(socketPath, ['slow']);
    await started;
    let closed = false;
    const closing = server.close().then(() => (closed = true));
    await new Promise((r) => setTimeout(r, 50));
    expect(fs.existsSync(socketPath)).toBe(false);
    expect(closed).toBe(false);
    expect(server.commandsRunning).toBe(1);
    finish();
    await closing;
    expect(await running).toEqual([
      { t: 'out', text: 'finished\n' },
      { t: 'exit', code: 0 },
    ]);
  });

  it('replaces a stale socket file, and refuses to replace anything else', async () => {
    const socketPath = socketIn();
    // A crashed server's file: a process that listened there and was killed.
    spawnSync(process.execPath, ['-e', `require('node:net').createServer().listen(${JSON.stringify(socketPath)}, () => process.kill(process.pid, 'SIGKILL'))`]);
    expect(fs.lstatSync(socketPath).isSocket()).toBe(true);
    await listen(socketPath, async () => 0);
    expect(await exchange(socketPath, [])).toEqual([{ t: 'exit', code: 0 }]);

    const other = socketIn();
    fs.writeFileSync(other, 'not a socket');
    await expect(CliSocketServer.listen(other, async () => 0, silent)).rejects.toThrow(/exists and is not a socket/);
    expect(fs.readFileSync(other, 'utf8')).toBe('not a socket');
  });
});
