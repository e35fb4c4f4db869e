import type { SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import type { Database } from '../../database/database.js';
import { findGame } from '../../game-support/registry.js';
import { seedHash } from '../../common/canonical-json.js';
import type { SeedProgress } from '../progress.js';
import { describeZodError, findUnstorableText } from '../seed-records.js';
import type { CollectionSummary, SeedIssue } from '../seed-report.js';
import type { SeedSource } from '../seed-source.js';

/**
 * Reading and validating a collection file, the step every collection starts with, and what the
 * later steps do to any collection: reject records whose references do not resolve, and compare
 * the accepted ones with the stored ones.
 */

/** One load's database, progress display and issues: the issues are its own, so loads never mix reports. */
export class SeedLoad {
  readonly rejected: SeedIssue[] = [];
  readonly warnings: SeedIssue[] = [];
  readonly missingFiles: string[] = [];

  constructor(
    readonly database: Database,
    readonly progress: SeedProgress,
  ) {}

  reject(file: string, index: number | null, message: string) {
    this.rejected.push({ file, index, message });
  }

  warn(file: string, index: number, message: string) {
    this.warnings.push({ file, index, message });
  }
}

export interface Accepted<R> {
  record: R;
  index: number;
  hash: string;
}

export interface Collection<R> {
  file: string;
  accepted: Accepted<R>[];
  rejected: number;
  records: number;
}

/** An accepted collection against the stored records: the records to write (`updates`: those that replace a stored one). */
export interface Diff<R> {
  write: Accepted<R>[];
  updates: ReadonlySet<Accepted<R>>;
  summary: CollectionSummary;
}

/** A listed playtype of a supported game (a plain property lookup would also find "constructor"). */
export function isSupportedGpt(game: string, playtype: string): boolean {
  return findGame(game)?.playtypes.includes(playtype) ?? false;
}

/** Reads and parses one collection file; undefined (recorded as missing) when it does not exist. */
export async function readArray(load: SeedLoad, source: SeedSource, file: string): Promise<unknown[] | undefined> {
  const text = await source.read(file);
  if (text === undefined) {
    load.missingFiles.push(file);
    return undefined;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    load.reject(file, null, `not valid JSON: ${(err as Error).message}`);
    return undefined;
  }
  if (!Array.isArray(parsed)) {
    load.reject(file, null, 'the file must hold a JSON array of records');
    return undefined;
  }
  return parsed;
}

/**
 * Validates each record of a file: its schema, storable text, a unique id and `extra` (the
 * collection's own checks). A record `keep` leaves out (another game's, with --games) is not
 * counted. Every bad record is rejected with its index and why.
 */
export function validate<R>(
  load: SeedLoad,
  file: string,
  raw: unknown[],
  schema: z.ZodType<R>,
  key: (r: R) => string,
  extra?: (r: R, index: number) => string | undefined,
  keep: (r: R) => boolean = () => true,
): Collection<R> {
  const seen = new Set<string>();
  const collection: Collection<R> = { file, accepted: [], rejected: 0, records: 0 };
  load.progress.phase(`Validating ${file}`, raw.length);
  raw.forEach((item, index) => {
    load.progress.advance();
    const parsed = schema.safeParse(item);
    if (parsed.success && !keep(parsed.data)) return;
    collection.records++;
    let message: string | undefined;
    if (!parsed.success) message = describeZodError(parsed.error);
    else message = findUnstorableText(item) ?? (seen.has(key(parsed.data)) ? `duplicate id ${key(parsed.data)}` : extra?.(parsed.data, index));
    if (message !== undefined) {
      collection.rejected++;
      load.reject(file, index, message);
      return;
    }
    const record = parsed.data as R;
    seen.add(key(record));
    collection.accepted.push({ record, index, hash: seedHash(item) });
  });
  load.progress.done();
  return collection;
}

/** Reads and validates a file of records that name their GPT (folders, tables, goals, quests, questlines). */
export async function readGptRecords<R extends { game: string; playtype: string }>(
  load: SeedLoad,
  source: SeedSource,
  file: string,
  schema: z.ZodType<R>,
  idOf: (r: R) => string,
  selected: ReadonlySet<string>,
  extra?: (r: R, index: number) => string | undefined,
): Promise<Collection<R>> {
  const raw = (await readArray(load, source, file)) ?? [];
  return validate(
    load,
    file,
    raw,
    schema,
    idOf,
    (r, index) => (isSupportedGpt(r.game, r.playtype) ? extra?.(r, index) : `unsupported game/playtype ${r.game}:${r.playtype}`),
    (r) => selected.size === 0 || selected.has(r.game),
  );
}

/** Rejects accepted records whose references do not resolve. */
export function dropDangling<R>(load: SeedLoad, collections: Collection<R>[], problem: (r: R) => string | undefined) {
  for (const c of collections) {
    c.accepted = c.accepted.filter((a) => {
      const message = problem(a.record);
      if (message === undefined) return true;
      c.rejected++;
      load.reject(c.file, a.index, message);
      return false;
    });
  }
}

/** The ids the database holds in this column, plus those this load accepts. */
export async function knownIDs(load: SeedLoad, table: PgTable, column: PgColumn, seeded: string[]): Promise<Set<string>> {
  const rows = await load.database.db.select({ id: column }).from(table);
  return new Set([...rows.map((r) => String(r.id)), ...seeded]);
}

/** Compares accepted records with the stored ones by content hash. */
export async function diffWithStored<R>(
  load: SeedLoad,
  collection: Collection<R>,
  table: PgTable,
  keyColumn: PgColumn,
  hashColumn: PgColumn,
  keyOf: (r: R) => string,
  scope?: SQL,
): Promise<Diff<R>> {
  const stored = new Map<string, string>();
  if (collection.accepted.length) {
    const rows = await load.database.db.select({ key: keyColumn, hash: hashColumn }).from(table).where(scope);
    for (const row of rows) stored.set(String(row.key), String(row.hash));
  }
  const updates = new Set<Accepted<R>>();
  const write = collection.accepted.filter((a) => {
    const previous = stored.get(keyOf(a.record));
    if (previous === a.hash) return false;
    if (previous !== undefined) updates.add(a);
    return true;
  });
  const updated = updates.size;
  const inserted = write.length - updated;
  return {
    write,
    updates,
    summary: {
      file: collection.file,
      records: collection.records,
      inserted,
      updated,
      unchanged: collection.accepted.length - write.length,
      rejected: collection.rejected,
    },
  };
}

/** Which GPTs a load changed ("game:playtype"), so that their folders are re-resolved. */
export class ChangedGpts {
  private readonly gpts = new Map<string, { game: string; playtype: string }>();

  touch(game: string, playtype: string) {
    this.gpts.set(`${game}:${playtype}`, { game, playtype });
  }

  keys(): string[] {
    return [...this.gpts.keys()];
  }

  list(): { game: string; playtype: string }[] {
    return [...this.gpts.values()];
  }
}
