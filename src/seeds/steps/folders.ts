import type { Tx } from '../../database/database.js';
import { upsertRows } from '../../database/bulk-write.js';
import { folders } from '../../database/schema.js';
import { computeFolderID } from '../../common/canonical-json.js';
import { resolveFolders } from '../folder-resolver.js';
import { assertValidFilter, decodeFilter, FilterError } from '../mongo-filter.js';
import { folderRecord, type FolderRecord } from '../seed-records.js';
import type { SeedSource } from '../seed-source.js';
import { diffWithStored, readGptRecords, type ChangedGpts, type Collection, type Diff, type SeedLoad } from './collections.js';

/** Folders (folders.json), and their resolution to charts once the load has written everything. */

const FILE = 'folders.json';

const KNOWN_FILTER_OPERATORS = new Set([
  '$eq',
  '$ne',
  '$gt',
  '$gte',
  '$lt',
  '$lte',
  '$in',
  '$nin',
  '$not',
  '$elemMatch',
  '$exists',
  '$size',
  '$all',
  '$and',
  '$or',
  '$nor',
]);

function unknownOperator(value: unknown): string | undefined {
  if (Array.isArray(value)) return value.map(unknownOperator).find(Boolean);
  if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k.startsWith('$') && !KNOWN_FILTER_OPERATORS.has(k)) return k;
      const inner = unknownOperator(v);
      if (inner) return inner;
    }
  }
  return undefined;
}

function checkFolder(load: SeedLoad, folder: FolderRecord, index: number): string | undefined {
  if ((folder.type === 'static') !== Array.isArray(folder.data))
    return folder.type === 'static' ? 'a static folder needs an array of chartIDs' : `a ${folder.type} folder needs a filter object`;
  if (!Array.isArray(folder.data)) {
    const decoded = decodeFilter(folder.data);
    const op = unknownOperator(decoded);
    if (op) return `the filter uses ${op}, which is not supported`;
    try {
      assertValidFilter(decoded);
    } catch (err) {
      if (err instanceof FilterError) return `invalid filter: ${err.message}`;
      throw err;
    }
  }
  const expected = computeFolderID(folder);
  if (expected !== folder.folderID) load.warn(FILE, index, `folderID ${folder.folderID} does not match its content (expected ${expected})`);
  return undefined;
}

export function readFolders(load: SeedLoad, source: SeedSource, selected: ReadonlySet<string>): Promise<Collection<FolderRecord>> {
  return readGptRecords(
    load,
    source,
    FILE,
    folderRecord,
    (r) => r.folderID,
    selected,
    (r, i) => checkFolder(load, r, i),
  );
}

export function diffFolders(load: SeedLoad, collection: Collection<FolderRecord>): Promise<Diff<FolderRecord>> {
  return diffWithStored(load, collection, folders, folders.folderID, folders.seedHash, (r) => r.folderID);
}

/** A changed folder touches its GPT. */
export function touchFolderGpts(changed: ChangedGpts, diff: Diff<FolderRecord>) {
  diff.write.forEach((a) => changed.touch(a.record.game, a.record.playtype));
}

export async function writeFolders(tx: Tx, diff: Diff<FolderRecord>, tick: (n: number) => void) {
  await upsertRows(
    tx,
    folders,
    ['folder_id'],
    diff.write.map((a) => folderRow(a.record, a.hash)),
    tick,
  );
}

/** Rebuilds the folder→chart links of every folder of these GPTs, in the load's transaction; returns the links written. */
export async function resolveChangedFolders(load: SeedLoad, tx: Tx, gpts: { game: string; playtype: string }[]): Promise<number> {
  if (gpts.length === 0) return 0;
  const total = (await tx.select({ id: folders.folderID, game: folders.game, playtype: folders.playtype }).from(folders)).filter((f) =>
    gpts.some((g) => g.game === f.game && g.playtype === f.playtype),
  ).length;
  load.progress.phase('Resolving folders', total);
  const links = await resolveFolders(tx, gpts, () => load.progress.advance());
  load.progress.done();
  return links;
}

function folderRow(f: FolderRecord, hash: string): typeof folders.$inferInsert {
  return {
    folderID: f.folderID,
    game: f.game,
    playtype: f.playtype,
    title: f.title,
    type: f.type,
    data: f.data,
    inactive: f.inactive,
    searchTerms: f.searchTerms,
    searchText: [f.title, ...f.searchTerms].join(' '),
    seedHash: hash,
  };
}
