import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { SeedLoader } from '../../src/seeds/seed-loader.js';
import { SeedSource } from '../../src/seeds/seed-source.js';
import { rerankAll } from '../../src/scoring/pbs/rerank.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { signUp, type SignedUpUser } from '../support/users.js';
import { storeChartlessSong, storePb, storeUser } from '../support/db-fixtures.js';

const CLEAN = path.resolve('test/fixtures/seeds/clean');
const chartID = (tag: string) => createHash('sha1').update(`fixture-${tag}`).digest('hex');
const sdvx = (song: number, difficulty: string) => chartID(`sdvx-${song}-${difficulty}`);

interface FixtureFolder {
  folderID: string;
  title: string;
  game: string;
  playtype: string;
}
const fixtureFolders = JSON.parse(fs.readFileSync(path.join(CLEAN, 'folders.json'), 'utf8')) as FixtureFolder[];
const folderID = (title: string, game = 'sdvx', playtype?: string) =>
  fixtureFolders.find((f) => f.title === title && f.game === game && (!playtype || f.playtype === playtype))!.folderID;

const ALL_GAMES = [
  'arcaea',
  'bms',
  'chunithm',
  'ddr',
  'gitadora',
  'iidx',
  'itg',
  'jubeat',
  'maimai',
  'maimaidx',
  'museca',
  'ongeki',
  'pms',
  'popn',
  'sdvx',
  'usc',
  'wacca',
];

