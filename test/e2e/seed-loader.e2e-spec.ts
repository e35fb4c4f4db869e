import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { SeedLoader, SeedLoadError, type SeedReport } from '../../src/seeds/seed-loader.js';
import { SeedSource, SeedSourceError } from '../../src/seeds/seed-source.js';
import { LineProgress } from '../../src/seeds/progress.js';
import type { Database } from '../../src/database/database.js';
import { GAMES } from '../../src/game-support/registry.js';
import { openTestDatabase } from '../support/app.js';
import { forbidFolderTitle } from '../support/db-fixtures.js';
import { catalogGames, catalogRows, countRows, folderContents, type TableName } from '../support/stored.js';

const FIXTURES = path.resolve('test/fixtures/seeds');
const CLEAN = path.join(FIXTURES, 'clean');
const BAD = path.join(FIXTURES, 'bad');

/** The chartIDs of the fixtures: sha1 of a readable tag, as the fixture files were written. */
const chartID = (tag: string) => createHash('sha1').update(`fixture-${tag}`).digest('hex');
const sdvx = (song: number, difficulty: string) => chartID(`sdvx-${song}-${difficulty}`);
const badChart = (tag: string) => chartID(`bad-${tag}`);

const readFixture = <T>(dir: string, file: string) => JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as T;
const folderIdOf = (dir: string, title: string, game = 'sdvx') =>
  readFixture<{ folderID: string; title: string; game: string }[]>(dir, 'folders.json').find((f) => f.title === title && f.game === game)!.folderID;

const load = (database: Database, from: string, games?: string[]) => new SeedLoader(database).load(new SeedSource(from), { games });

function summary(report: SeedReport, file: string) {
  return report.collections.find((c) => c.file === file);
}

const countOf = (database: Database, table: TableName) => countRows(database, table);

/** A copy of the clean fixtures in a temp directory, with edits applied to chosen files. */
function editedCopy(edit: (file: string, records: Record<string, unknown>[]) => void): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'st-seeds-'));
  for (const file of fs.readdirSync(CLEAN)) {
    const records = readFixture<Record<string, unknown>[]>(CLEAN, file);
    edit(file, records);
    fs.writeFileSync(path.join(dir, file), JSON.stringify(records));
  }
  return dir;
}

