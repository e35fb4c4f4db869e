import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';

export class DataDirLockedError extends Error {}

interface LockInfo {
  pid: number;
  hostname: string;
  startedAt: number;
  command: string;
  /** Makes every lock's text unique, so a takeover can tell the stale lock it read from a new one. */
  nonce: string;
}

export interface DataDirLockOptions {
  /** How often the holder touches the lock file. */
  heartbeatMs?: number;
  /** A lock from another host whose file has not been touched for this long is stale. */
  staleAfterMs?: number;
}

const HEARTBEAT_MS = 10_000;
const STALE_AFTER_MS = 60_000;

/** The lock file as read: its text, parsed when it is a whole lock, and when it was last touched. */
interface SeenLock {
  raw: string;
  info?: LockInfo;
  touchedAt: number;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readLock(lockPath: string): SeenLock | undefined {
  try {
    const raw = fs.readFileSync(lockPath, 'utf8');
    const touchedAt = fs.statSync(lockPath).mtimeMs;
    try {
      const info = JSON.parse(raw) as LockInfo;
      return { raw, touchedAt, info: typeof info?.pid === 'number' && typeof info.hostname === 'string' ? info : undefined };
    } catch {
      return { raw, touchedAt }; // unreadable or half-written: stale
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/** Creates the lock file with its whole content at once (a hard link of a finished file), or false when one exists. */
function tryCreate(lockPath: string, raw: string): boolean {
  const tmp = `${lockPath}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
  fs.writeFileSync(tmp, raw);
  try {
    fs.linkSync(tmp, lockPath);
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP') throw err;
    // A file system without hard links: exclusive create (a reader may then see it half-written).
    try {
      fs.writeFileSync(lockPath, raw, { flag: 'wx' });
      return true;
    } catch (wxErr) {
      if ((wxErr as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw wxErr;
    }
  } finally {
    fs.rmSync(tmp, { force: true });
  }
}

/**
 * Removes the stale lock whose text was `staleRaw`, or returns false when the lock file is no
 * longer that one. It is moved aside atomically and checked there: when two processes read the
 * same stale lock, the slower one's move may catch the lock the faster one has just written, and
 * then puts it back instead of deleting it.
 */
export function takeOverStaleLock(lockPath: string, staleRaw: string): boolean {
  const aside = `${lockPath}.stale-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    fs.renameSync(lockPath, aside);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false; // someone else removed it
    throw err;
  }
  let moved: string | undefined;
  try {
    moved = fs.readFileSync(aside, 'utf8');
  } catch {
    moved = undefined;
  }
  if (moved === staleRaw) {
    fs.rmSync(aside, { force: true });
    return true;
  }
  try {
    fs.linkSync(aside, lockPath); // never over a lock created meanwhile
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    // A third process created a lock in the instant the file was away: the holder whose lock was moved learns it from its heartbeat.
  }
  fs.rmSync(aside, { force: true });
  return false;
}

/** Why the lock in `seen` still holds (a message naming the holder), or undefined when it is stale. */
function holderOf(seen: SeenLock, mine: LockInfo, dbDir: string, staleAfterMs: number): string | undefined {
  const owner = seen.info;
  if (!owner) return undefined;
  const advice = 'PGlite allows one process at a time: stop that process first, or set DATABASE_URL to use a PostgreSQL server.';
  const started = `started ${new Date(owner.startedAt).toISOString()}`;
  if (owner.hostname === mine.hostname) {
    // Same host: the pid tells at once whether the holder runs, so a crash never blocks a restart.
    if (owner.pid === mine.pid || !isAlive(owner.pid)) return undefined;
    return `The embedded database ${dbDir} is in use by process ${owner.pid} (${owner.command}), ${started}. ${advice}`;
  }
  // Another host (a container sharing the volume): its pid means nothing here, so its heartbeat decides.
  const age = Date.now() - seen.touchedAt;
  if (age >= staleAfterMs) return undefined;
  return (
    `The embedded database ${dbDir} is in use by process ${owner.pid} on host ${owner.hostname} (${owner.command}), ${started}, ` +
    `alive ${Math.max(0, Math.round(age / 1000))} s ago. ${advice} (A lock whose host stopped touching it for ${Math.round(staleAfterMs / 1000)} s is taken over.)`
  );
}

/**
 * Touches the lock file every heartbeatMs while its text is still ours. It runs in a worker
 * thread, so a long synchronous stretch on the main thread never lets the lock look stale.
 */
const HEARTBEAT_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const fs = require('node:fs');
const { lockPath, raw, heartbeatMs } = workerData;
let lost = false;
setInterval(() => {
  let current;
  try { current = fs.readFileSync(lockPath, 'utf8'); } catch { current = undefined; }
  if (current === raw) {
    const now = new Date();
    try { fs.utimesSync(lockPath, now, now); } catch {}
  } else if (!lost) {
    lost = true;
    parentPort.postMessage('lost');
  }
}, heartbeatMs);
`;

function startHeartbeat(lockPath: string, raw: string, heartbeatMs: number): Worker {
  const worker = new Worker(HEARTBEAT_SOURCE, { eval: true, workerData: { lockPath, raw, heartbeatMs } });
  worker.on('message', () =>
    process.emitWarning(
      `The lock file ${lockPath} of this process's embedded database was removed or replaced by another process: two processes may now write to the database.`,
    ),
  );
  worker.on('error', (err) => process.emitWarning(`The heartbeat of ${lockPath} stopped: ${err.message}`));
  worker.unref();
  return worker;
}