describe('games and GPT catalog endpoints', () => {
  let t: TestApp;
  const userIDs: number[] = [];

  /** A PB row straight into the table, unranked (rerankAll below ranks them as imports would). */
  const pb = (userID: number, chartID: string, game = 'sdvx', playtype = 'Single', songID = 0) => storePb(t, { userID, chartID, game, playtype, songID });

  beforeAll(async () => {
    t = await createTestApp();
    const report = await new SeedLoader(t.database).load(new SeedSource(CLEAN));
    expect(report.rejected).toEqual([]);
    for (const name of ['alpha', 'bravo', 'charlie']) userIDs.push(await storeUser(t, name));
    const [a, b, c] = userIDs;
    // unique players: 4-XCD 3, 2-MXM 2, 1-NOV 1, 5-MXM 1; a chunithm PB on the same-titled song must not count for sdvx
    await pb(a, sdvx(4, 'XCD'), 'sdvx', 'Single', 4);
    await pb(b, sdvx(4, 'XCD'), 'sdvx', 'Single', 4);
    await pb(c, sdvx(4, 'XCD'), 'sdvx', 'Single', 4);
    await pb(a, sdvx(2, 'MXM'), 'sdvx', 'Single', 2);
    await pb(b, sdvx(2, 'MXM'), 'sdvx', 'Single', 2);
    await pb(c, sdvx(1, 'NOV'), 'sdvx', 'Single', 1);
    await pb(a, sdvx(5, 'MXM'), 'sdvx', 'Single', 5);
    await pb(a, chartID('chu-7-MASTER'), 'chunithm', 'Single', 7);
    await pb(b, chartID('chu-7-MASTER'), 'chunithm', 'Single', 7);
    await pb(c, chartID('chu-7-MASTER'), 'chunithm', 'Single', 7);
    // Imports rank every chart they touch; these rows skipped the pipeline, so rank them here.
    await rerankAll(t.database);
  });
  afterAll(async () => {
    await t.close();
  });

  describe('GET /games', () => {
    it('lists all 17 games with their GameConfig', async () => {
      const res = await t.http().get('/api/v1/games');
      expect(res.status).toBe(200);
      expect([...res.body.supportedGames].sort()).toEqual(ALL_GAMES);
      expect(Object.keys(res.body.configs).sort()).toEqual(ALL_GAMES);
      expect(res.body.configs.sdvx).toMatchObject({ name: 'SOUND VOLTEX', validPlaytypes: ['Single'] });
      expect(res.body.configs.iidx).toMatchObject({ name: 'beatmania IIDX', validPlaytypes: ['SP', 'DP'] });
      expect(res.body.configs.usc).toMatchObject({ name: 'USC', validPlaytypes: ['Controller', 'Keyboard'] });
      expect(res.body.configs.gitadora.validPlaytypes).toEqual(['Gita', 'Dora']);
    });

    it('GET /games/:game gives one GameConfig', async () => {
      const res = await t.http().get('/api/v1/games/iidx');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ name: 'beatmania IIDX', validPlaytypes: ['SP', 'DP'] });
    });

    it('404s an unknown game, listing the valid ones', async () => {
      const res = await t.http().get('/api/v1/games/nope');
      expect(res.status).toBe(404);
      for (const g of ALL_GAMES) expect(res.body.message).toContain(g);
      expect(res.body.message).toMatch(/nope/);
    });
  });

  describe('GET /games/:game/:playtype', () => {
    it('gives the GamePTConfig: idString, percentMax, default algorithms and classes with humanised values', async () => {
      const res = await t.http().get('/api/v1/games/iidx/SP');
      expect(res.status).toBe(200);
      const config = res.body.config;
      expect(config).toMatchObject({
        idString: 'iidx:SP',
        percentMax: 100,
        defaultScoreRatingAlg: 'ktLampRating',
        defaultSessionRatingAlg: 'ktLampRating',
        defaultProfileRatingAlg: 'ktLampRating',
      });
      expect(config.classes.dan.values).toHaveLength(19);
      expect(config.classes.dan.values[0]).toEqual({ index: 0, id: 'KYU_7', display: '七級', hoverText: '7th Kyu' });
      expect(config.classes.dan.values[18]).toEqual({ index: 18, id: 'KAIDEN', display: '皆伝', hoverText: 'Kaiden' });
    });

    it('gives sdvx and chunithm their own values', async () => {
      const sdvxConfig = (await t.http().get('/api/v1/games/sdvx/Single')).body.config;
      expect(sdvxConfig).toMatchObject({
        idString: 'sdvx:Single',
        percentMax: 100,
        defaultScoreRatingAlg: 'VF6',
        defaultSessionRatingAlg: 'ProfileVF6',
        defaultProfileRatingAlg: 'VF6',
      });
      expect(Object.keys(sdvxConfig.classes).sort()).toEqual(['dan', 'vfClass']);
      expect(sdvxConfig.classes.dan.values.at(-1)).toEqual({ index: 11, id: 'INF', display: 'LV.INF', hoverText: 'Inf. Dan' });
      const chu = (await t.http().get('/api/v1/games/chunithm/Single')).body.config;
      expect(chu).toMatchObject({ idString: 'chunithm:Single', percentMax: 101 });
    });

    it('404s an unknown playtype, listing the valid ones, and an unknown game', async () => {
      const res = await t.http().get('/api/v1/games/iidx/Single');
      expect(res.status).toBe(404);
      expect(res.body.message).toMatch(/Valid playtypes: SP, DP/);
      expect((await t.http().get('/api/v1/games/nope/SP')).status).toBe(404);
      // the same for every GPT route
      expect((await t.http().get('/api/v1/games/sdvx/DP/charts')).status).toBe(404);
      expect((await t.http().get('/api/v1/games/nope/Single/folders')).status).toBe(404);
      // names of Object.prototype properties are not playtypes
      for (const p of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
        expect({ p, status: (await t.http().get(`/api/v1/games/sdvx/${p}`)).status }).toEqual({ p, status: 404 });
        expect({ p, status: (await t.http().get(`/api/v1/games/sdvx/${p}/charts`)).status }).toEqual({ p, status: 404 });
      }
    });
  });

  describe('GET /songs/:songID', () => {
    it('gives the song and all its charts of this playtype', async () => {
      const res = await t.http().get('/api/v1/games/sdvx/Single/songs/2');
      expect(res.status).toBe(200);
      expect(res.body.song).toMatchObject({ id: 2, title: 'Lachryma《Re:Queen’M》', artist: 'かねこちはる', altTitles: ["Lachryma Re:Queen'M"] });
      expect(res.body.charts.map((c: { chartID: string }) => c.chartID).sort()).toEqual([sdvx(2, 'EXH'), sdvx(2, 'MXM')].sort());
      expect(res.body.charts[0]).toMatchObject({ songID: 2, playtype: 'Single' });
      const iidx = await t.http().get('/api/v1/games/iidx/SP/songs/1000');
      expect(iidx.body.charts.map((c: { chartID: string }) => c.chartID)).toEqual([chartID('iidx-1000-SP-ANOTHER')]);
    });

    it('404s a song that has no chart in this playtype, as not part of the GPT', async () => {
      const remove = await storeChartlessSong(t, 'sdvx', 50, 'Chartless');
      try {
        const res = await t.http().get('/api/v1/games/sdvx/Single/songs/50');
        expect(res.status).toBe(404);
        expect(res.body.message).toBe('The song 50 has no Single charts: it is not part of sdvx Single.');
      } finally {
        await remove();
      }
    });

    it('404s an unknown song and 400s an id that is not a non-negative integer', async () => {
      expect((await t.http().get('/api/v1/games/sdvx/Single/songs/999')).status).toBe(404);
      // song 0 is chunithm's, not sdvx's
      expect((await t.http().get('/api/v1/games/sdvx/Single/songs/0')).status).toBe(404);
      expect((await t.http().get('/api/v1/games/chunithm/Single/songs/0')).status).toBe(200);
      for (const bad of ['abc', '-1', '1.5', '99999999999']) {
        const res = await t.http().get(`/api/v1/games/sdvx/Single/songs/${bad}`);
        expect({ bad, status: res.status }).toEqual({ bad, status: 400 });
      }
    });
  });

  describe('GET /charts', () => {
    type ChartDoc = { chartID: string; songID: number; __playcount: number };

    it('without search gives the most popular charts, by unique players, with __playcount', async () => {
      const res = await t.http().get('/api/v1/games/sdvx/Single/charts');
      expect(res.status).toBe(200);
      const list = res.body.charts as ChartDoc[];
      expect(list).toHaveLength(11);
      expect(list.slice(0, 2).map((c) => [c.chartID, c.__playcount])).toEqual([
        [sdvx(4, 'XCD'), 3],
        [sdvx(2, 'MXM'), 2],
      ]);
      // ties broken by song id, then chart id
      const bySong = (song: number, difficulties: string[]) => difficulties.map((d) => sdvx(song, d)).sort();
      expect(list.slice(2).map((c) => [c.chartID, c.__playcount])).toEqual([
        [sdvx(1, 'NOV'), 1],
        [sdvx(5, 'MXM'), 1],
        ...[...bySong(1, ['ADV', 'EXH', 'MXM']), sdvx(2, 'EXH'), ...bySong(3, ['HVN', 'MXM']), sdvx(4, 'MXM')].map((id) => [id, 0]),
      ]);
      expect(res.body.songs.map((s: { id: number }) => s.id).sort()).toEqual([1, 2, 3, 4, 5]);
    });

    it('treats an empty search as no search', async () => {
      const res = await t.http().get('/api/v1/games/sdvx/Single/charts?search=');
      expect(res.status).toBe(200);
      expect(res.body.charts).toHaveLength(11);
      expect(res.body.charts[0].chartID).toBe(sdvx(4, 'XCD'));
    });

    it('matches the title, alternate titles and search terms, most popular first', async () => {
      const title = await t.http().get('/api/v1/games/sdvx/Single/charts').query({ search: 'lachryma' });
      expect(title.status).toBe(200);
      // the chunithm song of the same title is another game's
      expect(title.body.charts.map((c: ChartDoc) => [c.chartID, c.__playcount])).toEqual([
        [sdvx(2, 'MXM'), 2],
        [sdvx(2, 'EXH'), 0],
      ]);
      expect(title.body.songs.map((s: { id: number }) => s.id)).toEqual([2]);

      const alt = await t.http().get('/api/v1/games/sdvx/Single/charts').query({ search: 'Groove Kakumei' });
      expect(alt.body.songs.map((s: { id: number }) => s.id)).toEqual([3]);
      const term = await t.http().get('/api/v1/games/sdvx/Single/charts').query({ search: 'muryokup' });
      expect(term.body.charts.map((c: ChartDoc) => c.chartID).sort()).toEqual([sdvx(1, 'NOV'), sdvx(1, 'ADV'), sdvx(1, 'EXH'), sdvx(1, 'MXM')].sort());
      expect(term.body.charts[0]).toMatchObject({ chartID: sdvx(1, 'NOV'), __playcount: 1 });
    });

    it('matches a substring and close words', async () => {
      const substring = await t.http().get('/api/v1/games/sdvx/Single/charts').query({ search: 'Re:Queen' });
      expect(substring.body.songs.map((s: { id: number }) => s.id)).toEqual([2]);
      const caseless = await t.http().get('/api/v1/games/sdvx/Single/charts').query({ search: 'xross infinity' });
      expect(caseless.body.songs.map((s: { id: number }) => s.id)).toEqual([4]);
      // a misspelling: "infinty" shares 6 of its 8 trigrams with "infinity"
      const typo = await t.http().get('/api/v1/games/sdvx/Single/charts').query({ search: 'infinty' });
      expect(typo.body.songs.map((s: { id: number }) => s.id)).toEqual([4]);
      expect(typo.body.charts.map((c: ChartDoc) => [c.chartID, c.__playcount])).toEqual([
        [sdvx(4, 'XCD'), 3],
        [sdvx(4, 'MXM'), 0],
      ]);
      // "!!" appears in songs 3 and 5; song 5's chart has a player
      const bang = await t.http().get('/api/v1/games/sdvx/Single/charts').query({ search: '!!' });
      expect(bang.body.charts[0]).toMatchObject({ chartID: sdvx(5, 'MXM'), __playcount: 1 });
      expect(bang.body.charts.map((c: ChartDoc) => c.chartID).sort()).toEqual([sdvx(3, 'HVN'), sdvx(3, 'MXM'), sdvx(5, 'MXM')].sort());
      const none = await t.http().get('/api/v1/games/sdvx/Single/charts').query({ search: 'zzqqxxjj' });
      expect(none.body).toEqual({ charts: [], songs: [] });
      // LIKE wildcards are literal
      expect((await t.http().get('/api/v1/games/sdvx/Single/charts').query({ search: '%' })).body.charts).toEqual([]);
    });

    it('400s a search that is too long or a parameter it does not know', async () => {
      expect(
        (
          await t
            .http()
            .get('/api/v1/games/sdvx/Single/charts')
            .query({ search: 'x'.repeat(201) })
        ).status,
      ).toBe(400);
      expect((await t.http().get('/api/v1/games/sdvx/Single/charts?nope=1')).status).toBe(400);
      expect((await t.http().get('/api/v1/games/sdvx/Single/charts?search=a&search=b')).status).toBe(400);
    });
  });

  describe('GET /charts/:chartID and /charts/:chartID/playcount', () => {
    it('gives {song, chart}', async () => {
      const res = await t.http().get(`/api/v1/games/sdvx/Single/charts/${sdvx(4, 'XCD')}`);
      expect(res.status).toBe(200);
      expect(res.body.song).toMatchObject({ id: 4, title: 'XROSS INFINITY' });
      expect(res.body.chart).toMatchObject({
        chartID: sdvx(4, 'XCD'),
        songID: 4,
        playtype: 'Single',
        difficulty: 'XCD',
        level: '20',
        levelNum: 20,
        versions: ['exceed', 'konaste'],
        data: { inGameID: 1500 },
      });
    });

    it('404s a chart of another game or playtype, or an unknown one', async () => {
      expect((await t.http().get(`/api/v1/games/sdvx/Single/charts/${chartID('chu-7-MASTER')}`)).status).toBe(404);
      expect((await t.http().get(`/api/v1/games/iidx/SP/charts/${chartID('iidx-1000-DP-ANOTHER')}`)).status).toBe(404);
      expect((await t.http().get(`/api/v1/games/iidx/DP/charts/${chartID('iidx-1000-DP-ANOTHER')}`)).status).toBe(200);
      expect((await t.http().get(`/api/v1/games/sdvx/Single/charts/${'0'.repeat(40)}`)).status).toBe(404);
    });

    it('counts unique players', async () => {
      expect((await t.http().get(`/api/v1/games/sdvx/Single/charts/${sdvx(4, 'XCD')}/playcount`)).body).toEqual({ count: 3 });
      expect((await t.http().get(`/api/v1/games/sdvx/Single/charts/${sdvx(2, 'MXM')}/playcount`)).body).toEqual({ count: 2 });
      expect((await t.http().get(`/api/v1/games/sdvx/Single/charts/${sdvx(3, 'MXM')}/playcount`)).body).toEqual({ count: 0 });
      expect((await t.http().get(`/api/v1/games/chunithm/Single/charts/${chartID('chu-7-MASTER')}/playcount`)).body).toEqual({ count: 3 });
      expect((await t.http().get(`/api/v1/games/sdvx/Single/charts/${chartID('chu-7-MASTER')}/playcount`)).status).toBe(404);
    });
  });

  describe('GET /folders', () => {
    const titles = (body: { title: string }[]) => body.map((f) => f.title).sort();

    it('requires search', async () => {
      const res = await t.http().get('/api/v1/games/sdvx/Single/folders');
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/search/);
    });

    it("answers an empty or blank search with no folders (the client's folder pickers ask before anything is typed)", async () => {
      for (const search of ['', '%20%20']) {
        const res = await t.http().get(`/api/v1/games/sdvx/Single/folders?search=${search}`);
        expect([res.status, res.body]).toEqual([200, []]);
      }
    });

    it('finds active folders of this GPT by title and search terms', async () => {
      const res = await t.http().get('/api/v1/games/sdvx/Single/folders').query({ search: 'Level 19' });
      expect(res.status).toBe(200);
      // like Tachi's text search, close titles match too ("Level 18 ..." shares 7 of the 9 trigrams of "level 19"); the best match comes first
      expect(res.body[0].title).toBe('Level 19 (EXCEED GEAR)');
      expect(titles(res.body)).toEqual(['Level 17+ (Konaste)', 'Level 18 (EXCEED GEAR)', 'Level 19 (EXCEED GEAR)', 'Level 20 (EXCEED GEAR)']);
      expect(res.body[0]).toMatchObject({
        folderID: folderID('Level 19 (EXCEED GEAR)'),
        game: 'sdvx',
        playtype: 'Single',
        type: 'charts',
        data: { level: '19', versions: 'exceed' },
        inactive: false,
        searchTerms: [],
      });
      const term = await t.http().get('/api/v1/games/sdvx/Single/folders').query({ search: 'hard konaste' });
      expect(titles(term.body)).toEqual(['Level 17+ (Konaste)']);
      const exceed = await t.http().get('/api/v1/games/sdvx/Single/folders').query({ search: 'exceed gear' });
      expect(titles(exceed.body)).toEqual(['Level 18 (EXCEED GEAR)', 'Level 19 (EXCEED GEAR)', 'Level 20 (EXCEED GEAR)']);
      expect((await t.http().get('/api/v1/games/chunithm/Single/folders').query({ search: 'exceed gear' })).body).toEqual([]);
    });

    it('includes inactive folders only with ?inactive', async () => {
      const res = await t.http().get('/api/v1/games/sdvx/Single/folders?search=Level%2019&inactive');
      expect(res.status).toBe(200);
      expect(titles(res.body.slice(0, 2))).toEqual(['Level 19 (EXCEED GEAR)', 'Level 19 (VIVID WAVE)']);
      expect(res.body).toHaveLength(5);
      expect(res.body.filter((f: { inactive: boolean }) => f.inactive).map((f: { title: string }) => f.title)).toEqual(['Level 19 (VIVID WAVE)']);
      // the presence of the parameter counts, whatever its value
      expect((await t.http().get('/api/v1/games/sdvx/Single/folders?search=Level%2019&inactive=false')).body).toHaveLength(5);
    });
  });

  describe('GET /folders/:folderID', () => {
    it('gives {songs, charts, folder}', async () => {
      const res = await t.http().get(`/api/v1/games/sdvx/Single/folders/${folderID('Level 19 (EXCEED GEAR)')}`);
      expect(res.status).toBe(200);
      expect(res.body.folder).toMatchObject({ folderID: folderID('Level 19 (EXCEED GEAR)'), title: 'Level 19 (EXCEED GEAR)' });
      expect(res.body.charts.map((c: { chartID: string }) => c.chartID).sort()).toEqual([sdvx(2, 'MXM'), sdvx(3, 'MXM'), sdvx(4, 'MXM')].sort());
      expect(res.body.songs.map((s: { id: number }) => s.id).sort()).toEqual([2, 3, 4]);
      // an inactive folder is still readable by id
      const inactive = await t.http().get(`/api/v1/games/sdvx/Single/folders/${folderID('Level 19 (VIVID WAVE)')}`);
      expect(inactive.body.charts.map((c: { chartID: string }) => c.chartID).sort()).toEqual([sdvx(2, 'MXM'), sdvx(3, 'MXM')].sort());
    });

    it("404s another GPT's folder and an unknown one", async () => {
      expect((await t.http().get(`/api/v1/games/sdvx/Single/folders/${folderID('Level 13 (LUMINOUS)', 'chunithm')}`)).status).toBe(404);
      expect((await t.http().get(`/api/v1/games/iidx/SP/folders/${folderID('Level 12 (Epolis)', 'iidx', 'DP')}`)).status).toBe(404);
      const dp = await t.http().get(`/api/v1/games/iidx/DP/folders/${folderID('Level 12 (Epolis)', 'iidx', 'DP')}`);
      expect(dp.body.charts.map((c: { chartID: string }) => c.chartID)).toEqual([chartID('iidx-1000-DP-ANOTHER')]);
      expect((await t.http().get(`/api/v1/games/sdvx/Single/folders/F${'0'.repeat(64)}`)).status).toBe(404);
    });
  });

  describe('GET /tables', () => {
    it('lists the active tables of this GPT, and inactive ones with ?showInactive', async () => {
      const res = await t.http().get('/api/v1/games/sdvx/Single/tables');
      expect(res.status).toBe(200);
      expect(res.body.tables.map((x: { tableID: string }) => x.tableID)).toEqual(['sdvx-Single-exceed-levels']);
      expect(res.body.tables[0]).toMatchObject({
        title: 'EXCEED GEAR Levels',
        game: 'sdvx',
        playtype: 'Single',
        description: 'Levels for EXCEED GEAR.',
        inactive: false,
        default: true,
      });
      const all = await t.http().get('/api/v1/games/sdvx/Single/tables?showInactive');
      expect(all.body.tables.map((x: { tableID: string }) => x.tableID).sort()).toEqual(['sdvx-Single-exceed-levels', 'sdvx-Single-vivid-levels']);
      const withValue = await t.http().get('/api/v1/games/sdvx/Single/tables?showInactive=true');
      expect(withValue.body.tables).toHaveLength(2);
      expect((await t.http().get('/api/v1/games/iidx/SP/tables')).body).toEqual({ tables: [] });
    });

    it('gives a table with its folders in the table’s order', async () => {
      const res = await t.http().get('/api/v1/games/sdvx/Single/tables/sdvx-Single-exceed-levels');
      expect(res.status).toBe(200);
      expect(res.body.table).toMatchObject({
        tableID: 'sdvx-Single-exceed-levels',
        folders: [folderID('Level 20 (EXCEED GEAR)'), folderID('Level 18 (EXCEED GEAR)'), folderID('Level 19 (EXCEED GEAR)')],
      });
      expect(res.body.folders.map((f: { title: string }) => f.title)).toEqual(['Level 20 (EXCEED GEAR)', 'Level 18 (EXCEED GEAR)', 'Level 19 (EXCEED GEAR)']);
      // an inactive table is readable by id
      expect((await t.http().get('/api/v1/games/sdvx/Single/tables/sdvx-Single-vivid-levels')).status).toBe(200);
    });

    it("404s another GPT's table and an unknown one", async () => {
      expect((await t.http().get('/api/v1/games/sdvx/Single/tables/chunithm-Single-luminous-levels')).status).toBe(404);
      expect((await t.http().get('/api/v1/games/sdvx/Single/tables/nope')).status).toBe(404);
    });
  });
});