describe('SeedLoader: a clean load, a reload and an edit', () => {
  let database: Database;
  let drop: () => Promise<void>;
  let first: SeedReport;
  const tempDirs: string[] = [];

  beforeAll(async () => {
    ({ database, drop } = await openTestDatabase());
    first = await load(database, CLEAN);
  });
  afterAll(async () => {
    await drop();
    for (const d of tempDirs) fs.rmSync(d, { recursive: true, force: true });
  });

  it('reports every record as new and nothing rejected', () => {
    expect(first.rejected).toEqual([]);
    expect(first.warnings).toEqual([]);
    expect(first.changed).toBe(true);
    expect(first.games).toEqual(GAMES.map((g) => g.game));
    const expected: Record<string, number> = {
      'songs-sdvx.json': 5,
      'charts-sdvx.json': 11,
      'songs-chunithm.json': 2,
      'charts-chunithm.json': 3,
      'songs-iidx.json': 1,
      'charts-iidx.json': 2,
      'folders.json': 8,
      'tables.json': 3,
      'goals.json': 3,
      'quests.json': 2,
      'questlines.json': 1,
    };
    for (const [file, n] of Object.entries(expected)) {
      expect(summary(first, file)).toEqual({ file, records: n, inserted: n, updated: 0, unchanged: 0, rejected: 0 });
    }
    // 20 links, counted by hand from the fixture filters (see the membership test)
    expect(first.folderLinks).toBe(20);
    expect([...first.resolvedGpts].sort()).toEqual(['chunithm:Single', 'iidx:DP', 'iidx:SP', 'sdvx:Single']);
  });

  it('lists the files the source does not have', () => {
    const present = new Set(fs.readdirSync(CLEAN));
    const expected = [...GAMES.flatMap((g) => [`songs-${g.game}.json`, `charts-${g.game}.json`]), 'bms-course-lookup.json'].filter((f) => !present.has(f));
    expect([...first.missingFiles].sort()).toEqual(expected.sort());
  });

  it('stores the rows', async () => {
    expect(await countOf(database, 'songs')).toBe(8);
    expect(await countOf(database, 'charts')).toBe(16);
    expect(await countOf(database, 'folders')).toBe(8);
    expect(await countOf(database, 'tables')).toBe(3);
    expect(await countOf(database, 'goals')).toBe(3);
    expect(await countOf(database, 'quests')).toBe(2);
    expect(await countOf(database, 'questlines')).toBe(1);

    const [chart] = await catalogRows(database, 'charts', { chartID: sdvx(2, 'MXM') });
    expect(chart).toMatchObject({
      game: 'sdvx',
      playtype: 'Single',
      songID: 2,
      difficulty: 'MXM',
      level: '19',
      levelNum: 19,
      isPrimary: true,
      versions: ['vivid', 'exceed', 'konaste'],
      data: { inGameID: 1000 },
    });
    const [table] = await catalogRows(database, 'tables', { tableID: 'sdvx-Single-exceed-levels' });
    expect(table).toMatchObject({
      title: 'EXCEED GEAR Levels',
      isDefault: true,
      inactive: false,
      folders: [folderIdOf(CLEAN, 'Level 20 (EXCEED GEAR)'), folderIdOf(CLEAN, 'Level 18 (EXCEED GEAR)'), folderIdOf(CLEAN, 'Level 19 (EXCEED GEAR)')],
    });
    const [questline] = await catalogRows(database, 'questlines');
    expect(questline.quests).toHaveLength(2);
  });

  it('fills the match-key columns: in_game_ids, chart_hashes (lowercased) and match_titles', async () => {
    const byID = new Map((await catalogRows(database, 'charts')).map((c) => [c.chartID, c]));
    expect(byID.get(sdvx(1, 'NOV'))!.inGameIDs).toEqual([1]);
    expect(byID.get(sdvx(5, 'MXM'))!.inGameIDs).toEqual([500, 501]);
    expect(byID.get(sdvx(5, 'MXM'))!.chartHashes).toEqual([]);
    expect(byID.get(chartID('iidx-1000-SP-ANOTHER'))!.chartHashes).toEqual(['ab'.repeat(32)]);
    expect(byID.get(chartID('iidx-1000-DP-ANOTHER'))!.chartHashes).toEqual(['cd'.repeat(32)]);
    expect(byID.get(chartID('iidx-1000-SP-ANOTHER'))!.inGameIDs).toEqual([17000]);

    const songRows = await catalogRows(database, 'songs', { game: 'sdvx' });
    expect(songRows[0].matchTitles).toEqual(['albida powerless mix']);
    expect(songRows[1].matchTitles).toEqual(['lachryma《re:queen’m》', "lachryma re:queen'm"]);
    expect(songRows[2].matchTitles).toEqual(['グレイスちゃんの超～絶!!グルーヴ革命っ!!', 'grace-chan no chou-zetsu!! groove kakumei!!']);
    expect(songRows[0].searchText).toContain('muryokup');
  });

  it('resolves each folder to the charts its filter selects, within its own GPT', async () => {
    const contents = await folderContents(database);
    const sorted = (ids: string[]) => [...ids].sort();
    expect(contents[folderIdOf(CLEAN, 'Level 19 (EXCEED GEAR)')]).toEqual(sorted([sdvx(2, 'MXM'), sdvx(3, 'MXM'), sdvx(4, 'MXM')]));
    // 4-MXM is not on VIVID WAVE
    expect(contents[folderIdOf(CLEAN, 'Level 19 (VIVID WAVE)')]).toEqual(sorted([sdvx(2, 'MXM'), sdvx(3, 'MXM')]));
    expect(contents[folderIdOf(CLEAN, 'Level 18 (EXCEED GEAR)')]).toEqual(sorted([sdvx(1, 'MXM'), sdvx(3, 'HVN'), sdvx(5, 'MXM')]));
    expect(contents[folderIdOf(CLEAN, 'Level 20 (EXCEED GEAR)')]).toEqual([sdvx(4, 'XCD')]);
    // levelNum >= 17 on konaste: every chart but song 1's NOV/ADV/EXH
    expect(contents[folderIdOf(CLEAN, 'Level 17+ (Konaste)')]).toEqual(
      sorted([sdvx(1, 'MXM'), sdvx(2, 'EXH'), sdvx(2, 'MXM'), sdvx(3, 'HVN'), sdvx(3, 'MXM'), sdvx(4, 'MXM'), sdvx(4, 'XCD'), sdvx(5, 'MXM')]),
    );
    // level "13+" is not level "13"
    expect(contents[folderIdOf(CLEAN, 'Level 13 (LUMINOUS)', 'chunithm')]).toEqual([chartID('chu-0-MASTER')]);
    // same filter, the folder's own playtype only
    const iidx = readFixture<{ folderID: string; playtype: string; game: string }[]>(CLEAN, 'folders.json').filter((f) => f.game === 'iidx');
    expect(contents[iidx.find((f) => f.playtype === 'SP')!.folderID]).toEqual([chartID('iidx-1000-SP-ANOTHER')]);
    expect(contents[iidx.find((f) => f.playtype === 'DP')!.folderID]).toEqual([chartID('iidx-1000-DP-ANOTHER')]);
    expect(await countOf(database, 'folderCharts')).toBe(20);
  });

  it('changes nothing on a second identical load and says so', async () => {
    const before = { charts: await catalogRows(database, 'charts'), links: await folderContents(database) };
    const again = await load(database, CLEAN);
    expect(again.changed).toBe(false);
    expect(again.rejected).toEqual([]);
    expect(again.resolvedGpts).toEqual([]);
    expect(again.folderLinks).toBe(0);
    for (const c of again.collections) {
      if (c.records === 0) continue;
      expect(c).toEqual({ file: c.file, records: c.records, inserted: 0, updated: 0, unchanged: c.records, rejected: 0 });
    }
    expect(await catalogRows(database, 'charts')).toEqual(before.charts);
    expect(await folderContents(database)).toEqual(before.links);
  });

  it('updates an edited record, reports it as updated, and re-resolves folders when a chart level changes', async () => {
    const dir = editedCopy((file, records) => {
      if (file === 'songs-sdvx.json') records.find((s) => s.id === 5)!.title = 'Max Burning!! (edited)';
      if (file === 'charts-sdvx.json')
        Object.assign(
          records.find((c) => c.chartID === sdvx(4, 'MXM'))!,
          { level: '18', levelNum: 18 },
        );
      if (file === 'tables.json') records.find((t) => t.tableID === 'sdvx-Single-exceed-levels')!.description = 'Edited description.';
    });
    tempDirs.push(dir);
    const report = await load(database, dir);
    expect(report.rejected).toEqual([]);
    expect(report.changed).toBe(true);
    expect(summary(report, 'songs-sdvx.json')).toMatchObject({ inserted: 0, updated: 1, unchanged: 4 });
    expect(summary(report, 'charts-sdvx.json')).toMatchObject({ inserted: 0, updated: 1, unchanged: 10 });
    expect(summary(report, 'tables.json')).toMatchObject({ inserted: 0, updated: 1, unchanged: 2 });
    expect(summary(report, 'charts-chunithm.json')).toMatchObject({ inserted: 0, updated: 0, unchanged: 3 });
    expect(summary(report, 'folders.json')).toMatchObject({ inserted: 0, updated: 0, unchanged: 8 });
    expect(report.resolvedGpts).toEqual(['sdvx:Single']);
    // sdvx folders after the edit: 2 + 2 + 4 + 1 + 8
    expect(report.folderLinks).toBe(17);

    const [song] = await catalogRows(database, 'songs', { game: 'sdvx', id: 5 });
    expect(song.title).toBe('Max Burning!! (edited)');
    expect(song.matchTitles).toEqual(['max burning!! (edited)']);
    const contents = await folderContents(database);
    expect(contents[folderIdOf(CLEAN, 'Level 19 (EXCEED GEAR)')]).toEqual([sdvx(2, 'MXM'), sdvx(3, 'MXM')].sort());
    expect(contents[folderIdOf(CLEAN, 'Level 18 (EXCEED GEAR)')]).toEqual([sdvx(1, 'MXM'), sdvx(3, 'HVN'), sdvx(4, 'MXM'), sdvx(5, 'MXM')].sort());
    // other GPTs' links were left alone
    expect(contents[folderIdOf(CLEAN, 'Level 13 (LUMINOUS)', 'chunithm')]).toEqual([chartID('chu-0-MASTER')]);
    expect(await countOf(database, 'folderCharts')).toBe(20);

    const rerun = await load(database, dir);
    expect(rerun.changed).toBe(false);
  });

  it('drops a chart from its old playtype’s folders when an edit moves it to another playtype', async () => {
    const spChart = chartID('iidx-1000-SP-ANOTHER');
    const dir = editedCopy((file, records) => {
      if (file === 'charts-iidx.json')
        Object.assign(
          records.find((c) => c.chartID === spChart)!,
          { playtype: 'DP', difficulty: 'HYPER' },
        );
    });
    tempDirs.push(dir);
    const report = await load(database, dir, ['iidx']);
    expect(report.rejected).toEqual([]);
    expect(summary(report, 'charts-iidx.json')).toMatchObject({ updated: 1, unchanged: 1 });
    expect([...report.resolvedGpts].sort()).toEqual(['iidx:DP', 'iidx:SP']);
    const iidx = readFixture<{ folderID: string; playtype: string; game: string }[]>(CLEAN, 'folders.json').filter((f) => f.game === 'iidx');
    const contents = await folderContents(database);
    expect(contents[iidx.find((f) => f.playtype === 'SP')!.folderID]).toBeUndefined();
    expect(contents[iidx.find((f) => f.playtype === 'DP')!.folderID]).toEqual([chartID('iidx-1000-DP-ANOTHER'), spChart].sort());
  });

  it('does not carry one load’s issues into the next load of the same loader', async () => {
    const loader = new SeedLoader(database);
    const a = await loader.load(new SeedSource(CLEAN));
    const b = await loader.load(new SeedSource(CLEAN));
    expect(a.missingFiles.length).toBeGreaterThan(0);
    expect([...b.missingFiles].sort()).toEqual([...a.missingFiles].sort());
    expect(b.rejected).toEqual([]);
  });
});

