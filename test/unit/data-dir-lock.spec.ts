import { afterEach, describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { acquireDataDirLock, DataDirLockedError, takeOverStaleLock } from '../../src/database/data-dir-lock.js';

/** The data-directory lock's rules that need no second process; embedded-db.e2e-spec.ts runs the real CLI against it. */
describe('acquireDataDirLock', () => {
  const dirs: string[] = [];
  const releases: (() => void)[] = [];
  afterEach(() => {
    for (const release of releases.splice(0)) release();
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  function setup() {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'st-lock-'));
    dirs.push(dir);
    return { dbDir: path.join(dir, 'db'), lockPath: path.join(dir, 'db.lock') };
  }

  const foreignLock = (extra: Record<string, unknown> = {}) =>
    JSON.stringify({ pid: 1, hostname: `not-${os.hostname()}`, startedAt: Date.now() - 3_600_000, command: 'node dist/main.js', nonce: 'f00d', ...extra });

  function setTouched(file: string, msAgo: number) {
    const at = new Date(Date.now() - msAgo);
    fs.utimesSync(file, at, at);
  }

  it('refuses a lock from another host while its heartbeat is fresh, naming the holder and its host', () => {
    const { dbDir, lockPath } = setup();
    fs.mkdirSync(dbDir);
    const held = foreignLock();
    fs.writeFileSync(lockPath, held);
    setTouched(lockPath, 5_000);
    let error: unknown;
    try {
      releases.push(acquireDataDirLock(dbDir));
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(DataDirLockedError);
    expect((error as Error).message).toContain(`in use by process 1 on host not-${os.hostname()} (node dist/main.js)`);
    expect((error as Error).message).toMatch(/stop that process first/);
    expect(fs.readFileSync(lockPath, 'utf8')).toBe(held); // left alone
  });

  it('takes over a lock from another host once its heartbeat is older than a minute', () => {
    const { dbDir, lockPath } = setup();
    fs.mkdirSync(dbDir);
    fs.writeFileSync(lockPath, foreignLock());
    setTouched(lockPath, 61_000);
    const release = acquireDataDirLock(dbDir);
    releases.push(release);
    expect(JSON.parse(fs.readFileSync(lockPath, 'utf8'))).toMatchObject({ pid: process.pid, hostname: os.hostname() });
    release();
    expect(fs.existsSync(lockPath)).toBe(false);
  });

  it('keeps its own lock fresh with a heartbeat while it holds it', async () => {
    const { dbDir, lockPath } = setup();
    const release = acquireDataDirLock(dbDir, { heartbeatMs: 50 });
    releases.push(release);
    setTouched(lockPath, 120_000);
    const deadline = Date.now() + 5_000;
    while (Date.now() - fs.statSync(lockPath).mtimeMs > 10_000 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
    expect(Date.now() - fs.statSync(lockPath).mtimeMs).toBeLessThan(10_000);
    release();
    expect(fs.existsSync(lockPath)).toBe(false);
  });

  it('does not delete a lock another process took after both read the same stale one', () => {
    const { dbDir, lockPath } = setup();
    fs.mkdirSync(dbDir);
    const stale = foreignLock({ nonce: 'stale' });
    // Both contenders read this stale lock; the faster one removed it and wrote its own …
    const winner = foreignLock({ hostname: os.hostname(), pid: process.pid + 1, nonce: 'winner' });
    fs.writeFileSync(lockPath, winner);
    // … and the slower one now acts on what it read.
    expect(takeOverStaleLock(lockPath, stale)).toBe(false);
    expect(fs.readFileSync(lockPath, 'utf8')).toBe(winner);
    expect(fs.readdirSync(path.dirname(lockPath)).filter((f) => f.startsWith('db.lock.'))).toEqual([]);

    // The lock it read is still there: it is removed.
    fs.writeFileSync(lockPath, stale);
    expect(takeOverStaleLock(lockPath, stale)).toBe(true);
    expect(fs.existsSync(lockPath)).toBe(false);
  });
});
