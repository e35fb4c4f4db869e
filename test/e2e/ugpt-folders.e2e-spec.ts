import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import path from 'node:path';
import { SeedLoader } from '../../src/seeds/seed-loader.js';
import { SeedSource } from '../../src/seeds/seed-source.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { fixtureChartID, importSdvx, loadScoreFixtures, sdvxScore } from '../support/score-fixtures.js';
import { failed, ok } from '../support/tachi.js';
import { bearer, issueToken, signUp, type SignedUpUser } from '../support/users.js';

const T0 = Date.UTC(2024, 4, 1, 12);
const MIN = 60_000;

/**
 * Folders over the score fixtures (test/fixtures/ugpt-folders): levelNum ≥ 17 holds EXH 5, 6, 7
 * and MXM 1–7 (10 charts); level 20 holds MXM 4, 5, 7; level N holds the charts of that level; an
 * inactive "old showcase" folder holds 7-EXH; the last belongs to iidx SP. The active table
 * "sdvx-Single-levels" lists Level 19, Level 20, Level 17+ in that order; "sdvx-Single-old" is inactive.
 */
const LEVEL_17_UP = 'F1c272465d41e52cf1cc2b351493efe2a29753674310cb1f52802399c5bbe7c23';
const LEVEL_20 = 'Fde22538ff5c29b0cfe100e213e575988500196175709c4d9f448862ba7503d27';
const LEVEL = {
  14: 'F134335f22f323fdb8a5a00d7c1a357a8a4f3bb1300cb44c02d6865d00d348913',
  15: 'F8d0bbec7a19461f883d5a0a5ec033c4b88a1c109244a8b712d1dc6aef26bd09c',
  16: 'Fb2a4d60b6ca6d529d9facc8a2be7fe48363a88d75d9338a5d5df747b0b622bc6',
  17: 'F95ff9633079596fd02b516c7fba0963d263e21173a5af1af761114b5b87af881',
  18: 'F62ab5360a8d8d097f839304530e7562723f6eb8c691dbf0c857ab879f2ecc5c9',
  19: 'F2c64d7e81c35671833e64dea7f6cd814f4e3121659929632bbf7100660348734',
} as const;
const OLD_SHOWCASE = 'Fbdb30fa463362e41cc459cb48d3bc8f7a1885dc42254871b94dbbf166474cba8';
const IIDX_FOLDER = 'Fa381b9d7680003af5a6c5623487f5d99acf17c0ca1b9e15f08b51bd75f404a43';

const LAMPS0 = { FAILED: 0, CLEAR: 0, 'EXCESSIVE CLEAR': 0, 'MAXXIVE CLEAR': 0, 'ULTIMATE CHAIN': 0, 'PERFECT ULTIMATE CHAIN': 0 };
const GRADES0 = { D: 0, C: 0, B: 0, A: 0, 'A+': 0, AA: 0, 'AA+': 0, AAA: 0, 'AAA+': 0, S: 0, PUC: 0 };

/**
 * The player's scores. Grades by sdvx's boundaries: 9,000,000 A+, 9,600,000 AA+, 9,850,000 AAA+,
 * 8,800,000 A, 10,000,000 PUC. PBs: 5-EXH 9,600,000 EXCESSIVE CLEAR (AA+), 4-MXM ULTIMATE CHAIN
 * (AAA+), 7-MXM CLEAR (A), 1-EXH PUC (PUC).
 */
const SCORES = [
  sdvxScore(5, 'EXH', 9_000_000, 'CLEAR', T0),
  sdvxScore(4, 'MXM', 9_850_000, 'ULTIMATE CHAIN', T0 + 5 * MIN),
  sdvxScore(5, 'EXH', 9_600_000, 'EXCESSIVE CLEAR', T0 + 10 * MIN),
  sdvxScore(7, 'MXM', 8_800_000, 'CLEAR', T0 + 20 * MIN),
  sdvxScore(1, 'EXH', 10_000_000, 'PERFECT ULTIMATE CHAIN', T0),
];

/** The player's distributions on Level 17+ (10 charts): their PBs on 5-EXH, 4-MXM and 7-MXM. */
const LEVEL_17_UP_LAMPS = { ...LAMPS0, CLEAR: 1, 'EXCESSIVE CLEAR': 1, 'ULTIMATE CHAIN': 1 };
const LEVEL_17_UP_GRADES = { ...GRADES0, A: 1, 'AA+': 1, 'AAA+': 1 };
/** On Level 20 (3 charts): 4-MXM and 7-MXM. */
const LEVEL_20_LAMPS = { ...LAMPS0, CLEAR: 1, 'ULTIMATE CHAIN': 1 };
const LEVEL_20_GRADES = { ...GRADES0, A: 1, 'AAA+': 1 };