describe('SeedLoader: bad records', () => {
  let database: Database;
  let drop: () => Promise<void>;
  let report: SeedReport;

  beforeAll(async () => {
    ({ database, drop } = await openTestDatabase());
    // no --games: with it, a record of a game outside the selection is out of scope and skipped unreported
    report = await load(database, BAD);
  });
  afterAll(async () => {
    await drop();
  });

  const rejection = (file: string, index: number | null) => report.rejected.filter((r) => r.file === file && r.index === index);

  it('reports each bad record with its file and index, and why', () => {
    const expected: [string, number | null, RegExp][] = [
      ['songs-chunithm.json', null, /not valid JSON/],
      ['charts-chunithm.json', null, /must hold a JSON array/],
      ['songs-sdvx.json', 2, /^title: /],
      ['songs-sdvx.json', 3, /duplicate id 1$/],
      ['songs-sdvx.json', 4, /^id: /],
      ['songs-sdvx.json', 5, /title.*NUL|NUL.*title/i],
      ['charts-sdvx.json', 2, /song 99 does not exist/],
      ['charts-sdvx.json', 3, new RegExp(`duplicate id ${badChart('1-MXM')}`)],
      ['charts-sdvx.json', 4, /difficulty 'BASIC' is not one of sdvx Single's/],
      ['charts-sdvx.json', 5, /^data\.inGameID/],
      ['charts-sdvx.json', 6, /^playtype: /],
      // song 3 failed its schema, so its chart has no song
      ['charts-sdvx.json', 7, /song 3 does not exist/],
      ['charts-sdvx.json', 8, /inGameID/],
      ['folders.json', 1, /\$regex/],
      ['folders.json', 2, /unsupported game\/playtype foo:Single/],
      ['folders.json', 3, /unsupported game\/playtype sdvx:DP/],
      ['folders.json', 5, /\$in needs an array/],
      ['folders.json', 6, /unsupported game\/playtype sdvx:constructor/],
      ['bms-course-lookup.json', 2, /unsupported game\/playtype bms:constructor/],
      ['bms-course-lookup.json', 3, /no class set constructor/],
      ['bms-course-lookup.json', 4, /genocideDan has no value NOPE/],
      ['bms-course-lookup.json', 5, /duplicate id/],
      ['tables.json', 1, new RegExp(`F${'1'.repeat(64)}`)],
      ['tables.json', 2, /do not exist/],
      ['goals.json', 2, /unsupported game\/playtype foo:Single/],
      ['quests.json', 1, new RegExp(`G${'2'.repeat(64)}`)],
      ['quests.json', 2, /referenced twice/],
      ['questlines.json', 1, /do not exist/],
    ];
    for (const [file, index, message] of expected) {
      const found = rejection(file, index);
      expect({ file, index, found: found.length }).toEqual({ file, index, found: 1 });
      expect(found[0].message).toMatch(message);
    }
    expect(report.rejected).toHaveLength(expected.length);
  });

  it('counts them per file', () => {
    expect(summary(report, 'songs-sdvx.json')).toEqual({ file: 'songs-sdvx.json', records: 6, inserted: 2, updated: 0, unchanged: 0, rejected: 4 });
    expect(summary(report, 'charts-sdvx.json')).toEqual({ file: 'charts-sdvx.json', records: 9, inserted: 2, updated: 0, unchanged: 0, rejected: 7 });
    expect(summary(report, 'folders.json')).toEqual({ file: 'folders.json', records: 7, inserted: 2, updated: 0, unchanged: 0, rejected: 5 });
    expect(summary(report, 'bms-course-lookup.json')).toEqual({
      file: 'bms-course-lookup.json',
      records: 6,
      inserted: 2,
      updated: 0,
      unchanged: 0,
      rejected: 4,
    });
    expect(summary(report, 'tables.json')).toMatchObject({ records: 3, inserted: 1, rejected: 2 });
    expect(summary(report, 'goals.json')).toMatchObject({ records: 3, inserted: 2, rejected: 1 });
    expect(summary(report, 'quests.json')).toMatchObject({ records: 3, inserted: 1, rejected: 2 });
    expect(summary(report, 'questlines.json')).toMatchObject({ records: 2, inserted: 1, rejected: 1 });
    expect(summary(report, 'songs-chunithm.json')).toMatchObject({ records: 0, inserted: 0 });
  });

  it('loads an id that does not match its hash rule, with a warning', async () => {
    expect(report.warnings).toHaveLength(2);
    expect(report.warnings[0]).toMatchObject({ file: 'folders.json', index: 4 });
    expect(report.warnings[0].message).toMatch(new RegExp(`folderID F${'0'.repeat(64)} does not match its content \\(expected F[0-9a-f]{64}\\)`));
    expect(report.warnings[1]).toMatchObject({ file: 'goals.json', index: 1 });
    expect(report.warnings[1].message).toMatch(new RegExp(`goalID G${'0'.repeat(64)} does not match`));
    const folderIDs = (await catalogRows(database, 'folders')).map((f) => f.folderID);
    expect(folderIDs).toContain(`F${'0'.repeat(64)}`);
    const goalIDs = (await catalogRows(database, 'goals')).map((g) => g.goalID);
    expect(goalIDs).toContain(`G${'0'.repeat(64)}`);
  });

  it('loads the rest', async () => {
    expect((await catalogRows(database, 'songs')).map((s) => s.id)).toEqual([1, 2]);
    expect((await catalogRows(database, 'charts')).map((c) => c.chartID)).toEqual([badChart('1-MXM'), badChart('2-MXM')].sort());
    expect(await countOf(database, 'tables')).toBe(1);
    expect(await countOf(database, 'quests')).toBe(1);
    expect(await countOf(database, 'questlines')).toBe(1);
    // a course value given as a class index is stored as the class id
    expect((await catalogRows(database, 'bmsCourses')).map((c) => c.value)).toEqual(['NORMAL_1', 'NORMAL_2']);
    const contents = await folderContents(database);
    expect(contents[folderIdOf(BAD, 'Level 19 (EXCEED GEAR)')]).toEqual([badChart('2-MXM')]);
    expect(contents[`F${'0'.repeat(64)}`]).toEqual([badChart('1-MXM')]);
    expect(report.missingFiles).not.toContain('songs-sdvx.json');
    expect(report.missingFiles).not.toContain('songs-chunithm.json');
    expect(report.missingFiles).toContain('songs-iidx.json');
  });
});

describe('SeedLoader: ids, chart slots and hashes that must be unique', () => {
  let database: Database;
  let drop: () => Promise<void>;
  let report: SeedReport;
  const tempDirs: string[] = [];

  /** A directory holding these collection files. */
  function seedDir(files: Record<string, unknown[]>): string {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'st-seeds-unique-'));
    tempDirs.push(dir);
    for (const [file, records] of Object.entries(files)) fs.writeFileSync(path.join(dir, file), JSON.stringify(records));
    return dir;
  }
  const songRec = (id: number, data: Record<string, unknown> = {}) => ({ id, title: `Song ${id}`, artist: 'A', searchTerms: [], altTitles: [], data });
  const chunithmSong = songRec(1, { genre: 'G', displayVersion: 'v' });
  const chartRec = (tag: string, songID: number, playtype: string, difficulty: string, data: Record<string, unknown>, isPrimary = true) => ({
    chartID: chartID(`unique-${tag}`),
    songID,
    level: '10',
    levelNum: 10,
    isPrimary,
    difficulty,
    playtype,
    data,
    versions: [],
  });
  const bmsData = (md5: string, sha256: string) => ({ notecount: 1000, hashMD5: md5, hashSHA256: sha256, tableFolders: [] });
  const itgData = (hashGSv3: string) => ({
    rankedLevel: 14,
    chartLevel: 14,
    hashGSv3,
    difficultyTag: 'Hard',
    length: 120,
    charter: 'C',
    streamBPM: null,
    breakdown: null,
    npsPerMeasure: [],
    notesPerMeasure: [],
    bannerLocationOverride: null,
    originalPack: 'P',
    packs: ['P'],
  });
  const [md5a, md5b] = ['a'.repeat(32), 'b'.repeat(32)];
  const [sha1, sha2, sha3] = ['a1'.repeat(32), 'b2'.repeat(32), 'c3'.repeat(32)];
  const course = (md5sums: string, value: string | number) => ({ title: `Course ${md5sums[0]}`, md5sums, set: 'genocideDan', playtype: '7K', value });

  beforeAll(async () => {
    ({ database, drop } = await openTestDatabase());
    const sdvxData = { inGameID: 1 };
    report = await load(
      database,
      seedDir({
        'songs-sdvx.json': [songRec(1)],
        'charts-sdvx.json': [
          chartRec('sdvx-exh', 1, 'Single', 'EXH', sdvxData),
          chartRec('sdvx-old-a', 1, 'Single', 'MXM', sdvxData, false),
          // 1: a second non-primary MXM of song 1
          chartRec('sdvx-old-b', 1, 'Single', 'MXM', sdvxData, false),
        ],
        'songs-chunithm.json': [chunithmSong],
        // 0: sdvx's chart id again
        'charts-chunithm.json': [{ ...chartRec('sdvx-exh', 1, 'Single', 'MASTER', { inGameID: 1 }) }],
        'songs-bms.json': [songRec(1), songRec(2), songRec(3), songRec(4)],
        'charts-bms.json': [
          chartRec('bms-1', 1, '7K', 'CHART', bmsData(md5a, sha1)),
          // 1: md5a again, on the other playtype (BMS hashes are unique across playtypes)
          chartRec('bms-2', 2, '14K', 'CHART', bmsData(md5a, sha2)),
          // 2: sha1 again, in capitals
          chartRec('bms-3', 3, '7K', 'CHART', bmsData(md5b, sha1.toUpperCase())),
          chartRec('bms-4', 4, '7K', 'CHART', bmsData(md5b, sha3)),
        ],
        'songs-pms.json': [songRec(1), songRec(2), songRec(3)],
        'charts-pms.json': [
          chartRec('pms-1', 1, 'Controller', 'CHART', bmsData(md5a, sha1)),
          // the same hashes on the other playtype: allowed
          chartRec('pms-2', 2, 'Keyboard', 'CHART', bmsData(md5a, sha1)),
          // 2: md5a again on Controller
          chartRec('pms-3', 3, 'Controller', 'CHART', bmsData(md5a, sha2)),
        ],
        'songs-usc.json': [songRec(1), songRec(2), songRec(3)],
        'charts-usc.json': [
          chartRec('usc-1', 1, 'Controller', 'EXH', { hashSHA1: ['c'.repeat(40)], isOfficial: false, effector: 'E', tableFolders: [] }),
          chartRec('usc-2', 2, 'Keyboard', 'EXH', { hashSHA1: 'c'.repeat(40), isOfficial: false, effector: 'E', tableFolders: [] }),
          // 2: the Controller hash again, given in a list
          chartRec('usc-3', 3, 'Controller', 'EXH', { hashSHA1: ['d'.repeat(40), 'C'.repeat(40)], isOfficial: false, effector: 'E', tableFolders: [] }),
        ],
        'songs-popn.json': [songRec(1), songRec(2)],
        'charts-popn.json': [
          chartRec('popn-1', 1, '9B', 'EX', { hashSHA256: sha1, inGameID: 1 }),
          // 1: sha1 again
          chartRec('popn-2', 2, '9B', 'EX', { hashSHA256: [sha2, sha1], inGameID: 2 }),
        ],
        'songs-itg.json': [songRec(1), songRec(2)],
        'charts-itg.json': [
          chartRec('itg-1', 1, 'Stamina', 'Hard 14', itgData('0123456789abcdef')),
          // 1: the same GrooveStats hash
          chartRec('itg-2', 2, 'Stamina', 'Hard 15', itgData('0123456789ABCDEF')),
        ],
        'bms-course-lookup.json': [
          course('e'.repeat(128), 0),
          // 1: a second genocideDan 7K NORMAL_1 (index 0 and the id name the same class)
          course('f'.repeat(128), 'NORMAL_1'),
          course('9'.repeat(128), 'NORMAL_2'),
        ],
      }),
    );
  });
  afterAll(async () => {
    await drop();
    for (const d of tempDirs) fs.rmSync(d, { recursive: true, force: true });
  });

  it('rejects each duplicate with its file and index, and why', () => {
    const expected: [string, number, string | RegExp][] = [
      ['charts-sdvx.json', 2, `song 1 already has a non-primary Single MXM chart (${chartID('unique-sdvx-old-a')})`],
      ['charts-chunithm.json', 0, `duplicate id ${chartID('unique-sdvx-exh')}: already a chart in charts-sdvx.json (index 0)`],
      ['charts-bms.json', 1, `data.hashMD5 ${md5a} is already the hashMD5 of chart ${chartID('unique-bms-1')}`],
      ['charts-bms.json', 2, `data.hashSHA256 ${sha1} is already the hashSHA256 of chart ${chartID('unique-bms-1')}`],
      ['charts-pms.json', 2, `data.hashMD5 ${md5a} is already the hashMD5 of chart ${chartID('unique-pms-1')}`],
      ['charts-usc.json', 2, `data.hashSHA1 ${'c'.repeat(40)} is already the hashSHA1 of chart ${chartID('unique-usc-1')}`],
      ['charts-popn.json', 1, `data.hashSHA256 ${sha1} is already the hashSHA256 of chart ${chartID('unique-popn-1')}`],
      ['charts-itg.json', 1, `data.hashGSv3 0123456789abcdef is already the hashGSv3 of chart ${chartID('unique-itg-1')}`],
      ['bms-course-lookup.json', 1, /^duplicate course for 7K genocideDan NORMAL_1: 'Course e' already is$/],
    ];
    for (const [file, index, message] of expected) {
      const found = report.rejected.filter((r) => r.file === file && r.index === index);
      expect({ file, index, found: found.length }).toEqual({ file, index, found: 1 });
      expect(found[0].message).toMatch(message);
    }
    expect(report.rejected).toHaveLength(expected.length);
    expect(summary(report, 'charts-pms.json')).toMatchObject({ records: 3, inserted: 2, rejected: 1 });
  });

  it('keeps the first chart with the id in its own game, and indexes the ITG hash for itgChartHash', async () => {
    const rows = await catalogRows(database, 'charts');
    expect(rows.filter((r) => r.chartID === chartID('unique-sdvx-exh')).map((r) => r.game)).toEqual(['sdvx']);
    expect(rows.find((r) => r.chartID === chartID('unique-itg-1'))!.chartHashes).toEqual(['0123456789abcdef']);
  });

  it('rejects a chart whose id the database already holds as another game’s chart', async () => {
    const again = await load(
      database,
      seedDir({ 'songs-chunithm.json': [chunithmSong], 'charts-chunithm.json': [chartRec('sdvx-exh', 1, 'Single', 'MASTER', { inGameID: 1 })] }),
      ['chunithm'],
    );
    expect(again.rejected).toEqual([
      { file: 'charts-chunithm.json', index: 0, message: `duplicate id ${chartID('unique-sdvx-exh')}: the database already holds it as a sdvx chart` },
    ]);
    const [row] = await catalogRows(database, 'charts', { chartID: chartID('unique-sdvx-exh') });
    expect(row.game).toBe('sdvx');
  });
});