describe('GET /games/:game/:playtype/charts?requesterHasPlayed (the charts of songs the requester has played)', () => {
  let t: TestApp;
  let alice: SignedUpUser;
  let bob: SignedUpUser;
  const charts = (agent: ReturnType<TestApp['agent']> | ReturnType<TestApp['http']>, query: string) => agent.get(`/api/v1/games/sdvx/Single/charts?${query}`);
  const songsOf = (body: { charts: { songID: number }[] }) => [...new Set(body.charts.map((c) => c.songID))].sort();

  beforeAll(async () => {
    t = await createTestApp();
    await new SeedLoader(t.database).load(new SeedSource(CLEAN), { games: ['sdvx', 'chunithm'] });
    alice = await signUp(t);
    bob = await signUp(t);
    // Alice played songs 1 (ADV) and 4; Bob song 2, and CHUNITHM's song of the same title, which is another game's.
    await storePb(t, { userID: alice.user.id, chartID: sdvx(1, 'ADV'), game: 'sdvx', playtype: 'Single', songID: 1 });
    await storePb(t, { userID: alice.user.id, chartID: sdvx(4, 'XCD'), game: 'sdvx', playtype: 'Single', songID: 4 });
    await storePb(t, { userID: bob.user.id, chartID: sdvx(2, 'MXM'), game: 'sdvx', playtype: 'Single', songID: 2 });
    await storePb(t, { userID: bob.user.id, chartID: chartID('chu-7-MASTER'), game: 'chunithm', playtype: 'Single', songID: 7 });
    await rerankAll(t.database);
  });
  afterAll(async () => {
    await t.close();
  });

  it("gives every chart of the requester's songs, the played ones first, each requester their own (never another's cached answer)", async () => {
    const a = await charts(alice.agent, 'search=&requesterHasPlayed=true');
    expect(a.status).toBe(200);
    expect(songsOf(a.body)).toEqual([1, 4]);
    expect(a.body.charts.slice(0, 2).map((c: { chartID: string; __playcount: number }) => [c.chartID, c.__playcount])).toEqual([
      [sdvx(1, 'ADV'), 1],
      [sdvx(4, 'XCD'), 1],
    ]);
    expect(a.body.charts).toHaveLength(6);
    expect(a.body.songs.map((s: { id: number }) => s.id).sort()).toEqual([1, 4]);
    // The same URL for Bob: his songs alone.
    const b = await charts(bob.agent, 'search=&requesterHasPlayed=true');
    expect(songsOf(b.body)).toEqual([2]);
    expect(songsOf((await charts(alice.agent, 'search=&requesterHasPlayed=true')).body)).toEqual([1, 4]);
    // With a search, among the requester's songs only.
    expect(songsOf((await charts(alice.agent, 'search=lachryma&requesterHasPlayed')).body)).toEqual([]);
    expect(songsOf((await charts(bob.agent, 'search=lachryma&requesterHasPlayed')).body)).toEqual([2]);
    // Without the flag, every song of the GPT; noIntelligentOmit leaves nothing out either.
    expect(songsOf((await charts(alice.agent, 'noIntelligentOmit')).body)).toEqual([1, 2, 3, 4, 5]);
  });

  it('401 for a guest, whose request has no requester', async () => {
    const res = await charts(t.http(), 'requesterHasPlayed=true');
    expect(res.status).toBe(401);
    expect(res.body.message).toMatch(/requesterHasPlayed/);
  });
});
