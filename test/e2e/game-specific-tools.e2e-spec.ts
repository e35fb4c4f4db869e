import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import path from 'node:path';
import { SeedLoader } from '../../src/seeds/seed-loader.js';
import { SeedSource } from '../../src/seeds/seed-source.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { uploadFile } from '../support/imports.js';
import { failed, issueTachiToken, ok, polledImport, signUpTachi } from '../support/tachi.js';
import { bearer, issueToken, signUp, type SignedUpUser } from '../support/users.js';

/**
 * The per-game routes of Tachi's web client, in both API profiles, over the catalog of
 * test/fixtures/game-specific: IIDX (the e-amusement CSV fixture's songs, with BPI data on four
 * ANOTHERs), jubeat (one PICK UP song of 'ave', two older ones) and BMS (Sieglinde values, and a
 * bms-7K-sgl-EC table of two folders).
 */
const FIXTURES = path.resolve('test/fixtures/game-specific');
/** 2021-06-01 12:30 UTC: 21:30 in Japan. */
const T = Date.UTC(2021, 5, 1, 12, 30);
const DAY = 24 * 60 * 60 * 1000;

const JUBEAT_CHARTS = {
  pickExt: '6f8ceecc08196286d6361e2e837ac9c8adff44ff',
  oldAExt: 'd6962e74df46c983350fa9baa52a178e7afdf30e',
  oldBExt: '47693919c566ac73c6054a249736832d72890c34',
};
const BMS_CHARTS = {
  sglOne: 'dac4db36393acf4b11956bb997e036125bcb3d67',
  noSgl: '4d2cb89dcab6763eeee3dbc67a30e88ee3bdc214',
  sglThree: 'f54c0b68b0c834c370e1c021e885af155adbb8cf',
  double14K: 'eff53c73bde60e9ccf14390378f5f559a8f19772',
};

const NO_PLAY = '0,0,0,---,NO PLAY,---';
/** The 41-cell header the export writes (e-amusement's, from HEROIC VERSE on). */
const HEADER = [
  'バージョン,タイトル,ジャンル,アーティスト,プレー回数',
  ...['BEGINNER', 'NORMAL', 'HYPER', 'ANOTHER', 'LEGGENDARIA'].map((d) =>
    ['難易度', 'スコア', 'PGreat', 'Great', 'ミスカウント', 'クリアタイプ', 'DJ LEVEL'].map((c) => `${d} ${c}`).join(','),
  ),
  '最終プレー日時',
].join(',');

interface Answer {
  status: number;
  body: unknown;
}