describe('SeedLoader: sources and options', () => {
  let database: Database;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    ({ database, drop } = await openTestDatabase());
  });
  afterAll(async () => {
    await drop();
  });

  it('refuses an unknown game in --games before reading anything', async () => {
    await expect(load(database, CLEAN, ['sdvx', 'nope'])).rejects.toThrow(SeedLoadError);
    await expect(load(database, CLEAN, ['nope'])).rejects.toThrow(/Unknown game nope\. Supported: iidx/);
    expect(await countOf(database, 'songs')).toBe(0);
  });

  it('refuses a directory that does not exist', async () => {
    await expect(load(database, path.join(FIXTURES, 'does-not-exist'))).rejects.toThrow(SeedSourceError);
  });

  it('with --games, loads only those games’ songs, charts, folders, tables and targets', async () => {
    const report = await load(database, CLEAN, ['sdvx']);
    expect(report.games).toEqual(['sdvx']);
    expect(report.rejected).toEqual([]);
    expect(report.missingFiles).toEqual([]);
    expect(report.collections.map((c) => c.file)).not.toContain('songs-chunithm.json');
    expect(summary(report, 'folders.json')).toMatchObject({ records: 5, inserted: 5 });
    expect(summary(report, 'tables.json')).toMatchObject({ records: 2, inserted: 2 });
    expect(report.resolvedGpts).toEqual(['sdvx:Single']);
    expect(await catalogGames(database)).toEqual(['sdvx']);
    expect(await countOf(database, 'charts')).toBe(11);
  });
});