interface Folder {
  folderID: string;
  title: string;
}
interface SpecStats {
  folderID: string;
  chartCount: number;
  lamps: Record<string, number>;
  grades: Record<string, number>;
}
interface Score {
  chartID: string;
  timeAchieved: number | null;
  scoreData: { lamp: string; score: number };
}

describe('UGPT folders and tables, chart folders, history (both profiles)', () => {
  let t: TestApp;
  /** A second server on the same database, under API_PROFILE=tachi. */
  let tachi: TestApp;
  let player: SignedUpUser;
  let other: SignedUpUser;
  let newcomer: SignedUpUser;

  const ugpt = (user: SignedUpUser | number, rest: string) => `/api/v1/users/${typeof user === 'number' ? user : user.user.id}/games/sdvx/Single${rest}`;

  beforeAll(async () => {
    t = await createTestApp();
    await loadScoreFixtures(t);
    const report = await new SeedLoader(t.database).load(new SeedSource(path.resolve('test/fixtures/ugpt-folders')), { games: ['sdvx', 'iidx'] });
    expect(report.rejected).toEqual([]);
    expect(report.warnings).toEqual([]);
    player = await signUp(t);
    await importSdvx(player.agent, SCORES);
    other = await signUp(t);
    await importSdvx(other.agent, [sdvxScore(2, 'EXH', 9_000_000, 'CLEAR', T0)]);
    newcomer = await signUp(t);
    tachi = await createTestApp({ API_PROFILE: 'tachi' }, { shareDatabaseOf: t });
  }, 120_000);
  afterAll(async () => {
    await tachi?.close();
    await t?.close();
  });

  describe('GET /games/:game/:playtype/tables', () => {
    it('spec: {tables}, active ones unless showInactive', async () => {
      let res = await t.http().get('/api/v1/games/sdvx/Single/tables');
      expect(res.status).toBe(200);
      expect((res.body as { tables: { tableID: string }[] }).tables.map((x) => x.tableID)).toEqual(['sdvx-Single-levels']);
      res = await t.http().get('/api/v1/games/sdvx/Single/tables?showInactive');
      expect((res.body as { tables: { tableID: string }[] }).tables.map((x) => x.tableID)).toEqual(['sdvx-Single-levels', 'sdvx-Single-old']);
    });

    it("tachi: the bare array of Tachi's TableDocuments", async () => {
      const tables = ok<Record<string, unknown>[]>(await tachi.http().get('/api/v1/games/sdvx/Single/tables'));
      expect(tables).toEqual([
        {
          tableID: 'sdvx-Single-levels',
          title: 'Levels',
          game: 'sdvx',
          playtype: 'Single',
          description: 'Levels.',
          folders: [LEVEL[19], LEVEL_20, LEVEL_17_UP],
          inactive: false,
          default: true,
        },
      ]);
      const all = ok<{ tableID: string }[]>(await tachi.http().get('/api/v1/games/sdvx/Single/tables?showInactive'));
      expect(all.map((x) => x.tableID)).toEqual(['sdvx-Single-levels', 'sdvx-Single-old']);
    });
  });

  describe('GET /games/:game/:playtype/charts/:chartID/folders', () => {
    it('the active folders holding the chart, by title; inactive ones with `inactive`', async () => {
      const chart = fixtureChartID(7, 'EXH');
      let res = await t.http().get(`/api/v1/games/sdvx/Single/charts/${chart}/folders`);
      expect(res.status).toBe(200);
      expect((res.body as Folder[]).map((f) => f.folderID)).toEqual([LEVEL_17_UP, LEVEL[18]]);
      expect((res.body as Folder[])[1]).toMatchObject({ name: 'Level 18', title: 'Level 18' });
      res = await t.http().get(`/api/v1/games/sdvx/Single/charts/${chart}/folders?inactive`);
      expect((res.body as Folder[]).map((f) => f.title)).toEqual(['Level 17+ (showcase)', 'Level 18', 'Level 18 (old showcase)']);
      const folders = ok<Record<string, unknown>[]>(await tachi.http().get(`/api/v1/games/sdvx/Single/charts/${chart}/folders`));
      expect(folders.map((f) => f.folderID)).toEqual([LEVEL_17_UP, LEVEL[18]]);
      expect(folders[0]).not.toHaveProperty('name');
    });

    it('404 for a chart of no GPT or of another', async () => {
      expect((await t.http().get('/api/v1/games/sdvx/Single/charts/nope/folders')).status).toBe(404);
      expect((await t.http().get(`/api/v1/games/iidx/SP/charts/${fixtureChartID(7, 'EXH')}/folders`)).status).toBe(404);
      failed(await tachi.http().get('/api/v1/games/sdvx/Single/charts/nope/folders'), 404);
    });
  });

  describe('GET UGPT/folders?search', () => {
    it("spec: the matching active folders with the player's lamp and grade counts on each", async () => {
      const res = await t.http().get(ugpt(player, '/folders?search=showcase'));
      expect(res.status).toBe(200);
      const body = res.body as { folders: Folder[]; stats: SpecStats[] };
      expect(body.folders.map((f) => f.folderID).sort()).toEqual([LEVEL_17_UP, LEVEL_20].sort());
      expect(body.stats.map((s) => s.folderID)).toEqual(body.folders.map((f) => f.folderID));
      expect(body.stats.find((s) => s.folderID === LEVEL_17_UP)).toEqual({
        folderID: LEVEL_17_UP,
        chartCount: 10,
        lamps: LEVEL_17_UP_LAMPS,
        grades: LEVEL_17_UP_GRADES,
      });
      expect(body.stats.find((s) => s.folderID === LEVEL_20)).toEqual({ folderID: LEVEL_20, chartCount: 3, lamps: LEVEL_20_LAMPS, grades: LEVEL_20_GRADES });
      const withInactive = (await t.http().get(ugpt(player, '/folders?search=showcase&inactive'))).body as { folders: Folder[] };
      expect(withInactive.folders.map((f) => f.folderID)).toContain(OLD_SHOWCASE);
    });

    it("tachi: Tachi's FolderStatsInfo ({folderID, chartCount, stats: {lamp, grade}})", async () => {
      const body = ok<{ folders: Record<string, unknown>[]; stats: unknown[] }>(await tachi.http().get(ugpt(player, '/folders?search=showcase')));
      expect(body.stats).toContainEqual({ folderID: LEVEL_20, chartCount: 3, stats: { lamp: LEVEL_20_LAMPS, grade: LEVEL_20_GRADES } });
      expect(body.folders[0]).not.toHaveProperty('name');
    });

    it("an empty or blank search finds no folders (the client's folder search page opens with search=), in both profiles", async () => {
      for (const search of ['', '%20%20']) {
        const res = await t.http().get(ugpt(player, `/folders?search=${search}`));
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ folders: [], stats: [] });
        expect(ok(await tachi.http().get(ugpt(player, `/folders?search=${search}`)))).toEqual({ folders: [], stats: [] });
      }
    });

    it('400 without a search or with one over 200 characters, 404 for a player who has not played the GPT', async () => {
      expect((await t.http().get(ugpt(player, '/folders'))).status).toBe(400);
      expect((await t.http().get(ugpt(player, `/folders?search=${'a'.repeat(201)}`))).status).toBe(400);
      expect((await t.http().get(ugpt(newcomer, '/folders?search=showcase'))).status).toBe(404);
      failed(await tachi.http().get(ugpt(player, '/folders')), 400);
    });
  });

  describe('GET UGPT/folders/:folderID', () => {
    it("every chart of the folder with its song, the player's PBs on them and the distributions", async () => {
      const res = await t.http().get(ugpt(player, `/folders/${LEVEL_20}`));
      expect(res.status).toBe(200);
      const body = res.body as { songs: { id: number }[]; charts: { chartID: string }[]; pbs: { chartID: string }[]; folder: Folder; stats: SpecStats };
      expect(body.charts.map((c) => c.chartID)).toEqual([fixtureChartID(4, 'MXM'), fixtureChartID(5, 'MXM'), fixtureChartID(7, 'MXM')]);
      expect(body.songs.map((s) => s.id)).toEqual([4, 5, 7]);
      expect(body.pbs.map((p) => p.chartID)).toEqual([fixtureChartID(4, 'MXM'), fixtureChartID(7, 'MXM')]);
      expect(body.folder.folderID).toBe(LEVEL_20);
      expect(body.stats).toEqual({ folderID: LEVEL_20, chartCount: 3, lamps: LEVEL_20_LAMPS, grades: LEVEL_20_GRADES });
    });

    it("another player's view has their own PBs (none here)", async () => {
      const body = (await t.http().get(ugpt(other, `/folders/${LEVEL_20}`))).body as { pbs: unknown[]; stats: SpecStats };
      expect(body.pbs).toEqual([]);
      expect(body.stats).toEqual({ folderID: LEVEL_20, chartCount: 3, lamps: LAMPS0, grades: GRADES0 });
    });

    it('tachi: {songs, charts, pbs, folder} in Tachi shapes (and the stats)', async () => {
      const body = ok<{ pbs: Record<string, unknown>[]; folder: Record<string, unknown>; stats: unknown }>(
        await tachi.http().get(ugpt(player, `/folders/${LEVEL_20}`)),
      );
      expect(body.pbs).toHaveLength(2);
      expect(body.pbs[0]).toHaveProperty('composedFrom');
      expect(body.folder).not.toHaveProperty('name');
      expect(body.stats).toEqual({ folderID: LEVEL_20, chartCount: 3, stats: { lamp: LEVEL_20_LAMPS, grade: LEVEL_20_GRADES } });
    });

    it('404 for an unknown folder or one of another GPT', async () => {
      expect((await t.http().get(ugpt(player, '/folders/Fnope'))).status).toBe(404);
      expect((await t.http().get(ugpt(player, `/folders/${IIDX_FOLDER}`))).status).toBe(404);
      failed(await tachi.http().get(ugpt(player, '/folders/Fnope')), 404);
    });
  });

  describe('GET UGPT/folders/:folderID/timeline', () => {
    const timeline = async (query: string) => {
      const res = await t.http().get(ugpt(player, `/folders/${LEVEL_17_UP}/timeline?${query}`));
      expect(res.status).toBe(200);
      return res.body as { scores: Score[]; charts: { chartID: string }[]; songs: { id: number }[]; folder: Folder };
    };
    const seen = (scores: Score[]) => scores.map((s) => [s.chartID, s.timeAchieved, s.scoreData.lamp]);

    it('per chart, the first score reaching the lamp, earliest first', async () => {
      const body = await timeline('criteriaType=lamp&criteriaValue=CLEAR');
      expect(seen(body.scores)).toEqual([
        [fixtureChartID(5, 'EXH'), T0, 'CLEAR'],
        [fixtureChartID(4, 'MXM'), T0 + 5 * MIN, 'ULTIMATE CHAIN'],
        [fixtureChartID(7, 'MXM'), T0 + 20 * MIN, 'CLEAR'],
      ]);
      expect(body.charts.map((c) => c.chartID).sort()).toEqual([fixtureChartID(5, 'EXH'), fixtureChartID(4, 'MXM'), fixtureChartID(7, 'MXM')].sort());
      expect(body.songs.map((s) => s.id)).toEqual([5, 4, 7]);
      expect(body.folder.folderID).toBe(LEVEL_17_UP);
    });

    it('a higher lamp picks the later score; a lamp by index is the same lamp', async () => {
      const expected = [
        [fixtureChartID(4, 'MXM'), T0 + 5 * MIN, 'ULTIMATE CHAIN'],
        [fixtureChartID(5, 'EXH'), T0 + 10 * MIN, 'EXCESSIVE CLEAR'],
      ];
      expect(seen((await timeline('criteriaType=lamp&criteriaValue=EXCESSIVE%20CLEAR')).scores)).toEqual(expected);
      expect(seen((await timeline('criteriaType=lamp&criteriaValue=2')).scores)).toEqual(expected);
    });

    it('grades: AA+ reached on 4-MXM (AAA+) then 5-EXH (the 9,600,000); PUC on none', async () => {
      expect(seen((await timeline('criteriaType=grade&criteriaValue=AA%2B')).scores)).toEqual([
        [fixtureChartID(4, 'MXM'), T0 + 5 * MIN, 'ULTIMATE CHAIN'],
        [fixtureChartID(5, 'EXH'), T0 + 10 * MIN, 'EXCESSIVE CLEAR'],
      ]);
      const none = await timeline('criteriaType=grade&criteriaValue=PUC');
      expect([none.scores, none.charts, none.songs]).toEqual([[], [], []]);
    });

    it('tachi: Tachi shapes', async () => {
      const body = ok<{ scores: Record<string, unknown>[] }>(
        await tachi.http().get(ugpt(player, `/folders/${LEVEL_17_UP}/timeline?criteriaType=lamp&criteriaValue=CLEAR`)),
      );
      expect(body.scores).toHaveLength(3);
      expect(body.scores[0]).toHaveProperty('highlight');
    });

    it('400 for an unknown criteria type or value; 404 for an unknown folder', async () => {
      for (const query of [
        'criteriaType=score&criteriaValue=1',
        'criteriaType=lamp&criteriaValue=GOLD',
        'criteriaType=lamp&criteriaValue=6',
        'criteriaType=grade&criteriaValue=-1',
        'criteriaType=lamp',
      ]) {
        const res = await t.http().get(ugpt(player, `/folders/${LEVEL_17_UP}/timeline?${query}`));
        expect([query, res.status]).toEqual([query, 400]);
      }
      const res = await t.http().get(ugpt(player, `/folders/${LEVEL_17_UP}/timeline?criteriaType=lamp&criteriaValue=GOLD`));
      expect((res.body as { message: string }).message).toContain('PERFECT ULTIMATE CHAIN');
      expect((await t.http().get(ugpt(player, '/folders/Fnope/timeline?criteriaType=lamp&criteriaValue=CLEAR'))).status).toBe(404);
      failed(await tachi.http().get(ugpt(player, `/folders/${LEVEL_17_UP}/timeline?criteriaType=lamp&criteriaValue=GOLD`)), 400);
    });
  });

  describe('POST UGPT/folders/:folderID/viewed and GET UGPT/folders/recent', () => {
    const view = (u: SignedUpUser, folderID: string) => u.agent.post(ugpt(u, `/folders/${folderID}/viewed`));
    const pause = () => new Promise((resolve) => setTimeout(resolve, 3));

    it('records views; recent lists the latest 6, newest first, with the folders and stats', async () => {
      const order = [LEVEL[14], LEVEL[15], LEVEL[16], LEVEL[17], LEVEL[18], LEVEL[19], LEVEL_20];
      for (const folderID of order) {
        const res = await view(player, folderID);
        expect([res.status, res.body]).toEqual([200, {}]);
        await pause();
      }
      let res = await t.http().get(ugpt(player, '/folders/recent'));
      expect(res.status).toBe(200);
      let body = res.body as { views: { folderID: string; userID: number; lastViewed: number }[]; folders: Folder[]; stats: SpecStats[] };
      const newestFirst = [...order].reverse().slice(0, 6);
      expect(body.views.map((v) => v.folderID)).toEqual(newestFirst);
      expect(body.views[0]).toEqual({ userID: player.user.id, game: 'sdvx', playtype: 'Single', folderID: LEVEL_20, lastViewed: expect.any(Number) });
      expect(body.folders.map((f) => f.folderID)).toEqual(newestFirst);
      expect(body.stats.find((s) => s.folderID === LEVEL_20)).toEqual({ folderID: LEVEL_20, chartCount: 3, lamps: LEVEL_20_LAMPS, grades: LEVEL_20_GRADES });

      // viewing one again moves it to the front; the oldest kept one (Level 15) drops out
      await view(player, LEVEL[14]);
      res = await t.http().get(ugpt(player, '/folders/recent'));
      body = res.body as typeof body;
      expect(body.views.map((v) => v.folderID)).toEqual([LEVEL[14], LEVEL_20, LEVEL[19], LEVEL[18], LEVEL[17], LEVEL[16]]);

      const tachiBody = ok<{ views: unknown[]; stats: unknown[] }>(await tachi.http().get(ugpt(player, '/folders/recent')));
      expect(tachiBody.views).toHaveLength(6);
      expect(tachiBody.stats).toContainEqual({ folderID: LEVEL_20, chartCount: 3, stats: { lamp: LEVEL_20_LAMPS, grade: LEVEL_20_GRADES } });
    });

    it('recent is empty for a player who viewed nothing', async () => {
      expect((await t.http().get(ugpt(other, '/folders/recent'))).body).toEqual({ views: [], folders: [], stats: [] });
    });

    it('401 for a guest, 403 for another user or an API token, 404 for a folder of no or another GPT', async () => {
      expect((await t.http().post(ugpt(player, `/folders/${LEVEL_20}/viewed`))).status).toBe(401);
      expect((await other.agent.post(ugpt(player, `/folders/${LEVEL_20}/viewed`))).status).toBe(403);
      const token = await issueToken(player, ['customise_profile']);
      expect(
        (
          await t
            .http()
            .post(ugpt(player, `/folders/${LEVEL_20}/viewed`))
            .set(bearer(token))
        ).status,
      ).toBe(403);
      expect((await view(player, 'Fnope')).status).toBe(404);
      expect((await view(player, IIDX_FOLDER)).status).toBe(404);
      failed(await tachi.http().post(ugpt(player, `/folders/${LEVEL_20}/viewed`)), 401);
    });

    it('recent-summary lists the folders viewed in the last 16 hours (latest 4, newest first) with the stats, in both profiles', async () => {
      for (const folderID of [LEVEL[16], LEVEL[17], LEVEL_17_UP, LEVEL[18], LEVEL_20]) {
        expect((await view(player, folderID)).status).toBe(200);
        await pause();
      }
      const spec = (await t.http().get(`/api/v1/users/${player.user.id}/recent-summary`).expect(200)).body as { folders: Folder[]; folderStats: SpecStats[] };
      expect(spec.folders.map((f) => f.folderID)).toEqual([LEVEL_20, LEVEL[18], LEVEL_17_UP, LEVEL[17]]);
      expect(spec.folderStats.map((s) => s.folderID)).toEqual([LEVEL_20, LEVEL[18], LEVEL_17_UP, LEVEL[17]]);
      expect(spec.folderStats[0]).toEqual({ folderID: LEVEL_20, chartCount: 3, lamps: LEVEL_20_LAMPS, grades: LEVEL_20_GRADES });
      expect(spec.folderStats[2]).toEqual({ folderID: LEVEL_17_UP, chartCount: 10, lamps: LEVEL_17_UP_LAMPS, grades: LEVEL_17_UP_GRADES });

      const body = ok<{ recentFolders: Folder[]; recentFolderStats: unknown[] }>(await tachi.http().get(`/api/v1/users/${player.user.id}/recent-summary`));
      expect(body.recentFolders.map((f) => f.folderID)).toEqual([LEVEL_20, LEVEL[18], LEVEL_17_UP, LEVEL[17]]);
      expect(body.recentFolderStats[0]).toEqual({ folderID: LEVEL_20, chartCount: 3, stats: { lamp: LEVEL_20_LAMPS, grade: LEVEL_20_GRADES } });
      expect(body.recentFolderStats[2]).toEqual({ folderID: LEVEL_17_UP, chartCount: 10, stats: { lamp: LEVEL_17_UP_LAMPS, grade: LEVEL_17_UP_GRADES } });

      // Someone who viewed nothing: both lists empty.
      expect(ok(await tachi.http().get(`/api/v1/users/${other.user.id}/recent-summary`))).toMatchObject({ recentFolders: [], recentFolderStats: [] });
    });

    it('tachi: {} for the own session', async () => {
      const agent = tachi.agent();
      ok(await agent.post('/api/v1/auth/login').send({ username: player.username, '!password': player.password, captcha: 'x' }));
      expect(ok(await agent.post(ugpt(player, `/folders/${LEVEL[19]}/viewed`)))).toEqual({});
      const body = ok<{ views: { folderID: string }[] }>(await agent.get(ugpt(player, '/folders/recent')));
      expect(body.views[0].folderID).toBe(LEVEL[19]);
    });
  });

  describe('GET UGPT/tables/:tableID', () => {
    it("the table's folders in its order, with the player's distributions", async () => {
      const res = await t.http().get(ugpt(player, '/tables/sdvx-Single-levels'));
      expect(res.status).toBe(200);
      const body = res.body as { folders: Folder[]; stats: SpecStats[]; table: { tableID: string } };
      expect(body.folders.map((f) => f.folderID)).toEqual([LEVEL[19], LEVEL_20, LEVEL_17_UP]);
      expect(body.stats).toEqual([
        { folderID: LEVEL[19], chartCount: 2, lamps: LAMPS0, grades: GRADES0 },
        { folderID: LEVEL_20, chartCount: 3, lamps: LEVEL_20_LAMPS, grades: LEVEL_20_GRADES },
        { folderID: LEVEL_17_UP, chartCount: 10, lamps: LEVEL_17_UP_LAMPS, grades: LEVEL_17_UP_GRADES },
      ]);
      expect(body.table.tableID).toBe('sdvx-Single-levels');
      const tachiBody = ok<{ stats: unknown[]; table: Record<string, unknown> }>(await tachi.http().get(ugpt(player, '/tables/sdvx-Single-levels')));
      expect(tachiBody.stats[0]).toEqual({ folderID: LEVEL[19], chartCount: 2, stats: { lamp: LAMPS0, grade: GRADES0 } });
      expect(tachiBody.table).not.toHaveProperty('name');
    });

    it('404 for an unknown table', async () => {
      expect((await t.http().get(ugpt(player, '/tables/nope'))).status).toBe(404);
      failed(await tachi.http().get(ugpt(player, '/tables/nope')), 404);
    });
  });

  describe('GET UGPT/history', () => {
    it('spec: the stored snapshots only (none yet)', async () => {
      const res = await t.http().get(ugpt(player, '/history'));
      expect([res.status, res.body]).toEqual([200, []]);
    });

    it('tachi: the profile as it is now comes first', async () => {
      const before = Date.now();
      const history = ok<Record<string, unknown>[]>(await tachi.http().get(ugpt(player, '/history')));
      expect(history).toHaveLength(1);
      const [now] = history;
      expect(now).toMatchObject({ userID: player.user.id, game: 'sdvx', playtype: 'Single', playcount: SCORES.length });
      expect(now.timestamp as number).toBeGreaterThanOrEqual(before);
      // two players of the GPT: the player (4 PBs) is rated above `other` (one CLEAR)
      expect(now.rankings).toEqual({ VF6: { ranking: 1, outOf: 2 } });
      expect(Object.keys(now.ratings as object)).toEqual(['VF6']);
    });
  });

  /**
   * A second session a day later (comparing with the first: 5-EXH 9,600,000 EXCESSIVE CLEAR AA+,
   * 4-MXM UC AAA+, 7-MXM 8,800,000 CLEAR A): 5-EXH 9,800,000 ULTIMATE CHAIN (AAA+), a first play
   * of 6-MXM 9,000,000 CLEAR (A+), and 7-MXM 8,500,000 FAILED (B), worse.
   */
  describe('sessions: scoreInfo, calendars and folder raises', () => {
    const T1 = T0 + 24 * 60 * MIN;
    let first: string;
    let second: string;

    beforeAll(async () => {
      await importSdvx(player.agent, [
        sdvxScore(5, 'EXH', 9_800_000, 'ULTIMATE CHAIN', T1),
        sdvxScore(6, 'MXM', 9_000_000, 'CLEAR', T1 + MIN),
        sdvxScore(7, 'MXM', 8_500_000, 'FAILED', T1 + 2 * MIN),
      ]);
      const recent = (await t.http().get(ugpt(player, '/sessions/recent'))).body as { sessionID: string }[];
      [second, first] = recent.map((r) => r.sessionID);
    });

    it("tachi: GET /sessions/:sessionID carries scoreInfo in play order; spec's answer does not", async () => {
      const body = ok<{
        scores: { scoreID: string; chartID: string }[];
        scoreInfo: { scoreID: string; isNewScore: boolean; deltas?: Record<string, number> }[];
      }>(await tachi.http().get(`/api/v1/sessions/${second}`));
      const id = (song: number, diff: 'EXH' | 'MXM') => body.scores.find((x) => x.chartID === fixtureChartID(song, diff))!.scoreID;
      expect(body.scoreInfo).toEqual([
        { scoreID: id(5, 'EXH'), isNewScore: false, deltas: { score: 200_000, percent: expect.closeTo(2, 6), lamp: 2, grade: 2 } },
        { scoreID: id(6, 'MXM'), isNewScore: true },
        { scoreID: id(7, 'MXM'), isNewScore: false, deltas: { score: -300_000, percent: expect.closeTo(-3, 6), lamp: -1, grade: -1 } },
      ]);
      const spec = (await t.http().get(`/api/v1/sessions/${second}`)).body as Record<string, unknown>;
      expect(Object.keys(spec).sort()).toEqual(['charts', 'scores', 'session', 'songs', 'user']);
      // the first session: every chart played for the first time (5-EXH twice within it, both new)
      const firstInfo = ok<{ scoreInfo: { isNewScore: boolean }[] }>(await tachi.http().get(`/api/v1/sessions/${first}`)).scoreInfo;
      expect(firstInfo.map((i) => i.isNewScore)).toEqual(SCORES.map(() => true));
    });

    it('tachi: session lists carry __scoreInfo and sessions/last is {session, scoreInfo}; spec: plain documents', async () => {
      const recent = ok<{ sessionID: string; __scoreInfo: unknown[] }[]>(await tachi.http().get(ugpt(player, '/sessions/recent')));
      expect(recent.map((r) => [r.sessionID, r.__scoreInfo.length])).toEqual([
        [second, 3],
        [first, 5],
      ]);
      const last = ok<{ session: { sessionID: string; scoreIDs: string[] }; scoreInfo: unknown[] }>(await tachi.http().get(ugpt(player, '/sessions/last')));
      expect([last.session.sessionID, last.session.scoreIDs.length, last.scoreInfo.length]).toEqual([second, 3, 3]);
      const specRecent = (await t.http().get(ugpt(player, '/sessions/recent'))).body as Record<string, unknown>[];
      expect(specRecent[0]).not.toHaveProperty('__scoreInfo');
      const specLast = (await t.http().get(ugpt(player, '/sessions/last'))).body as Record<string, unknown>;
      expect([specLast.sessionID, specLast.scores]).toEqual([second, expect.any(Array)]);
    });

    it('calendars: every session, earliest first, per GPT and across games, in each profile’s names', async () => {
      const specEntry = {
        sessionID: first,
        name: expect.any(String),
        desc: null,
        highlighted: false,
        timeStarted: T0,
        timeEnded: T0 + 20 * MIN,
        game: 'sdvx',
        playtype: 'Single',
      };
      let res = await t.http().get(ugpt(player, '/sessions/calendar'));
      expect(res.status).toBe(200);
      expect(res.body).toEqual([specEntry, { ...specEntry, sessionID: second, timeStarted: T1, timeEnded: T1 + 2 * MIN }]);
      res = await t.http().get(`/api/v1/users/${player.user.id}/sessions/calendar`);
      expect((res.body as { sessionID: string }[]).map((e) => e.sessionID)).toEqual([first, second]);
      const { highlighted: _h, ...rest } = specEntry;
      expect(ok<unknown[]>(await tachi.http().get(`/api/v1/users/${player.user.id}/sessions/calendar`))[0]).toEqual({ ...rest, highlight: false });
      expect(ok<unknown[]>(await tachi.http().get(ugpt(player, '/sessions/calendar')))).toHaveLength(2);
      expect((await t.http().get(`/api/v1/users/${newcomer.user.id}/sessions/calendar`)).body).toEqual([]);
      expect((await t.http().get(ugpt(newcomer, '/sessions/calendar'))).status).toBe(404);
      expect((await t.http().get('/api/v1/users/999999/sessions/calendar')).status).toBe(404);
      failed(await tachi.http().get('/api/v1/users/999999/sessions/calendar'), 404);
    });

    it('folder raises: per active folder, each lamp and grade some chart reached for the first time', async () => {
      const res = await t.http().get(`/api/v1/sessions/${second}/folder-raises`);
      expect(res.status).toBe(200);
      const rows = (res.body as { folder: Folder; type: string; value: string; previousCount: number; raisedCharts: string[]; totalCharts: number }[]).map(
        (r) => [r.folder.title, r.type, r.value, r.previousCount, r.raisedCharts, r.totalCharts],
      );
      const c5 = fixtureChartID(5, 'EXH');
      const c6 = fixtureChartID(6, 'MXM');
      expect(rows).toEqual([
        // Level 17 (2-MXM, 5-EXH, 6-EXH): 5-EXH from EXCESSIVE CLEAR AA+ to ULTIMATE CHAIN AAA+
        ['Level 17', 'lamp', 'MAXXIVE CLEAR', 0, [c5], 3],
        ['Level 17', 'lamp', 'ULTIMATE CHAIN', 0, [c5], 3],
        ['Level 17', 'grade', 'AAA', 0, [c5], 3],
        ['Level 17', 'grade', 'AAA+', 0, [c5], 3],
        // Level 17+: before, 5-EXH (EXCESSIVE CLEAR, AA+), 4-MXM (ULTIMATE CHAIN, AAA+), 7-MXM (CLEAR, A); 6-MXM is new (CLEAR, A+)
        ['Level 17+ (showcase)', 'lamp', 'CLEAR', 3, [c6], 10],
        ['Level 17+ (showcase)', 'lamp', 'MAXXIVE CLEAR', 1, [c5], 10],
        ['Level 17+ (showcase)', 'lamp', 'ULTIMATE CHAIN', 1, [c5], 10],
        ['Level 17+ (showcase)', 'grade', 'A', 3, [c6], 10],
        ['Level 17+ (showcase)', 'grade', 'A+', 2, [c6], 10],
        ['Level 17+ (showcase)', 'grade', 'AAA', 1, [c5], 10],
        ['Level 17+ (showcase)', 'grade', 'AAA+', 1, [c5], 10],
        // Level 19 (3-MXM, 6-MXM); Level 20's 7-MXM got worse: nothing there
        ['Level 19', 'lamp', 'CLEAR', 0, [c6], 2],
        ['Level 19', 'grade', 'A', 0, [c6], 2],
        ['Level 19', 'grade', 'A+', 0, [c6], 2],
      ]);
      const tachiRows = ok<{ folder: Record<string, unknown> }[]>(await tachi.http().get(`/api/v1/sessions/${second}/folder-raises`));
      expect(tachiRows).toHaveLength(rows.length);
      expect(tachiRows[0].folder).not.toHaveProperty('name');
      expect((await t.http().get('/api/v1/sessions/nope/folder-raises')).status).toBe(404);
      failed(await tachi.http().get('/api/v1/sessions/nope/folder-raises'), 404);
    });
  });

  it('wiping the game profile forgets its recently viewed folders', async () => {
    expect((await other.agent.post(ugpt(other, `/folders/${LEVEL_20}/viewed`))).status).toBe(200);
    expect(((await t.http().get(ugpt(other, '/folders/recent'))).body as { views: unknown[] }).views).toHaveLength(1);
    expect((await other.agent.delete(ugpt(other, '')).send({ '!password': other.password })).status).toBe(200);
    await importSdvx(other.agent, [sdvxScore(2, 'EXH', 9_000_000, 'CLEAR', T0)]);
    expect((await t.http().get(ugpt(other, '/folders/recent'))).body).toEqual({ views: [], folders: [], stats: [] });
  });
});