describe.each(['spec', 'tachi'] as const)('game-specific tools (API_PROFILE=%s)', (profile) => {
  let t: TestApp;
  let iidxPlayer: SignedUpUser;
  let jubeatPlayer: SignedUpUser;
  let stranger: SignedUpUser;
  const tachi = profile === 'tachi';

  const body = <T = Record<string, unknown>>(res: Answer, status = 200): T => {
    if (tachi) return ok<T>(res, status);
    expect([res.status, res.body]).toEqual([status, expect.anything()]);
    return res.body as T;
  };
  const error = (res: Answer, status: number): string => {
    if (tachi) return failed(res, status);
    expect([res.status, res.body]).toEqual([status, { statusCode: status, error: expect.any(String), message: expect.any(String) }]);
    return (res.body as { message: string }).message;
  };
  const userSignUp = (): Promise<SignedUpUser> => (tachi ? signUpTachi(t) : signUp(t));
  const importBatch = async (u: SignedUpUser, game: string, playtype: string, scores: object[]) => {
    const res = await u.agent.post('/api/v1/ir/direct-manual/import').send({ meta: { game, playtype, service: 'e2e' }, scores });
    const doc = tachi ? await polledImport<{ errors: unknown[] }>(t, res) : (body(res) as unknown as { errors: unknown[] });
    expect(doc.errors).toEqual([]);
  };
  const iidx = (
    id: number,
    difficulty: string,
    score: number,
    pgreat: number,
    great: number,
    lamp: string,
    bp: number | null,
    timeAchieved: number | null,
  ) => ({
    matchType: 'inGameID',
    identifier: String(27000 + id),
    difficulty,
    score,
    lamp,
    judgements: { pgreat, great },
    optional: bp === null ? {} : { bp },
    timeAchieved,
  });
  const jubeat = (songID: number, difficulty: string, score: number, musicRate: number, lamp: string) => ({
    matchType: 'inGameID',
    identifier: String(80_000_000 + songID),
    difficulty,
    score,
    percent: musicRate,
    lamp,
    timeAchieved: T,
  });

  beforeAll(async () => {
    t = await createTestApp({ API_PROFILE: profile });
    const report = await new SeedLoader(t.database).load(new SeedSource(FIXTURES), { games: ['iidx', 'jubeat', 'bms'] });
    expect(report.rejected).toEqual([]);
    iidxPlayer = await userSignUp();
    jubeatPlayer = await userSignUp();
    stranger = await userSignUp();
    await importBatch(iidxPlayer, 'iidx', 'SP', [
      iidx(1, 'HYPER', 1500, 600, 300, 'HARD CLEAR', 12, T),
      iidx(1, 'ANOTHER', 1800, 850, 100, 'FULL COMBO', null, T + DAY),
      iidx(3, 'NORMAL', 1999, 999, 1, 'EX HARD CLEAR', 0, null),
      iidx(4, 'LEGGENDARIA', 1000, 400, 200, 'FAILED', 99, T),
    ]);
    // Jubility (level × music rate × 12.5 / 99, floored to 0.1; 0 below 700,000):
    // Pick Song EXT (9.0, 99%) 112.5; its HARD EXT (9.0, 90%) 102.2, the same family, so not counted;
    // Old Song A EXT (10.0, 99%) 125.0; Old Song B EXT (8.0) 650,000 points: 0.
    await importBatch(jubeatPlayer, 'jubeat', 'Single', [
      jubeat(1, 'EXT', 950_000, 99, 'CLEAR'),
      jubeat(1, 'HARD EXT', 960_000, 90, 'CLEAR'),
      jubeat(2, 'EXT', 900_000, 99, 'CLEAR'),
      jubeat(3, 'EXT', 650_000, 99, 'FAILED'),
    ]);
  }, 60_000);
  afterAll(async () => {
    await t.close();
  });

  const csvOf = (res: Answer): string => {
    const doc = body<unknown>(res);
    if (tachi) return doc as string;
    expect(Object.keys(doc as object)).toEqual(['csv']);
    return (doc as { csv: string }).csv;
  };

  describe('GET /users/:userID/games/iidx/:playtype/eamusement-csv', () => {
    it("writes the player's PBs as e-amusement's 41-cell CSV, one row per song played", async () => {
      const csv = csvOf(await t.http().get(`/api/v1/users/${iidxPlayer.user.id}/games/iidx/SP/eamusement-csv`));
      expect(csv.split('\n')).toEqual([
        HEADER,
        // Alpha Song: no BEGINNER or LEGGENDARIA; NORMAL unplayed; FULL COMBO is e-amusement's FULLCOMBO CLEAR; the latest PB's time in Japan time.
        `HEROIC VERSE,Alpha Song,TRANCE,Alpha Artist,0,0,${NO_PLAY},4,${NO_PLAY},8,1500,600,300,12,HARD CLEAR,A,11,1800,850,100,---,FULLCOMBO CLEAR,AAA,0,${NO_PLAY},2021-06-02 21:30`,
        // Hello, World keeps its comma (e-amusement escapes nothing); MAX- (99.95%) is AAA; no time, so no last played.
        `HEROIC VERSE,Hello, World,POP,Comma Artist,0,0,${NO_PLAY},4,1999,999,1,0,EX HARD CLEAR,AAA,8,${NO_PLAY},11,${NO_PLAY},0,${NO_PLAY},`,
        `HEROIC VERSE,Delta,HARDCORE,Delta Artist,0,0,${NO_PLAY},0,${NO_PLAY},0,${NO_PLAY},10,${NO_PLAY},12,1000,400,200,99,FAILED,C,2021-06-01 21:30`,
      ]);
    });

    it('is read back by the e-amusement CSV import into the same PBs', async () => {
      const csv = csvOf(await t.http().get(`/api/v1/users/${iidxPlayer.user.id}/games/iidx/SP/eamusement-csv`));
      const reader = await userSignUp();
      const key = tachi ? await issueTachiToken(reader, ['submit_score']) : await issueToken(reader, ['submit_score']);
      const res = await uploadFile(t, key, 'file/eamusement-iidx-csv', csv, { contentType: 'text/csv', filename: 'export.csv', fields: { playtype: 'SP' } });
      const doc = tachi ? await polledImport<{ errors: unknown[]; scoreIDs: string[] }>(t, res) : body<{ errors: unknown[]; scoreIDs: string[] }>(res);
      expect([doc.errors, doc.scoreIDs.length]).toEqual([[], 4]);
      type Pb = { chartID: string; scoreData: { score: number; lamp: string; judgements: object; optional: { bp?: number } } };
      const pbsOf = async (u: SignedUpUser) =>
        body<{ pbs: Pb[] }>(await t.http().get(`/api/v1/users/${u.user.id}/games/iidx/SP/pbs/all`))
          .pbs.map((p) => [p.chartID, p.scoreData.score, p.scoreData.lamp, p.scoreData.judgements, p.scoreData.optional.bp ?? null])
          .sort();
      expect(await pbsOf(reader)).toEqual(await pbsOf(iidxPlayer));
    });

    it('is only the header for a user without PBs on the playtype', async () => {
      expect(csvOf(await t.http().get(`/api/v1/users/${iidxPlayer.user.id}/games/iidx/DP/eamusement-csv`))).toBe(HEADER);
      expect(csvOf(await t.http().get(`/api/v1/users/${stranger.user.id}/games/iidx/SP/eamusement-csv`))).toBe(HEADER);
    });

    it('404s an unknown user or a playtype IIDX does not have', async () => {
      expect(error(await t.http().get('/api/v1/users/99999999/games/iidx/SP/eamusement-csv'), 404)).toMatch(/user 99999999 does not exist/);
      expect(error(await t.http().get(`/api/v1/users/${iidxPlayer.user.id}/games/iidx/9K/eamusement-csv`), 404)).toMatch(/no playtype '9K'.*SP, DP/);
    });
  });

  describe('GET /games/iidx/:playtype/playlists and /playlists/:playlistID', () => {
    it('lists the playlist sets', async () => {
      expect(body(await t.http().get('/api/v1/games/iidx/SP/playlists'))).toEqual([
        { urlName: 'aaa-bpi', playlistName: 'AAA BPIs', description: 'Folders for how much an AAA is worth in BPI.', playtype: null, forSpecificUser: false },
      ]);
    });

    it("builds AAA BPI playlists from the charts' BPI data, without the envelope", async () => {
      // 1000 notes: an AAA is 1778 EX. Gamma ANOTHER: kaiden average 1778, so BPI 0; Twin (DJ One) ANOTHER: world
      // record 1778, so BPI 100 (and its tier marks individual difference); Twin (DJ Two) ANOTHER: below the kaiden
      // average 1900, BPI -15, in no band.
      const res = await t.http().get('/api/v1/games/iidx/SP/playlists/aaa-bpi');
      expect(res.status).toBe(200);
      const playlists = res.body as { name: string; play_style: string; charts: object[] }[];
      expect(playlists.map((p) => p.name)).toEqual([
        'AAA BPI -10~-5',
        'AAA BPI -5~0',
        'AAA BPI 0~5',
        'AAA BPI 5~10',
        'AAA BPI 10~20',
        'AAA BPI 20~30',
        'AAA BPI 30~40',
        'AAA BPI 40~50',
        'AAA BPI 50~60',
        'AAA BPI 60~70',
        'AAA BPI 70~80',
        'AAA BPI 80~90',
        'AAA BPI 90~100',
      ]);
      expect(playlists.every((p) => p.play_style === 'SP')).toBe(true);
      expect(playlists.filter((p) => p.charts.length > 0).map((p) => [p.name, p.charts])).toEqual([
        ['AAA BPI -5~0', [{ entry_id: 27005, difficulty: 'another' }]],
        ['AAA BPI 90~100', [{ entry_id: 27006, difficulty: 'another', bar_style: 'event' }]],
      ]);
      const dp = (await t.http().get('/api/v1/games/iidx/DP/playlists/aaa-bpi')).body as { name: string; charts: object[] }[];
      expect(dp.filter((p) => p.charts.length > 0).map((p) => [p.name, p.charts])).toEqual([['AAA BPI -5~0', [{ entry_id: 27001, difficulty: 'another' }]]]);
    });

    it('per player: aaa-bpi-to-go leaves out the charts the player has an AAA on, without the envelope', async () => {
      const aaaPlayer = await userSignUp();
      // Gamma ANOTHER (27005, 1000 notes): 850 PGREAT + 100 GREAT = 1800 EX, over the AAA line of 1778.
      await importBatch(aaaPlayer, 'iidx', 'SP', [iidx(5, 'ANOTHER', 1800, 850, 100, 'CLEAR', 10, T)]);
      const mine = await t.http().get(`/api/v1/users/${aaaPlayer.user.id}/games/iidx/SP/playlists/aaa-bpi-to-go`);
      expect(mine.status).toBe(200);
      const nonEmpty = (res: { body: unknown }) =>
        (res.body as { name: string; charts: object[] }[]).filter((p) => p.charts.length > 0).map((p) => [p.name, p.charts]);
      expect(nonEmpty(mine)).toEqual([['AAA BPI 90~100', [{ entry_id: 27006, difficulty: 'another', bar_style: 'event' }]]]);
      // A player without that AAA (by username too) still has both.
      const theirs = await t.http().get(`/api/v1/users/${stranger.username}/games/iidx/SP/playlists/aaa-bpi-to-go`);
      expect(nonEmpty(theirs)).toEqual([
        ['AAA BPI -5~0', [{ entry_id: 27005, difficulty: 'another' }]],
        ['AAA BPI 90~100', [{ entry_id: 27006, difficulty: 'another', bar_style: 'event' }]],
      ]);
      const u = aaaPlayer.user.id;
      expect(error(await t.http().get(`/api/v1/users/${u}/games/iidx/SP/playlists/aaa-bpi`), 404)).toMatch(/is not for a specific user/);
      expect(error(await t.http().get(`/api/v1/users/${u}/games/iidx/SP/playlists/nope`), 404)).toMatch(/No such playlist 'nope'.*aaa-bpi-to-go/);
      error(await t.http().get(`/api/v1/users/${u}/games/iidx/9K/playlists/aaa-bpi-to-go`), 404);
      error(await t.http().get('/api/v1/users/no_such_user/games/iidx/SP/playlists/aaa-bpi-to-go'), 404);
    });

    it('404s an unknown playlist set or playtype', async () => {
      expect(error(await t.http().get('/api/v1/games/iidx/SP/playlists/nope'), 404)).toMatch(/No such playlist 'nope'.*aaa-bpi/);
      error(await t.http().get('/api/v1/games/iidx/9K/playlists'), 404);
      error(await t.http().get('/api/v1/games/iidx/9K/playlists/aaa-bpi'), 404);
    });
  });

  describe('GET /users/:userID/games/jubeat/Single/jubility', () => {
    it('answers the PBs counted in the jubility, PICK UP apart, best first, with their songs and charts', async () => {
      type Pb = { chartID: string; calculatedData: { jubility: number } };
      const doc = body<{ pickUp: Pb[]; other: Pb[]; songs: { id: number }[]; charts: { chartID: string }[] }>(
        await t.http().get(`/api/v1/users/${jubeatPlayer.user.id}/games/jubeat/Single/jubility`),
      );
      expect(doc.pickUp.map((p) => [p.chartID, p.calculatedData.jubility])).toEqual([[JUBEAT_CHARTS.pickExt, 112.5]]);
      expect(doc.other.map((p) => [p.chartID, p.calculatedData.jubility])).toEqual([
        [JUBEAT_CHARTS.oldAExt, 125],
        [JUBEAT_CHARTS.oldBExt, 0],
      ]);
      expect(doc.songs.map((s) => s.id)).toEqual([1, 2, 3]);
      expect(doc.charts.map((c) => c.chartID)).toEqual([JUBEAT_CHARTS.pickExt, JUBEAT_CHARTS.oldAExt, JUBEAT_CHARTS.oldBExt]);
      // They are what the profile's jubility adds up: 112.5 + 125 + 0.
      const profileDoc = body<{ gameStats: { ratings: Record<string, number> } }>(
        await t.http().get(`/api/v1/users/${jubeatPlayer.user.id}/games/jubeat/Single`),
      );
      expect(profileDoc.gameStats.ratings.jubility).toBe(237.5);
    });

    it('is empty for a user without jubeat PBs; 404s an unknown user', async () => {
      expect(body(await t.http().get(`/api/v1/users/${stranger.user.id}/games/jubeat/Single/jubility`))).toEqual({
        songs: [],
        charts: [],
        pickUp: [],
        other: [],
      });
      error(await t.http().get('/api/v1/users/no_such_user/games/jubeat/Single/jubility'), 404);
    });
  });

  describe('BMS: custom tables and Sieglinde charts', () => {
    it('lists the custom tables whose seeds’ table is loaded (Sieglinde EC here, not HC; none on 14K)', async () => {
      expect(body(await t.http().get('/api/v1/games/bms/7K/custom-tables'))).toEqual([
        { urlName: 'sieglindeEC', tableName: 'Sieglinde EC', symbol: 'sgl-', description: expect.stringContaining('EASY CLEAR'), forSpecificUser: false },
      ]);
      expect(body(await t.http().get('/api/v1/games/bms/14K/custom-tables'))).toEqual([]);
    });

    it('serves the table as BMS clients read it: the page, header.json and body.json, never enveloped', async () => {
      const base = '/api/v1/games/bms/7K/custom-tables/sieglindeEC';
      const page = await t.http().get(base);
      expect([page.status, page.headers['content-type']]).toEqual([200, 'text/html; charset=utf-8']);
      expect(page.text).toContain(`<meta name="bmstable" content="http://127.0.0.1:3000${base}/header.json">`);
      const header = await t.http().get(`${base}/header.json`);
      expect([header.status, header.body]).toEqual([
        200,
        { name: 'Sieglinde EC', symbol: 'sgl-', data_url: `http://127.0.0.1:3000${base}/body.json`, level_order: ['sgl▽5', 'sgl▽0'] },
      ]);
      const entries = await t.http().get(`${base}/body.json`);
      expect(entries.status).toBe(200);
      expect(entries.body).toEqual([
        { level: 'sgl▽5', md5: expect.stringMatching(/^[0-9a-f]{32}$/), title: 'Sgl One', artist: 'Artist One' },
        { level: 'sgl▽0', md5: expect.stringMatching(/^[0-9a-f]{32}$/), title: 'No Sgl', artist: 'Artist Two' },
      ]);
    });

    it('404s an unknown table, one of another playtype, one whose seeds’ table is not loaded, and an unknown playtype', async () => {
      expect(error(await t.http().get('/api/v1/games/bms/7K/custom-tables/nope/header.json'), 404)).toMatch(/No such table with the ID 'nope'/);
      expect(error(await t.http().get('/api/v1/games/bms/14K/custom-tables/sieglindeEC/body.json'), 404)).toMatch(/is for 7K, not 14K/);
      expect(error(await t.http().get('/api/v1/games/bms/7K/custom-tables/sieglindeHC'), 404)).toMatch(/bms-7K-sgl-HC, which this server has not loaded/);
      error(await t.http().get('/api/v1/games/bms/5K/custom-tables'), 404);
    });

    it('sieglinde-charts: the charts with an EC or HC estimate above 0, with their songs', async () => {
      const doc = body<{ songs: { id: number }[]; charts: { chartID: string }[] }>(await t.http().get('/api/v1/games/bms/7K/sieglinde-charts'));
      expect(doc.charts.map((c) => c.chartID)).toEqual([BMS_CHARTS.sglOne, BMS_CHARTS.sglThree]);
      expect(doc.songs.map((s) => s.id)).toEqual([1, 3]);
      const double = body<{ songs: { id: number }[]; charts: { chartID: string }[] }>(await t.http().get('/api/v1/games/bms/14K/sieglinde-charts'));
      expect([double.charts.map((c) => c.chartID), double.songs.map((s) => s.id)]).toEqual([[BMS_CHARTS.double14K], [4]]);
      error(await t.http().get('/api/v1/games/bms/5K/sieglinde-charts'), 404);
    });
  });

  describe('BMS per player: best-score/:checksum and custom-tables under /users/:userID', () => {
    const SGL_ONE_MD5 = '8428351573dbb1e4b0e817d43ed44741';
    const SGL_ONE_SHA256 = 'b735923a7c244ac158b77c8e13e2455189f192b693596caa550d9cd9c1058a18';
    const NO_SGL_MD5 = '6e8ae950cc4560414f8ffb151de7db14';
    let bmsPlayer: SignedUpUser;
    const url = (userID: number | string, checksum: string, playtype = '7K') => `/api/v1/users/${userID}/games/bms/${playtype}/best-score/${checksum}`;

    beforeAll(async () => {
      bmsPlayer = await userSignUp();
      // Two plays of Sgl One: the better score (1500) without the better lamp; the PB takes both.
      await importBatch(bmsPlayer, 'bms', '7K', [
        { matchType: 'bmsChartHash', identifier: SGL_ONE_MD5, score: 1500, lamp: 'EASY CLEAR', timeAchieved: T },
        { matchType: 'bmsChartHash', identifier: SGL_ONE_SHA256, score: 1200, lamp: 'HARD CLEAR', timeAchieved: T + DAY },
      ]);
    }, 30_000);

    it("answers the player's PB on the chart named by its MD5 or its SHA-256 (either case), with the chart and song", async () => {
      for (const checksum of [SGL_ONE_MD5, SGL_ONE_SHA256, SGL_ONE_SHA256.toUpperCase()]) {
        const doc = body<{ pb: Record<string, unknown>; chart: { chartID: string }; song: { id: number; title: string } }>(
          await t.http().get(url(bmsPlayer.user.id, checksum)),
        );
        expect(doc.pb).toMatchObject({ userID: bmsPlayer.user.id, chartID: BMS_CHARTS.sglOne, game: 'bms', playtype: '7K' });
        expect(doc.pb.scoreData).toMatchObject({ score: 1500, lamp: 'HARD CLEAR' });
        expect([doc.chart.chartID, doc.song.id, doc.song.title]).toEqual([BMS_CHARTS.sglOne, 1, 'Sgl One']);
      }
      // By username too, and to anyone: PBs are public.
      const byName = body<{ pb: { chartID: string } }>(
        await t
          .http()
          .get(url(bmsPlayer.username, SGL_ONE_MD5))
          .set(bearer(tachi ? await issueTachiToken(stranger, []) : await issueToken(stranger, []))),
      );
      expect(byName.pb.chartID).toBe(BMS_CHARTS.sglOne);
    });

    it('400s a checksum that is neither an MD5 nor a SHA-256', async () => {
      expect(error(await t.http().get(url(bmsPlayer.user.id, 'not-a-hash')), 400)).toMatch(/MD5 \(32 hex digits\) or SHA-256 \(64 hex digits\)/);
      error(await t.http().get(url(bmsPlayer.user.id, 'g'.repeat(32))), 400);
    });

    it('404s no such chart, a chart the player has not played, the chart asked on the wrong playtype, an unknown user or playtype', async () => {
      expect(error(await t.http().get(url(bmsPlayer.user.id, 'f'.repeat(64))), 404)).toMatch(/No 7K BMS chart has the checksum/);
      expect(error(await t.http().get(url(bmsPlayer.user.id, NO_SGL_MD5)), 404)).toMatch(/has not played/);
      expect(error(await t.http().get(url(stranger.user.id, SGL_ONE_MD5)), 404)).toMatch(/has not played/);
      error(await t.http().get(url(bmsPlayer.user.id, SGL_ONE_MD5, '14K')), 404);
      error(await t.http().get(url(bmsPlayer.user.id, SGL_ONE_MD5, '5K')), 404);
      error(await t.http().get(url('no_such_user', SGL_ONE_MD5)), 404);
    });
    it("serves the player's copy of a custom table: URLs under their route, their lamp on each chart they played, never enveloped", async () => {
      const base = `/api/v1/users/${bmsPlayer.user.id}/games/bms/7K/custom-tables/sieglindeEC`;
      const page = await t.http().get(base);
      expect([page.status, page.headers['content-type']]).toEqual([200, 'text/html; charset=utf-8']);
      expect(page.text).toContain(`<meta name="bmstable" content="http://127.0.0.1:3000${base}/header.json">`);
      const header = await t.http().get(`${base}/header.json`);
      expect([header.status, header.body]).toEqual([
        200,
        { name: 'Sieglinde EC', symbol: 'sgl-', data_url: `http://127.0.0.1:3000${base}/body.json`, level_order: ['sgl▽5', 'sgl▽0'] },
      ]);
      const entries = await t.http().get(`${base}/body.json`);
      expect([entries.status, entries.body]).toEqual([
        200,
        [
          { level: 'sgl▽5', md5: SGL_ONE_MD5, title: 'Sgl One', artist: 'Artist One', lamp: 'HARD CLEAR' },
          { level: 'sgl▽0', md5: NO_SGL_MD5, title: 'No Sgl', artist: 'Artist Two' },
        ],
      ]);
      // Another player's copy carries only their own lamps (none here), and by username too.
      const theirs = await t.http().get(`/api/v1/users/${stranger.username}/games/bms/7K/custom-tables/sieglindeEC/body.json`);
      expect((theirs.body as object[]).map((e) => Object.keys(e).includes('lamp'))).toEqual([false, false]);
    });

    it("404s the player's copy of an unknown table, one of another playtype or not loaded, an unknown user or playtype", async () => {
      const u = bmsPlayer.user.id;
      expect(error(await t.http().get(`/api/v1/users/${u}/games/bms/7K/custom-tables/nope/body.json`), 404)).toMatch(/No such table with the ID 'nope'/);
      expect(error(await t.http().get(`/api/v1/users/${u}/games/bms/14K/custom-tables/sieglindeEC/header.json`), 404)).toMatch(/is for 7K, not 14K/);
      expect(error(await t.http().get(`/api/v1/users/${u}/games/bms/7K/custom-tables/sieglindeHC`), 404)).toMatch(/has not loaded/);
      error(await t.http().get('/api/v1/users/no_such_user/games/bms/7K/custom-tables/sieglindeEC/body.json'), 404);
      error(await t.http().get(`/api/v1/users/${u}/games/bms/5K/custom-tables/sieglindeEC/header.json`), 404);
    });
  });

  it('token permissions do not matter: every route here is public', async () => {
    const key = tachi ? await issueTachiToken(stranger, ['submit_score']) : await issueToken(stranger, ['submit_score']);
    body(await t.http().get(`/api/v1/users/${iidxPlayer.user.id}/games/iidx/SP/eamusement-csv`).set(bearer(key)));
    body(await t.http().get(`/api/v1/users/${jubeatPlayer.user.id}/games/jubeat/Single/jubility`).set(bearer(key)));
  });
});