/** Locks this process holds: a pid match alone cannot tell our own live lock from one a crashed predecessor with a reused pid left behind. */
const heldByThisProcess = new Set<string>();

/**
 * PGlite may only be opened by one process at a time. The lock file records the owner's pid and
 * host, and the owner touches it every 10 s. A second process fails at once. A lock left by a
 * crashed process of the same host is taken over at once (its pid is gone); one from another host
 * (containers sharing a volume) only once it has not been touched for 60 s, which assumes the
 * hosts' clocks agree to well within that. (An flock would need a native addon, and is not
 * reliable on network volumes.)
 */
export function acquireDataDirLock(dbDir: string, options: DataDirLockOptions = {}): () => void {
  const heartbeatMs = options.heartbeatMs ?? HEARTBEAT_MS;
  const staleAfterMs = options.staleAfterMs ?? STALE_AFTER_MS;
  fs.mkdirSync(dbDir, { recursive: true });
  const lockPath = path.resolve(path.dirname(dbDir), `${path.basename(dbDir)}.lock`);
  if (heldByThisProcess.has(lockPath)) throw new DataDirLockedError(`The embedded database ${dbDir} is already open in this process.`);
  const mine: LockInfo = {
    pid: process.pid,
    hostname: os.hostname(),
    startedAt: Date.now(),
    command: process.argv.slice(1).join(' '),
    nonce: randomBytes(8).toString('hex'),
  };
  const raw = JSON.stringify(mine);
  for (let attempt = 0; attempt < 5; attempt++) {
    if (tryCreate(lockPath, raw)) {
      heldByThisProcess.add(lockPath);
      const heartbeat = startHeartbeat(lockPath, raw, heartbeatMs);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        process.removeListener('exit', release);
        void heartbeat.terminate();
        heldByThisProcess.delete(lockPath);
        try {
          if (fs.readFileSync(lockPath, 'utf8') === raw) fs.unlinkSync(lockPath);
        } catch {
          // already gone
        }
      };
      process.once('exit', release);
      return release;
    }
    const seen = readLock(lockPath);
    if (!seen) continue; // released meanwhile
    const holder = holderOf(seen, mine, dbDir, staleAfterMs);
    if (holder) throw new DataDirLockedError(holder);
    takeOverStaleLock(lockPath, seen.raw);
  }
  throw new DataDirLockedError(`Could not lock the embedded database ${dbDir}: another process keeps taking the lock.`);
}
