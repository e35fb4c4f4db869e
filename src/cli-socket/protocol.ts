import path from 'node:path';

/**
 * The messages between `npm run cli` and a server running on the embedded database, over the
 * server's Unix socket DATA_DIR/cli.sock. Each message is one line of JSON. One connection runs
 * one command: the CLI sends a CommandRequest; the server answers with the command's output as
 * it comes (`out`, `err`, `progress`) and ends with `exit`, then closes the connection.
 */

/** Version of these messages; a server answers a request of another version with an error. */
export const CLI_PROTOCOL_VERSION = 1;

/** The largest request line the server reads (the argv and the CLI's working directory). */
export const MAX_REQUEST_BYTES = 64 * 1024;

/** The largest server message the CLI reads (one write of a command's output). */
export const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

/** A CLI that connected must send its request within this time. */
export const REQUEST_TIMEOUT_MS = 10_000;

/** The socket's file name in DATA_DIR. */
export const CLI_SOCKET_NAME = 'cli.sock';

/** The server's CLI socket for this DATA_DIR. */
export function cliSocketPath(dataDir: string): string {
  return path.join(path.resolve(dataDir), CLI_SOCKET_NAME);
}

/** Longest path a Unix socket address holds everywhere (sun_path is 108 bytes on Linux, 104 on macOS and BSD). */
const MAX_SOCKET_PATH_BYTES = 103;

/**
 * The path to bind or connect to: the absolute one, or, when that is too long for a socket
 * address, the one relative to this process's working directory if that fits; undefined when
 * neither does.
 */
export function socketAddress(socketPath: string): string | undefined {
  if (Buffer.byteLength(socketPath) <= MAX_SOCKET_PATH_BYTES) return socketPath;
  const relative = path.relative(process.cwd(), socketPath);
  return Buffer.byteLength(relative) <= MAX_SOCKET_PATH_BYTES ? relative : undefined;
}

/** What the CLI's terminal is like, so that the server formats output as the CLI would. */
export interface StreamInfo {
  isTTY: boolean;
  /** Width of the terminal (only when isTTY). */
  columns?: number;
  hasColors: boolean;
}

/** The CLI's one message: its command line (without `node cli.js`) and where it runs. */
export interface CommandRequest {
  v: number;
  argv: string[];
  /** The CLI's working directory: relative paths in the arguments are resolved against it. */
  cwd: string;
  stdout: StreamInfo;
  stderr: StreamInfo;
}

/** One step of a progress display (see SeedProgress). */
export type ProgressStep = { op: 'phase'; label: string; total: number } | { op: 'advance'; by: number } | { op: 'done' } | { op: 'log'; line: string };

/** The server's messages. `bar` numbers a command's progress displays (most have one). */
export type ServerMessage =
  { t: 'out'; text: string } | { t: 'err'; text: string } | ({ t: 'progress'; bar: number } & ProgressStep) | { t: 'exit'; code: number };

export class ProtocolError extends Error {}

function streamInfo(value: unknown): StreamInfo {
  const v = (value ?? {}) as Record<string, unknown>;
  const columns = typeof v.columns === 'number' && Number.isInteger(v.columns) && v.columns > 0 && v.columns < 10_000 ? v.columns : undefined;
  return { isTTY: v.isTTY === true, columns, hasColors: v.hasColors === true };
}

/** Reads and checks a request line. */
export function parseRequest(line: string): CommandRequest {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw new ProtocolError('The request is not JSON.');
  }
  const r = (value ?? {}) as Record<string, unknown>;
  if (r.v !== CLI_PROTOCOL_VERSION)
    throw new ProtocolError(
      `This CLI speaks version ${String(r.v)} of the CLI socket's protocol and the running server version ${CLI_PROTOCOL_VERSION}: run the CLI of the server's version (or restart the server after an upgrade).`,
    );
  if (!Array.isArray(r.argv) || !r.argv.every((a) => typeof a === 'string')) throw new ProtocolError('The request has no argv (an array of strings).');
  if (typeof r.cwd !== 'string' || !path.isAbsolute(r.cwd)) throw new ProtocolError('The request has no cwd (an absolute path).');
  return { v: r.v, argv: r.argv as string[], cwd: r.cwd, stdout: streamInfo(r.stdout), stderr: streamInfo(r.stderr) };
}

/** Reads a server message line; undefined for one this CLI does not know (ignored). */
export function parseServerMessage(line: string): ServerMessage | undefined {
  const m = JSON.parse(line) as Record<string, unknown>;
  switch (m.t) {
    case 'out':
    case 'err':
      return typeof m.text === 'string' ? { t: m.t, text: m.text } : undefined;
    case 'exit':
      return typeof m.code === 'number' ? { t: 'exit', code: m.code } : undefined;
    case 'progress':
      return typeof m.bar === 'number' ? (m as unknown as ServerMessage) : undefined;
    default:
      return undefined;
  }
}

/**
 * Splits a byte stream into lines (newline-terminated; a newline never occurs inside a UTF-8
 * character). Calls onLine for each; throws ProtocolError once an unfinished line passes maxBytes.
 */
export class LineSplitter {
  private chunks: Buffer[] = [];
  private size = 0;

  constructor(
    private readonly maxBytes: number,
    private readonly onLine: (line: string) => void,
  ) {}

  push(chunk: Buffer): void {
    let start = 0;
    for (let nl = chunk.indexOf(0x0a); nl !== -1; nl = chunk.indexOf(0x0a, start)) {
      const part = chunk.subarray(start, nl);
      this.check(part.length);
      const line = this.chunks.length ? Buffer.concat([...this.chunks, part]) : part;
      this.chunks = [];
      this.size = 0;
      start = nl + 1;
      this.onLine(line.toString('utf8'));
    }
    if (start < chunk.length) {
      const rest = chunk.subarray(start);
      this.check(rest.length);
      this.chunks.push(rest);
      this.size += rest.length;
    }
  }

  private check(more: number): void {
    if (this.size + more > this.maxBytes) throw new ProtocolError(`A message is longer than ${this.maxBytes} bytes.`);
  }
}
