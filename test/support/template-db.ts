import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { Database, embeddedDbDir, MIGRATIONS_FOLDER } from '../../src/database/database.js';

/** Identifies the current set of migrations, so a template is rebuilt whenever they change. */
export function migrationsFingerprint(): string {
  const hash = createHash('sha256');
  for (const file of fs
    .readdirSync(MIGRATIONS_FOLDER)
    .filter((f) => f.endsWith('.sql'))
    .sort()) {
    hash.update(file).update(fs.readFileSync(path.join(MIGRATIONS_FOLDER, file)));
  }
  return hash.digest('hex').slice(0, 12);
}

export function pgliteTemplatePath(): string {
  return path.join(os.tmpdir(), `score-tracker-template-${migrationsFingerprint()}.tar`);
}

export function pgTemplateName(): string {
  return `st_template_${migrationsFingerprint()}`;
}

/** Builds the migrated PGlite template (a data-directory dump) once per set of migrations. */
export async function ensurePgliteTemplate(): Promise<string> {
  const file = pgliteTemplatePath();
  if (fs.existsSync(file)) return file;
  const database = await Database.open({});
  await database.migrate();
  const dump = await database.embedded!.dumpDataDir('none');
  await database.close();
  const tmp = `${file}.${process.pid}`;
  fs.writeFileSync(tmp, Buffer.from(await dump.arrayBuffer()));
  fs.renameSync(tmp, file);
  return file;
}

export function adminUrl(url: string, database = 'postgres'): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/** Builds the migrated PostgreSQL template database once per set of migrations. */
export async function ensurePgTemplate(url: string): Promise<string> {
  const name = pgTemplateName();
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    const { rows } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (rows.length > 0) return name;
    const building = `${name}_building_${process.pid}`;
    await admin.query(`DROP DATABASE IF EXISTS "${building}"`);
    await admin.query(`CREATE DATABASE "${building}"`);
    const database = await Database.open({ url: adminUrl(url, building), poolSize: 2 });
    await database.migrate();
    await database.close();
    try {
      await admin.query(`ALTER DATABASE "${building}" RENAME TO "${name}"`);
    } catch {
      await admin.query(`DROP DATABASE IF EXISTS "${building}"`); // another run built it first
    }
    return name;
  } finally {
    await admin.end();
  }
}

/**
 * A new DATA_DIR (under the temp directory, named prefix…) whose embedded database is a copy of the
 * migrated template: what a first start would build, without its initdb and migrations (about 5 s
 * of a child process's start). The template's data directory is loaded once per set of migrations
 * and copied from then on. Tests of the first start itself use an empty directory instead.
 */
export async function migratedDataDir(prefix: string): Promise<string> {
  const source = await ensurePgliteTemplateDir();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  fs.cpSync(source, embeddedDbDir(dataDir), { recursive: true });
  return dataDir;
}

/** The migrated template as an embedded database directory (built from the dump once per set of migrations). */
async function ensurePgliteTemplateDir(): Promise<string> {
  const dir = path.join(os.tmpdir(), `score-tracker-template-${migrationsFingerprint()}-db`);
  if (fs.existsSync(dir)) return dir;
  const building = fs.mkdtempSync(`${dir}-building-`);
  try {
    const database = await Database.open({ dataDir: building, loadDataDir: new Blob([fs.readFileSync(await ensurePgliteTemplate())]) });
    await database.close();
    fs.renameSync(building, dir);
  } catch (err) {
    // Another test process built it first (the rename found it there): use theirs.
    if (!fs.existsSync(dir)) throw err;
  } finally {
    fs.rmSync(building, { recursive: true, force: true });
  }
  return dir;
}
