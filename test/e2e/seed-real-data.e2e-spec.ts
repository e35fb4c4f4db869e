import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import path from 'node:path';
import { SeedLoader, type SeedReport } from '../../src/seeds/seed-loader.js';
import { SeedSource } from '../../src/seeds/seed-source.js';
import type { Database } from '../../src/database/database.js';
import { openTestDatabase } from '../support/app.js';
import { catalogRows, countRows, folderContents, type TableName } from '../support/stored.js';
import { TACHI_SEEDS } from '../support/tachi-seeds.js';

/** The real Tachi seeds, when this machine has them (never copied into the project). */
const GAMES = ['sdvx', 'chunithm'];
const haveSeeds = GAMES.every((g) => fs.existsSync(path.join(TACHI_SEEDS, `charts-${g}.json`))) && fs.existsSync(path.join(TACHI_SEEDS, 'folders.json'));

interface RawChart {
  chartID: string;
  level: string;
  difficulty: string;
  playtype: string;
  versions: string[];
}
interface RawFolder {
  folderID: string;
  title: string;
  game: string;
  playtype: string;
  data: Record<string, unknown>;
}
const read = <T>(file: string) => JSON.parse(fs.readFileSync(path.join(TACHI_SEEDS, file), 'utf8')) as T[];
const ofGames = <T extends { game: string }>(records: T[]) => records.filter((r) => GAMES.includes(r.game));

/**
 * The charts a folder of these two games holds, written out for the only filter shapes their
 * folders use ({level, versions}, {difficulty, versions}, {difficulty: {~in}, versions}) without
 * the Mongo matcher, so the loader's resolution is checked against something independent.
 */
function expectedMembers(folder: RawFolder, gameCharts: RawChart[]): string[] {
  const { level, difficulty, versions, ...rest } = folder.data;
  if (Object.keys(rest).length > 0) throw new Error(`unexpected folder shape in ${folder.title}`);
  return gameCharts
    .filter((c) => c.playtype === folder.playtype)
    .filter((c) => level === undefined || c.level === level)
    .filter(
      (c) =>
        difficulty === undefined ||
        (typeof difficulty === 'string' ? c.difficulty === difficulty : (difficulty as { '~in': string[] })['~in'].includes(c.difficulty)),
    )
    .filter((c) => versions === undefined || c.versions.includes(versions as string))
    .map((c) => c.chartID)
    .sort();
}

