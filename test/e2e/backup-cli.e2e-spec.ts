import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Database, embeddedDbDir } from '../../src/database/database.js';
import { buildIfNeeded, runCli } from '../support/cli.js';

/** `cli backup` and `cli restore` on the embedded database, run as `npm run cli` runs them. */
describe('cli backup / restore', () => {
  let dataDir: string;
  let work: string;
  const codes = (stdout: string) =>
    stdout
      .split('\n')
      .filter((l) => /^\S+\tunused$/.test(l))
      .sort();

  beforeAll(() => {
    buildIfNeeded();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'st-backup-'));
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'st-backup-files-'));
  }, 300_000);
  afterAll(() => {
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('refuses to back up when there is no database yet', async () => {
    const run = await runCli(['backup', path.join(work, 'none.tar.gz')], { dataDir });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/no embedded database/);
    expect(fs.existsSync(path.join(work, 'none.tar.gz'))).toBe(false);
  }, 60_000);

  it('round-trips the data: create, back up, wipe, restore, and it is back', async () => {
    const created = await runCli(['invites', 'create', '-n', '2'], { dataDir });
    expect(created.code).toBe(0);
    const before = codes((await runCli(['invites', 'list'], { dataDir })).stdout);
    expect(before).toHaveLength(2);

    const file = path.join(work, 'backup.tar.gz');
    const backup = await runCli(['backup', file], { dataDir });
    expect(backup.code).toBe(0);
    expect(backup.stdout).toMatch(/Backed up the embedded database/);

    fs.rmSync(embeddedDbDir(dataDir), { recursive: true });
    const restore = await runCli(['restore', file], { dataDir });
    expect(restore.code).toBe(0);
    expect(codes((await runCli(['invites', 'list'], { dataDir })).stdout)).toEqual(before);
  }, 120_000);

  it('refuses to replace a database without --force, and replaces it with --force', async () => {
    const file = path.join(work, 'backup.tar.gz');
    const before = codes((await runCli(['invites', 'list'], { dataDir })).stdout);
    expect((await runCli(['invites', 'create'], { dataDir })).code).toBe(0);

    const refused = await runCli(['restore', file], { dataDir });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/already holds a database.*--force/);
    expect(codes((await runCli(['invites', 'list'], { dataDir })).stdout)).toHaveLength(3);

    const forced = await runCli(['restore', '--force', file], { dataDir });
    expect(forced.code).toBe(0);
    expect(codes((await runCli(['invites', 'list'], { dataDir })).stdout)).toEqual(before);
  }, 120_000);

  it('leaves the database as it was when the file is not a backup', async () => {
    const bogus = path.join(work, 'bogus.tar.gz');
    fs.writeFileSync(bogus, 'not a backup');
    const run = await runCli(['restore', '--force', bogus], { dataDir });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/not a backup of the embedded database/);
    expect(codes((await runCli(['invites', 'list'], { dataDir })).stdout)).toHaveLength(2);
    expect(fs.readdirSync(dataDir).sort()).toEqual(['db']);
  }, 120_000);

  it('fails at once while another process that serves no CLI socket (not a server) holds the database', async () => {
    // A running server takes the backup itself, and refuses restore: cli-socket.e2e-spec.ts.
    const database = await Database.open({ dataDir: embeddedDbDir(dataDir) });
    try {
      for (const args of [
        ['backup', path.join(work, 'busy.tar.gz')],
        ['restore', '--force', path.join(work, 'backup.tar.gz')],
      ]) {
        const run = await runCli(args, { dataDir });
        expect(run.code).toBe(1);
        expect(run.stderr).toMatch(/is in use by process/);
      }
      expect(fs.existsSync(path.join(work, 'busy.tar.gz'))).toBe(false);
    } finally {
      await database.close();
    }
  }, 60_000);

  it('points to pg_dump / pg_restore with DATABASE_URL', async () => {
    for (const command of ['backup', 'restore']) {
      const run = await runCli([command, path.join(work, 'backup.tar.gz')], { dataDir, databaseUrl: 'postgres://nobody@127.0.0.1:1/none' });
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/pg_dump.*pg_restore/);
    }
  }, 60_000);
});
