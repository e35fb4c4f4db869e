import fs from 'node:fs';
import net from 'node:net';
import { inspect } from 'node:util';
import type { SeedProgress } from '../seeds/progress.js';
import type { CommandOutput } from './command-output.js';
import {
  LineSplitter,
  MAX_REQUEST_BYTES,
  parseRequest,
  ProtocolError,
  REQUEST_TIMEOUT_MS,
  socketAddress,
  type CommandRequest,
  type ServerMessage,
  type StreamInfo,
} from './protocol.js';

/** Runs one command for the CLI; resolves with its exit code. */
export type CommandRunner = (request: CommandRequest, output: CommandOutput) => Promise<number>;

export interface CliSocketLogger {
  log(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/** How often a progress display's advances are sent (they are summed in between). */
const PROGRESS_INTERVAL_MS = 100;

/** A progress display whose steps go to the CLI as messages; advances are summed and sent at most every 100 ms. */
class SocketProgress implements SeedProgress {
  private pending = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly output: SocketOutput,
    private readonly bar: number,
  ) {}

  phase(label: string, total: number) {
    this.output.flushProgress();
    this.output.send({ t: 'progress', bar: this.bar, op: 'phase', label, total });
  }

  advance(by = 1) {
    this.pending += by;
    if (!this.timer) {
      this.timer = setTimeout(() => this.flush(), PROGRESS_INTERVAL_MS);
      this.timer.unref();
    }
  }

  done() {
    this.output.flushProgress();
    this.output.send({ t: 'progress', bar: this.bar, op: 'done' });
  }

  log(line: string) {
    this.output.flushProgress();
    this.output.send({ t: 'progress', bar: this.bar, op: 'log', line });
  }

  /** Sends the advances summed so far. */
  flush() {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending === 0) return;
    const by = this.pending;
    this.pending = 0;
    this.output.send({ t: 'progress', bar: this.bar, op: 'advance', by });
  }
}

/** A command's output, sent to the CLI on its connection (dropped once the CLI has gone). */
class SocketOutput implements CommandOutput {
  readonly stdout: StreamInfo;
  readonly stderr: StreamInfo;
  private readonly bars: SocketProgress[] = [];

  constructor(
    private readonly socket: net.Socket,
    request: CommandRequest,
  ) {
    this.stdout = request.stdout;
    this.stderr = request.stderr;
  }

  /** The CLI has gone (its connection closed): output is dropped. */
  get detached(): boolean {
    return this.socket.destroyed || !this.socket.writable;
  }

  send(message: ServerMessage): void {
    if (!this.detached) this.socket.write(`${JSON.stringify(message)}\n`);
  }

  writeOut(text: string) {
    this.flushProgress();
    this.send({ t: 'out', text });
  }

  writeErr(text: string) {
    this.flushProgress();
    this.send({ t: 'err', text });
  }

  progress(): SeedProgress {
    const bar = new SocketProgress(this, this.bars.length + 1);
    this.bars.push(bar);
    return bar;
  }

  /** Sends every display's pending advances, so that they come before what follows. */
  flushProgress() {
    for (const bar of this.bars) bar.flush();
  }

  /** Sends the exit code and closes the connection. */
  finish(code: number) {
    this.flushProgress();
    this.send({ t: 'exit', code });
    this.socket.end();
  }
}

/** Refuses a connection's request with a message on its standard error and exit code 1. */
function refuse(socket: net.Socket, message: string): void {
  if (socket.destroyed || !socket.writable) return;
  const err: ServerMessage = { t: 'err', text: `${message}\n` };
  const exit: ServerMessage = { t: 'exit', code: 1 };
  socket.end(`${JSON.stringify(err)}\n${JSON.stringify(exit)}\n`);
}

/** Removes a socket file left by a server that crashed; anything else at the path is left alone and reported. */
function removeStaleSocket(socketPath: string): void {
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(socketPath);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  if (!stat.isSocket()) throw new Error(`${socketPath} exists and is not a socket: move it away.`);
  fs.rmSync(socketPath, { force: true });
}

/** A short form of a command line, for the server's log. */
function describe(argv: readonly string[]): string {
  const line = argv.map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : JSON.stringify(a))).join(' ');
  return line.length > 200 ? `${line.slice(0, 199)}…` : line || '(no arguments)';
}

/**
 * The server side of the CLI socket: a Unix socket in DATA_DIR that only the server's user can
 * connect to. Node cannot read a Unix socket peer's credentials (SO_PEERCRED), so access rests on
 * the file's permissions, which Linux, macOS and the BSDs check on connect (write permission): the
 * socket is created under umask 0o077, so that it is never open to others even for an instant,
 * then set to 0600. Each connection runs one command (several run at once); a command whose CLI
 * goes away (Ctrl-C) runs on to its end, its output dropped, as an HTTP request does whose client
 * hung up. The file is removed on close, and at exit; a stale one (a crash) is replaced at start.
 */
