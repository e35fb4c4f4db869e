import type { Tx } from '../../database/database.js';
import { upsertRows } from '../../database/bulk-write.js';
import { folders, gameTables } from '../../database/schema.js';
import { tableRecord, type FolderRecord, type TableRecord } from '../seed-records.js';
import type { SeedSource } from '../seed-source.js';
import { diffWithStored, dropDangling, knownIDs, readGptRecords, type Collection, type Diff, type SeedLoad } from './collections.js';

/** Tables (tables.json): lists of folders. */

export function readTables(load: SeedLoad, source: SeedSource, selected: ReadonlySet<string>): Promise<Collection<TableRecord>> {
  return readGptRecords(load, source, 'tables.json', tableRecord, (r) => r.tableID, selected);
}

/** Rejects the tables naming a folder that is neither in folders.json nor in the database. */
export async function dropTablesWithoutFolders(load: SeedLoad, tables: Collection<TableRecord>, seededFolders: Collection<FolderRecord>) {
  const folderIDs = await knownIDs(
    load,
    folders,
    folders.folderID,
    seededFolders.accepted.map((a) => a.record.folderID),
  );
  dropDangling(load, [tables], (t) => {
    const missing = t.folders.filter((f) => !folderIDs.has(f));
    return missing.length ? `folder${missing.length > 1 ? 's' : ''} ${missing.slice(0, 3).join(', ')}${missing.length > 3 ? '…' : ''} do not exist` : undefined;
  });
}

export function diffTables(load: SeedLoad, collection: Collection<TableRecord>): Promise<Diff<TableRecord>> {
  return diffWithStored(load, collection, gameTables, gameTables.tableID, gameTables.seedHash, (r) => r.tableID);
}

export async function writeTables(tx: Tx, diff: Diff<TableRecord>, tick: (n: number) => void) {
  await upsertRows(
    tx,
    gameTables,
    ['table_id'],
    diff.write.map((a) => tableRow(a.record, a.hash)),
    tick,
  );
}

function tableRow(t: TableRecord, hash: string): typeof gameTables.$inferInsert {
  return {
    tableID: t.tableID,
    game: t.game,
    playtype: t.playtype,
    title: t.title,
    description: t.description,
    folders: t.folders,
    inactive: t.inactive,
    isDefault: t.default,
    seedHash: hash,
  };
}
