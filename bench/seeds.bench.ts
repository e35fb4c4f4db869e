import fs from 'node:fs';
import path from 'node:path';
import { SeedLoader } from '../src/seeds/seed-loader.js';
import { SeedSource } from '../src/seeds/seed-source.js';
import { insertRows } from '../src/database/bulk-write.js';
import { charts, songs } from '../src/database/schema.js';
import { benchDatabases, SEEDS_DIR, table, timed } from './support.js';

/**
 * Loads all of Tachi's seeds, then again with nothing changed. The baseline is a raw bulk insert
 * of the same songs and charts (no validation, no diff, no folders), measured on the same database kind.
 */
export async function seedsBench(): Promise<string> {
  if (!fs.existsSync(SEEDS_DIR)) return `Seeds benchmark skipped: ${SEEDS_DIR} does not exist.`;
  const rows: (string | number)[][] = [];
  for (const make of await benchDatabases()) {
    const target = await make();
    try {
      const first = await timed(() => new SeedLoader(target.database).load(new SeedSource(SEEDS_DIR)));
      const again = await timed(() => new SeedLoader(target.database).load(new SeedSource(SEEDS_DIR)));
      const records = first.value.collections.reduce((n, c) => n + c.inserted, 0);
      rows.push([target.kind, 'full load', (first.ms / 1000).toFixed(1), records, first.value.folderLinks]);
      rows.push([target.kind, 'second run (no change)', (again.ms / 1000).toFixed(1), again.value.changed ? 'CHANGED' : 0, '']);
    } finally {
      await target.dispose();
    }
    const baseline = await make();
    try {
      const { ms, value } = await timed(() => rawInsert(baseline));
      rows.push([baseline.kind, 'baseline: raw INSERT of the songs and charts', (ms / 1000).toFixed(1), value, '']);
    } finally {
      await baseline.dispose();
    }
  }
  return table(['Database', 'Run', 'Seconds', 'Records written', 'Folder links'], rows);
}

/** Every song and chart of the seed files, inserted as they are in one transaction. */
async function rawInsert(target: { database: import('../src/database/database.js').Database }): Promise<number> {
  const files = fs.readdirSync(SEEDS_DIR);
  let n = 0;
  await target.database.transaction(async (tx) => {
    for (const f of files.filter((x) => x.startsWith('songs-'))) {
      const game = f.slice(6, -5);
      const records = JSON.parse(fs.readFileSync(path.join(SEEDS_DIR, f), 'utf8')) as {
        id: number;
        title: string;
        artist: string;
        altTitles: string[];
        searchTerms: string[];
        data: Record<string, unknown>;
      }[];
      await insertRows(
        tx,
        songs,
        records.map((s) => ({ game, ...s, matchTitles: [s.title.toLowerCase()], searchText: s.title, seedHash: '' })),
      );
      n += records.length;
    }
    for (const f of files.filter((x) => x.startsWith('charts-'))) {
      const game = f.slice(7, -5);
      const records = JSON.parse(fs.readFileSync(path.join(SEEDS_DIR, f), 'utf8')) as (typeof charts.$inferInsert)[];
      await insertRows(
        tx,
        charts,
        records.map((c) => ({
          chartID: c.chartID,
          game,
          playtype: c.playtype,
          songID: c.songID,
          difficulty: c.difficulty,
          level: c.level,
          levelNum: c.levelNum,
          isPrimary: c.isPrimary,
          versions: c.versions,
          data: c.data,
          inGameIDs: [],
          chartHashes: [],
          seedHash: '',
        })),
      );
      n += records.length;
    }
  });
  return n;
}