export class CliSocketServer {
  /** Commands running (promises that settle when they end). */
  private readonly running = new Set<Promise<void>>();
  /** Connections that have not sent their request yet (closed at once on shutdown). */
  private readonly waiting = new Set<net.Socket>();
  private closing: Promise<void> | undefined;
  private readonly removeAtExit = () => this.removeFile();

  private constructor(
    private readonly server: net.Server,
    /** The socket's absolute path. */
    readonly path: string,
    /** The file's inode, so that only this server's socket is ever removed. */
    private readonly ino: number,
    private readonly run: CommandRunner,
    private readonly logger: CliSocketLogger,
  ) {
    server.on('connection', (socket) => this.accept(socket));
    server.on('error', (err) => logger.error(`CLI socket ${this.path}: ${err.message}`));
    process.once('exit', this.removeAtExit);
  }

  /**
   * Listens on socketPath (replacing a stale socket file). The caller must hold the data
   * directory's lock, so that no other server listens there.
   */
  static async listen(socketPath: string, run: CommandRunner, logger: CliSocketLogger): Promise<CliSocketServer> {
    const address = socketAddress(socketPath);
    if (!address) throw new Error(`${socketPath} is too long for a Unix socket's address: use a shorter DATA_DIR.`);
    removeStaleSocket(socketPath);
    const server = net.createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      // bind() creates the file inside listen(), synchronously: under this umask it is never open to others.
      const umask = process.umask(0o077);
      try {
        server.listen(address, () => {
          server.off('error', reject);
          resolve();
        });
      } finally {
        process.umask(umask);
      }
    });
    try {
      fs.chmodSync(socketPath, 0o600);
      return new CliSocketServer(server, socketPath, fs.statSync(socketPath).ino, run, logger);
    } catch (err) {
      server.close();
      throw err;
    }
  }

  /**
   * Stops accepting commands and resolves once the running ones have ended (their CLIs get their
   * output and exit code). The caller bounds the wait (SHUTDOWN_TIMEOUT_MS).
   */
  close(): Promise<void> {
    this.closing ??= (async () => {
      const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
      this.removeFile();
      for (const socket of this.waiting) socket.destroy();
      await Promise.allSettled([closed, ...this.running]);
      process.removeListener('exit', this.removeAtExit);
    })();
    return this.closing;
  }

  /** How many commands are running. */
  get commandsRunning(): number {
    return this.running.size;
  }

  private removeFile(): void {
    try {
      if (fs.lstatSync(this.path).ino === this.ino) fs.rmSync(this.path, { force: true });
    } catch {
      // already gone
    }
  }

  private accept(socket: net.Socket): void {
    socket.on('error', () => undefined); // a CLI that went away: its output is dropped
    if (this.closing) return refuse(socket, 'The server is stopping: run the command again once it has stopped.');
    this.waiting.add(socket);
    let received = false;
    const timer = setTimeout(() => {
      this.waiting.delete(socket);
      refuse(socket, `No request within ${REQUEST_TIMEOUT_MS / 1000} s.`);
    }, REQUEST_TIMEOUT_MS);
    const take = (line: string) => {
      if (received) return;
      received = true;
      clearTimeout(timer);
      this.waiting.delete(socket);
      let request: CommandRequest;
      try {
        request = parseRequest(line);
      } catch (err) {
        return refuse(socket, (err as Error).message);
      }
      this.start(socket, request);
    };
    const lines = new LineSplitter(MAX_REQUEST_BYTES, take);
    socket.on('data', (chunk: Buffer) => {
      if (received) return; // one request per connection: anything after it is ignored
      try {
        lines.push(chunk);
      } catch (err) {
        received = true;
        clearTimeout(timer);
        this.waiting.delete(socket);
        refuse(socket, err instanceof ProtocolError ? `The request is too large (more than ${MAX_REQUEST_BYTES} bytes).` : String(err));
      }
    });
    socket.on('close', () => {
      clearTimeout(timer);
      this.waiting.delete(socket);
    });
  }

  private start(socket: net.Socket, request: CommandRequest): void {
    const output = new SocketOutput(socket, request);
    const command = describe(request.argv);
    const startedAt = Date.now();
    let ended = false;
    socket.on('close', () => {
      if (!ended) this.logger.warn(`CLI command \`${command}\`: the CLI went away; the command goes on, its output dropped.`);
    });
    const done = (async () => {
      let code: number;
      try {
        code = await this.run(request, output);
      } catch (err) {
        this.logger.error(`CLI command \`${command}\` failed: ${inspect(err)}`);
        output.writeErr(`${inspect(err)}\n`);
        code = 1;
      }
      ended = true;
      const gone = output.detached;
      output.finish(code);
      this.logger.log(`CLI command \`${command}\`: exit code ${code} after ${Date.now() - startedAt} ms${gone ? ' (its CLI had gone)' : ''}.`);
    })();
    this.running.add(done);
    void done.finally(() => this.running.delete(done));
  }
}