(haveSeeds ? describe : describe.skip)('the real Tachi seeds for sdvx and chunithm', () => {
  let database: Database;
  let drop: () => Promise<void>;
  let report: SeedReport;
  const countOf = (table: TableName) => countRows(database, table);
  /** The charts of the folder titled `title`, and the folder. */
  const folderTitled = async (title: string) => {
    const [folder] = await catalogRows(database, 'folders', { title });
    const members = new Set((await folderContents(database))[folder.folderID]);
    return { folder, members: (await catalogRows(database, 'charts')).filter((c) => members.has(c.chartID)) };
  };

  beforeAll(async () => {
    ({ database, drop } = await openTestDatabase());
    report = await new SeedLoader(database).load(new SeedSource(TACHI_SEEDS), { games: GAMES });
  }, 120_000);
  afterAll(async () => {
    await drop();
  });

  it('loads every record: none rejected, no warnings (every folderID and goalID verified), no file missing', () => {
    expect(report.rejected).toEqual([]);
    expect(report.warnings).toEqual([]);
    expect(report.missingFiles).toEqual([]);
    expect(report.changed).toBe(true);
  });

  it('stores exactly the records of the files, per collection', async () => {
    const songsSdvx = read('songs-sdvx.json').length;
    const songsChu = read('songs-chunithm.json').length;
    const chartsSdvx = read('charts-sdvx.json').length;
    const chartsChu = read('charts-chunithm.json').length;
    const expected = {
      'songs-sdvx.json': songsSdvx,
      'songs-chunithm.json': songsChu,
      'charts-sdvx.json': chartsSdvx,
      'charts-chunithm.json': chartsChu,
      'folders.json': ofGames(read<RawFolder>('folders.json')).length,
      'tables.json': ofGames(read<{ game: string }>('tables.json')).length,
      'goals.json': ofGames(read<{ game: string }>('goals.json')).length,
      'quests.json': ofGames(read<{ game: string }>('quests.json')).length,
      'questlines.json': ofGames(read<{ game: string }>('questlines.json')).length,
    };
    // the counts of the seed copy this was written against
    expect(expected).toEqual({
      'songs-sdvx.json': 2239,
      'songs-chunithm.json': 1730,
      'charts-sdvx.json': 8307,
      'charts-chunithm.json': 7003,
      'folders.json': 573,
      'tables.json': 37,
      'goals.json': 93,
      'quests.json': 9,
      'questlines.json': 1,
    });
    for (const [file, n] of Object.entries(expected)) {
      expect(report.collections.find((c) => c.file === file)).toEqual({ file, records: n, inserted: n, updated: 0, unchanged: 0, rejected: 0 });
    }
    expect(await countOf('songs')).toBe(songsSdvx + songsChu);
    expect(await countOf('charts')).toBe(chartsSdvx + chartsChu);
    expect(await countOf('folders')).toBe(expected['folders.json']);
    expect(await countOf('tables')).toBe(expected['tables.json']);
    expect(await countOf('goals')).toBe(expected['goals.json']);
    expect(await countOf('quests')).toBe(expected['quests.json']);
    expect(await countOf('questlines')).toBe(expected['questlines.json']);
  });

  it('resolves every folder to exactly the charts its filter names', async () => {
    const chartsByGame = { sdvx: read<RawChart>('charts-sdvx.json'), chunithm: read<RawChart>('charts-chunithm.json') };
    const rawFolders = ofGames(read<RawFolder>('folders.json'));
    const stored = new Map<string, string[]>();
    for (const [folderID, chartIDs] of Object.entries(await folderContents(database))) stored.set(folderID, chartIDs);
    let links = 0;
    const wrong: string[] = [];
    for (const folder of rawFolders) {
      const want = expectedMembers(folder, chartsByGame[folder.game as 'sdvx' | 'chunithm']);
      links += want.length;
      if (JSON.stringify([...(stored.get(folder.folderID) ?? [])].sort()) !== JSON.stringify(want)) wrong.push(folder.title);
    }
    expect(wrong).toEqual([]);
    expect(report.folderLinks).toBe(links);
    expect(await countOf('folderCharts')).toBe(links);
  });

  it('puts only level-19 EXCEED GEAR charts in "Level 19 (EXCEED GEAR)"', async () => {
    const { folder, members } = await folderTitled('Level 19 (EXCEED GEAR)');
    expect(folder.game).toBe('sdvx');
    const rawCount = read<RawChart>('charts-sdvx.json').filter((c) => c.level === '19' && c.versions.includes('exceed')).length;
    expect(rawCount).toBe(189);
    expect(members).toHaveLength(rawCount);
    for (const chart of members) {
      expect(chart.level).toBe('19');
      expect(chart.versions).toContain('exceed');
    }
  });

  it('puts MASTER and ULTIMA charts only in a chunithm ~in folder', async () => {
    const { members } = await folderTitled('MASTER+ULTIMA (LUMINOUS PLUS)');
    expect(members.length).toBeGreaterThan(0);
    expect(new Set(members.map((chart) => chart.difficulty))).toEqual(new Set(['MASTER', 'ULTIMA']));
    for (const chart of members) expect(chart.versions).toContain('luminousplus');
  });

  it('changes nothing on a second load', async () => {
    const again = await new SeedLoader(database).load(new SeedSource(TACHI_SEEDS), { games: GAMES });
    expect(again.changed).toBe(false);
    expect(again.rejected).toEqual([]);
  }, 60_000);
});