describe('SeedLoader: loading from a URL', () => {
  let database: Database;
  let drop: () => Promise<void>;
  let server: http.Server;
  let base: string;
  const requested: string[] = [];

  beforeAll(async () => {
    ({ database, drop } = await openTestDatabase());
    server = http.createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      requested.push(url.pathname);
      if (url.pathname.startsWith('/broken/')) {
        res.writeHead(500).end('boom');
        return;
      }
      const file = path.join(CLEAN, path.basename(url.pathname));
      if (!url.pathname.startsWith('/seeds/') || !fs.existsSync(file)) {
        res.writeHead(404).end('not found');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(fs.readFileSync(file));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await drop();
  });

  it('reads the collections from a base URL and counts a 404 as a missing file', async () => {
    const report = await load(database, `${base}/seeds/`, ['sdvx', 'ddr']);
    expect(report.source).toBe(`${base}/seeds/`);
    expect(report.rejected).toEqual([]);
    expect([...report.missingFiles].sort()).toEqual(['charts-ddr.json', 'songs-ddr.json']);
    expect(summary(report, 'charts-sdvx.json')).toMatchObject({ records: 11, inserted: 11 });
    expect(report.folderLinks).toBe(17);
    expect(requested).toContain('/seeds/songs-sdvx.json');
    expect(await countOf(database, 'songs')).toBe(5);
  });

  it('fails the load on any other HTTP error, writing nothing', async () => {
    await expect(load(database, `${base}/broken`, ['chunithm'])).rejects.toThrow(/HTTP 500/);
    expect(await countOf(database, 'songs')).toBe(5);
  });

  it('names the reason when the server cannot be reached, and how to load without the network', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    await expect(load(database, `http://127.0.0.1:${port}/seeds/`, ['sdvx'])).rejects.toThrow(
      `Could not fetch http://127.0.0.1:${port}/seeds/songs-sdvx.json (fetch failed: ECONNREFUSED). Check the network, or load from a local copy with --from <dir>.`,
    );
    expect(await countOf(database, 'songs')).toBe(5);
  });
});

