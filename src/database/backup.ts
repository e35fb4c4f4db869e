import { sql } from 'drizzle-orm';
import fs from 'node:fs';
import path from 'node:path';
import { acquireDataDirLock } from './data-dir-lock.js';
import { Database } from './database.js';

/** A backup or restore that cannot be done as asked; its message says why. */
export class BackupError extends Error {}

function hasFiles(dir: string): boolean {
  try {
    return fs.readdirSync(dir).length > 0;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw err;
  }
}

/**
 * Writes the embedded database in dbDir to file as a gzipped data-directory dump. It holds the
 * data-dir lock throughout, so it fails at once while a server or another command has it open.
 */
export async function backupEmbedded(dbDir: string, file: string): Promise<{ bytes: number }> {
  if (!hasFiles(dbDir)) throw new BackupError(`There is no embedded database in ${dbDir} to back up.`);
  const database = await Database.open({ dataDir: dbDir });
  try {
    return await backupOpenEmbedded(database, file);
  } finally {
    await database.close();
  }
}

/**
 * Writes an embedded database this process has open (a running server's) to file, as
 * backupEmbedded does. The copy is taken inside a transaction of its own, after a CHECKPOINT: no
 * other transaction is open meanwhile (the engine runs one at a time) and no statement runs while
 * the data directory is copied, so the copy holds exactly the committed transactions. The
 * server's queries wait while it is copied.
 */
export async function backupOpenEmbedded(database: Database, file: string): Promise<{ bytes: number }> {
  const embedded = database.embedded;
  if (!embedded) throw new BackupError('This database is not the embedded one.');
  const dump = await database.transaction(async (tx) => {
    await tx.execute(sql`CHECKPOINT`);
    return embedded.dumpDataDir('gzip');
  });
  const bytes = Buffer.from(await dump.arrayBuffer());
  // Written beside the target and renamed, so an interrupted backup never leaves a truncated file under its name.
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    fs.writeFileSync(tmp, bytes);
    fs.renameSync(tmp, file);
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    throw new BackupError(`Could not write ${file}: ${(err as Error).message}`);
  }
  return { bytes: bytes.length };
}

/**
 * Replaces the embedded database in dbDir with the dump in file. The dump is first loaded into a
 * sibling directory and queried, so a bad file leaves the current database untouched; a non-empty
 * dbDir is replaced only with force.
 */
export async function restoreEmbedded(dbDir: string, file: string, options: { force: boolean }): Promise<void> {
  if (!fs.existsSync(file)) throw new BackupError(`No such backup file: ${file}`);
  // Held from the start: a running server (or command) stops the restore before anything is read.
  const release = acquireDataDirLock(dbDir);
  const staging = path.join(path.dirname(dbDir), `${path.basename(dbDir)}.restoring-${process.pid}`);
  try {
    if (hasFiles(dbDir) && !options.force)
      throw new BackupError(`${dbDir} already holds a database. Restoring replaces it: run again with --force to do that.`);
    fs.rmSync(staging, { recursive: true, force: true });
    let database: Database;
    try {
      database = await Database.open({ dataDir: staging, loadDataDir: new Blob([fs.readFileSync(file)]) });
    } catch (err) {
      throw new BackupError(`${file} is not a backup of the embedded database: ${err instanceof Error ? err.message : String(err)}`);
    }
    try {
      await database.db.execute(sql`SELECT 1`);
    } finally {
      await database.close();
    }
    const old = `${dbDir}.replaced-${process.pid}`;
    fs.renameSync(dbDir, old);
    fs.renameSync(staging, dbDir);
    fs.rmSync(old, { recursive: true, force: true });
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
    release();
  }
}
