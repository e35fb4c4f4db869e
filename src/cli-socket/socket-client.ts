import net from 'node:net';
import { progressFor, type SeedProgress } from '../seeds/progress.js';
import { streamInfoOf } from './command-output.js';
import {
  CLI_PROTOCOL_VERSION,
  LineSplitter,
  MAX_MESSAGE_BYTES,
  parseServerMessage,
  socketAddress,
  type CommandRequest,
  type ServerMessage,
} from './protocol.js';

/** The running server's socket exists but cannot be used by this CLI; the message says why. */
export class CliSocketError extends Error {}

/** Connection errors that mean no server listens there (it is stopped, or crashed and left its socket file). */
const NO_SERVER = new Set(['ENOENT', 'ECONNREFUSED', 'ENOTSOCK', 'ENOTDIR']);

/** This CLI's request for argv: its working directory and its terminal. */
export function requestFor(argv: readonly string[]): CommandRequest {
  return { v: CLI_PROTOCOL_VERSION, argv: [...argv], cwd: process.cwd(), stdout: streamInfoOf(process.stdout), stderr: streamInfoOf(process.stderr) };
}

/** Connects to the server's socket; undefined when no server listens there. */
function connect(socketPath: string): Promise<net.Socket | undefined> {
  const address = socketAddress(socketPath);
  if (!address) return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    const socket = net.createConnection(address);
    socket.once('connect', () => {
      socket.off('error', onError);
      resolve(socket);
    });
    const onError = (err: NodeJS.ErrnoException) => {
      if (NO_SERVER.has(err.code ?? '')) resolve(undefined);
      else if (err.code === 'EACCES' || err.code === 'EPERM')
        reject(
          new CliSocketError(
            `The running server's CLI socket ${socketPath} does not admit this user (${err.code}): run the CLI as the user the server runs as.`,
          ),
        );
      else reject(new CliSocketError(`Could not reach the running server through ${socketPath}: ${err.message}`));
    };
    socket.once('error', onError);
  });
}

/**
 * Runs the command in the server listening on socketPath, writing its output here as it comes
 * (its progress displays drawn by cli-progress on this terminal, as a local run draws them).
 * Resolves with its exit code, or undefined when no server listens there (the CLI then opens the
 * database itself). On Ctrl-C the CLI stops showing the output and exits 130; the command goes on
 * in the server to its end.
 */
export async function runInServer(socketPath: string, request: CommandRequest): Promise<number | undefined> {
  const socket = await connect(socketPath);
  if (!socket) return undefined;
  const bars = new Map<number, SeedProgress>();
  const stopBars = () => {
    for (const bar of bars.values()) bar.done();
  };
  const onInterrupt = () => {
    stopBars();
    process.stderr.write('\nInterrupted: the command goes on in the server to its end; its output is no longer shown.\n');
    process.exit(130);
  };
  process.once('SIGINT', onInterrupt);
  try {
    return await new Promise<number>((resolve) => {
      let code: number | undefined;
      const show = (m: ServerMessage) => {
        switch (m.t) {
          case 'out':
            process.stdout.write(m.text);
            return;
          case 'err':
            process.stderr.write(m.text);
            return;
          case 'exit':
            code = m.code;
            return;
          case 'progress': {
            let bar = bars.get(m.bar);
            if (!bar) bars.set(m.bar, (bar = progressFor(process.stderr)));
            if (m.op === 'phase') bar.phase(m.label, m.total);
            else if (m.op === 'advance') bar.advance(m.by);
            else if (m.op === 'done') bar.done();
            else if (m.op === 'log') bar.log(m.line);
          }
        }
      };
      const lines = new LineSplitter(MAX_MESSAGE_BYTES, (line) => {
        const message = parseServerMessage(line);
        if (message) show(message);
      });
      socket.on('data', (chunk: Buffer) => {
        try {
          lines.push(chunk);
        } catch (err) {
          process.stderr.write(`The server sent a message this CLI cannot read: ${(err as Error).message}\n`);
          socket.destroy();
        }
      });
      socket.on('error', () => undefined); // 'close' follows
      socket.on('close', () => {
        stopBars();
        if (code === undefined)
          process.stderr.write('The server closed the connection before the command ended (it stopped?). The command may have run in part.\n');
        resolve(code ?? 1);
      });
      socket.write(`${JSON.stringify(request)}\n`);
    });
  } finally {
    process.removeListener('SIGINT', onInterrupt);
  }
}