describe('SeedLoader: the load is atomic', () => {
  let database: Database;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    ({ database, drop } = await openTestDatabase());
  });
  afterAll(async () => {
    await drop();
  });

  it('writes nothing when a write fails midway, and loads fully once the cause is gone', async () => {
    // A constraint this test adds to its own database: the folder passes every seed check, but the
    // folders are written after the songs and charts, so the transaction fails halfway through.
    const allowAgain = await forbidFolderTitle(database, 'Level 20 (EXCEED GEAR)');
    await expect(load(database, CLEAN, ['sdvx'])).rejects.toThrow();
    for (const table of ['songs', 'charts', 'folders', 'folderCharts', 'tables', 'goals', 'quests', 'questlines'] as const)
      expect(await countOf(database, table)).toBe(0);

    await allowAgain();
    const report = await load(database, CLEAN, ['sdvx']);
    expect(report.changed).toBe(true);
    expect(await countOf(database, 'charts')).toBe(11);
    expect(await countOf(database, 'folderCharts')).toBe(17);
  });
});

describe('SeedLoader: progress', () => {
  it('writes plain progress lines when not on a terminal', async () => {
    const { database, drop } = await openTestDatabase();
    try {
      const lines: string[] = [];
      await new SeedLoader(database).load(new SeedSource(CLEAN), { games: ['sdvx'], progress: new LineProgress((l) => lines.push(l)) });
      expect(lines).toContain('Validating songs-sdvx.json: 0/5');
      expect(lines).toContain('Validating songs-sdvx.json: 5/5');
      expect(lines).toContain('Writing records: 0/29');
      expect(lines).toContain('Writing records: 29/29');
      expect(lines).toContain('Resolving folders: 5/5');
    } finally {
      await drop();
    }
  });
});

