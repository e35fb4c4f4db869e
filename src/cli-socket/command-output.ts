import { progressFor, type SeedProgress } from '../seeds/progress.js';
import type { StreamInfo } from './protocol.js';

/**
 * Where a CLI command writes: its standard output and error, and progress displays. In the CLI's
 * own process they are its streams (processOutput); in a server running the command for the CLI,
 * messages on the CLI socket, which the CLI writes to its streams (and renders as the same bars).
 */
export interface CommandOutput {
  /** Writes text to standard output as it is (lines end with \n). */
  writeOut(text: string): void;
  /** Writes text to standard error as it is. */
  writeErr(text: string): void;
  /** A new progress display on standard error: cli-progress bars on a terminal, plain lines otherwise. */
  progress(): SeedProgress;
  /** What the CLI's standard output and error are (a terminal, its width), for formatting help. */
  readonly stdout: StreamInfo;
  readonly stderr: StreamInfo;
}

/** NO_COLOR / FORCE_COLOR, as commander reads them. */
function colorsForced(): boolean | undefined {
  if (process.env.NO_COLOR || process.env.FORCE_COLOR === '0' || process.env.FORCE_COLOR === 'false') return false;
  if (process.env.FORCE_COLOR || process.env.CLICOLOR_FORCE !== undefined) return true;
  return undefined;
}

/** What this process's stream is. */
export function streamInfoOf(stream: NodeJS.WriteStream): StreamInfo {
  const isTTY = stream.isTTY === true;
  return { isTTY, columns: isTTY ? stream.columns : undefined, hasColors: colorsForced() ?? (isTTY && stream.hasColors?.() === true) };
}

/** This process's own streams. */
export function processOutput(): CommandOutput {
  return {
    writeOut: (text) => void process.stdout.write(text),
    writeErr: (text) => void process.stderr.write(text),
    progress: () => progressFor(process.stderr),
    stdout: streamInfoOf(process.stdout),
    stderr: streamInfoOf(process.stderr),
  };
}