describe('the seeds CLI command', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'st-cli-seeds-'));
  const run = (args: string[]) => {
    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent' };
    delete env.DATABASE_URL;
    delete env.REDIS_URL;
    return promisify(execFile)(process.execPath, ['dist/cli.js', ...args], { env, cwd: process.cwd() });
  };

  beforeAll(() => {
    // builds dist/ only when a source is newer than the last build
    execFileSync(process.execPath, ['scripts/build-if-needed.mjs'], { stdio: 'ignore' });
  }, 180_000);
  afterAll(() => {
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('loads the fixtures, then says there is nothing to change', async () => {
    const first = await run(['seeds', '--from', 'test/fixtures/seeds/clean', '--games', 'sdvx']);
    expect(first.stdout).toContain('Seeds from test/fixtures/seeds/clean for sdvx:');
    expect(first.stdout).toMatch(/songs-sdvx\.json\s+5 records: 5 new, 0 updated, 0 unchanged, 0 rejected/);
    expect(first.stdout).toMatch(/charts-sdvx\.json\s+11 records: 11 new, 0 updated, 0 unchanged, 0 rejected/);
    expect(first.stdout).toContain('Folders re-resolved for 1 GPT(s): 17 folder→chart links.');
    // not a terminal: plain progress lines on stderr
    expect(first.stderr).toContain('Writing records: 29/29');

    const second = await run(['seeds', '--from', 'test/fixtures/seeds/clean', '--games', 'sdvx']);
    expect(second.stdout).toContain('No changes: the database already matches these seeds.');
    expect(second.stdout).toMatch(/charts-sdvx\.json\s+11 records: 0 new, 0 updated, 11 unchanged, 0 rejected/);
  }, 120_000);

  it('exits 1 with a message for an unknown game', async () => {
    await expect(run(['seeds', '--from', 'test/fixtures/seeds/clean', '--games', 'nope'])).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('Unknown game nope'),
    });
  }, 60_000);
});
