import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ImportsRepository } from '../../src/repositories/imports.repository.js';
import { SeedLoader } from '../../src/seeds/seed-loader.js';
import { SeedSource } from '../../src/seeds/seed-source.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { loadFixtureCatalog, PIPELINE_FIXTURES, uploadFile } from '../support/imports.js';
import { quickPlayer, type QuickPlayer } from '../support/leaderboard-fixtures.js';
import { failed, ok, polledImport } from '../support/tachi.js';
import { bearer } from '../support/users.js';

type Doc = Record<string, unknown>;
interface Answer {
  status: number;
  body: unknown;
}

const T0 = Date.UTC(2026, 10, 1, 12);
const DAY = 24 * 60 * 60 * 1000;

interface FixtureChart {
  chartID: string;
  songID: number;
  playtype: string;
  difficulty: string;
  isPrimary: boolean;
  data: Record<string, unknown>;
}
const fixtureCharts = (game: string): FixtureChart[] =>
  JSON.parse(fs.readFileSync(path.join(PIPELINE_FIXTURES, 'catalog', `charts-${game}.json`), 'utf8')) as FixtureChart[];
const chartOf = (game: string, songID: number, playtype: string, difficulty: string) =>
  fixtureCharts(game).find((c) => c.songID === songID && c.playtype === playtype && c.difficulty === difficulty && c.isPrimary)!;

/** sdvx "Pipeline Anthem" (song 1, in-game id 1001, alternate title "Paipurain Ansemu"): the chart everyone plays here. */
const ANTHEM_MXM = chartOf('sdvx', 1, 'Single', 'MXM');
const ANTHEM_EXH = chartOf('sdvx', 1, 'Single', 'EXH');
const BMS_7K = chartOf('bms', 1, '7K', 'CHART');
const BMS_14K = chartOf('bms', 2, '14K', 'CHART');
const USC_CONTROLLER = chartOf('usc', 1, 'Controller', 'EXH');
const USC_KEYBOARD = chartOf('usc', 1, 'Keyboard', 'EXH');
const BMS_MD5 = BMS_7K.data.hashMD5 as string;
const USC_SHA1 = USC_CONTROLLER.data.hashSHA1 as string;

const mxm = (score: number, timeAchieved: number | null) => ({
  score,
  lamp: 'CLEAR',
  matchType: 'sdvxInGameID',
  identifier: '1001',
  difficulty: 'MXM',
  timeAchieved,
});
const exh = (score: number, timeAchieved: number | null) => ({
  score,
  lamp: 'CLEAR',
  matchType: 'sdvxInGameID',
  identifier: '1001',
  difficulty: 'EXH',
  timeAchieved,
});

describe.each(['spec', 'tachi'] as const)('search, players, chart pages and recent imports (API_PROFILE=%s)', (profile) => {
  let t: TestApp;
  /** sp1..sp12 played Anthem MXM, sp1 best (10,000,000 − 10,000 × (i − 1)); sp1 also played EXH. */
  const sp: QuickPlayer[] = [];
  /** Has a name like the others but no sdvx profile. */
  let sp1x: QuickPlayer;
  const api = (p: string) => `/api/v1${p}`;
  const ugpt = (p: QuickPlayer | number, rest: string) => api(`/users/${typeof p === 'number' ? p : p.id}/games/sdvx/Single${rest}`);

  /** The answer's document: the body itself (spec) or the envelope's body (tachi). */
  function read<T = Doc>(res: Answer, status = 200): T {
    if (profile === 'tachi') return ok<T>(res, status);
    expect(res.status).toBe(status);
    return res.body as T;
  }

  /** An error answer of this status in the profile's shape; its message. */
  function refused(res: Answer, status: number): string {
    if (profile === 'tachi') return failed(res, status);
    expect([res.status, res.body]).toEqual([status, { statusCode: status, error: expect.any(String), message: expect.any(String) }]);
    return (res.body as { message: string }).message;
  }

  /** A direct-manual import of sdvx scores, as the profile answers it: the ImportDocument (polled under tachi). */
  async function importSdvx(p: QuickPlayer, scores: object[], intent = false): Promise<Doc> {
    const res = await t
      .http()
      .post(api('/ir/direct-manual/import'))
      .set(bearer(p.token))
      .set('X-User-Intent', String(intent))
      .send({ meta: { game: 'sdvx', playtype: 'Single', service: 'e2e' }, scores });
    const doc = profile === 'tachi' ? await polledImport<Doc>(t, res) : read<Doc>(res);
    expect(doc.errors).toEqual([]);
    return doc;
  }

  beforeAll(async () => {
    t = await createTestApp(profile === 'tachi' ? { API_PROFILE: 'tachi' } : {});
    await loadFixtureCatalog(t.database, 'catalog', ['bms', 'usc', 'sdvx']);
    await new SeedLoader(t.database).load(new SeedSource(path.resolve('test/fixtures/seeds/clean')), { games: ['chunithm'] });
    for (let i = 1; i <= 12; i++) sp.push(await quickPlayer(t, `sp${i}`, ['submit_score']));
    sp1x = await quickPlayer(t, 'sp1x', ['submit_score']);
    for (let i = 1; i <= 12; i++) await importSdvx(sp[i - 1], [mxm(10_000_000 - 10_000 * (i - 1), T0 + i * 60_000)]);
    await importSdvx(sp[0], [exh(9_000_000, T0)]);
  }, 120_000);
  afterAll(async () => {
    await t.close();
  });

  describe('GET /games/:game/:playtype/players', () => {
    it('players of the GPT whose name contains the text: the exact name first, then by user id; others are left out', async () => {
      const users = read<Doc[]>(await t.http().get(api('/games/sdvx/Single/players?search=SP1')));
      // sp1x matches but has no sdvx profile.
      expect(users.map((u) => u.username)).toEqual(['sp1', 'sp10', 'sp11', 'sp12']);
      expect(users[0]).toMatchObject({ id: sp[0].id, username: 'sp1' });
      expect('clan' in users[0]).toBe(profile === 'spec');
      expect(read<Doc[]>(await t.http().get(api('/games/bms/7K/players?search=sp')))).toEqual([]);
    });

    it('400 without a search, with a blank one or an unknown parameter; 404 for an unknown game or playtype', async () => {
      refused(await t.http().get(api('/games/sdvx/Single/players')), 400);
      refused(await t.http().get(api('/games/sdvx/Single/players?search=%20')), 400);
      refused(await t.http().get(api('/games/sdvx/Single/players?search=sp&other=1')), 400);
      refused(await t.http().get(api('/games/nope/Single/players?search=sp')), 404);
      refused(await t.http().get(api('/games/sdvx/Double/players?search=sp')), 404);
    });
  });

  describe('GET /games/:game/:playtype/charts/resolve', () => {
    const resolve = (gpt: string, query: Record<string, string>) =>
      t
        .http()
        .get(api(`/games/${gpt}/charts/resolve`))
        .query(query);

    it('finds the chart a batch-manual score naming it so would be imported on, with its song', async () => {
      const byID = read<{ song: Doc; chart: Doc }>(await resolve('sdvx/Single', { matchType: 'sdvxInGameID', identifier: '1001', difficulty: 'MXM' }));
      expect(byID.chart).toMatchObject({ chartID: ANTHEM_MXM.chartID, songID: 1, difficulty: 'MXM' });
      expect(byID.song).toMatchObject({ id: 1, title: 'Pipeline Anthem' });
      // An alternate title in another case; of the song's two EXH charts, the primary one.
      const byTitle = read<{ chart: Doc }>(await resolve('sdvx/Single', { matchType: 'songTitle', identifier: 'PAIPURAIN ansemu', difficulty: 'EXH' }));
      expect(byTitle.chart.chartID).toBe(ANTHEM_EXH.chartID);
      const byHash = read<{ chart: Doc }>(await resolve('bms/7K', { matchType: 'bmsChartHash', identifier: BMS_MD5.toUpperCase() }));
      expect(byHash.chart.chartID).toBe(BMS_7K.chartID);
    });

    it('404 when no chart is named so', async () => {
      expect(refused(await resolve('sdvx/Single', { matchType: 'sdvxInGameID', identifier: '9999', difficulty: 'MXM' }), 404)).toMatch(/9999/);
      expect(refused(await resolve('sdvx/Single', { matchType: 'songTitle', identifier: 'No Such Song', difficulty: 'MXM' }), 404)).toMatch(/No Such Song/);
      refused(await resolve('bms/7K', { matchType: 'bmsChartHash', identifier: 'f'.repeat(32) }), 404);
    });

    it('400 for what batch-manual would refuse: an unknown or unsupported matchType, an identifier of the wrong shape, a missing or unknown difficulty, another playtype’s chart', async () => {
      expect(refused(await resolve('sdvx/Single', { matchType: 'nope', identifier: '1001', difficulty: 'MXM' }), 400)).toMatch(
        /matchType 'nope' is not supported for sdvx Single/,
      );
      expect(refused(await resolve('sdvx/Single', { matchType: 'bmsChartHash', identifier: BMS_MD5 }), 400)).toMatch(/not supported for sdvx Single/);
      expect(refused(await resolve('sdvx/Single', { matchType: 'sdvxInGameID', identifier: 'abc', difficulty: 'MXM' }), 400)).toMatch(/identifier 'abc'/);
      expect(refused(await resolve('sdvx/Single', { matchType: 'sdvxInGameID', identifier: '1001' }), 400)).toMatch(/difficulty is required/);
      expect(refused(await resolve('sdvx/Single', { matchType: 'sdvxInGameID', identifier: '1001', difficulty: 'XYZ' }), 400)).toMatch(
        /Invalid difficulty 'XYZ'/,
      );
      expect(refused(await resolve('bms/7K', { matchType: 'bmsChartHash', identifier: BMS_14K.data.hashMD5 as string }), 400)).toMatch(/14K chart, not 7K/);
      refused(await resolve('sdvx/Single', { matchType: 'sdvxInGameID', difficulty: 'MXM' }), 400);
      refused(await resolve('sdvx/Single', { identifier: '1001', difficulty: 'MXM' }), 400);
      refused(await resolve('sdvx/Single', { matchType: 'sdvxInGameID', identifier: '1001', difficulty: 'MXM', other: '1' }), 400);
    });
  });

  describe('GET UGPT/pbs/:chartID/leaderboard-adjacent', () => {
    const adjacent = (p: QuickPlayer, chartID: string) => t.http().get(ugpt(p, `/pbs/${chartID}/leaderboard-adjacent`));

    it('the player’s PB and the 5 PBs ranked just above (nearest first) and just below, with their owners', async () => {
      const body = read<{ pb: Doc; chart: Doc; adjacentAbove: Doc[]; adjacentBelow: Doc[]; users: Doc[] }>(await adjacent(sp[6], ANTHEM_MXM.chartID));
      expect(body.pb).toMatchObject({ userID: sp[6].id, chartID: ANTHEM_MXM.chartID, rankingData: expect.objectContaining({ rank: 7, outOf: 12 }) });
      expect(body.chart).toMatchObject({ chartID: ANTHEM_MXM.chartID });
      expect(body.adjacentAbove.map((p) => p.userID)).toEqual([6, 5, 4, 3, 2].map((i) => sp[i - 1].id));
      expect(body.adjacentAbove.map((p) => (p.rankingData as Doc).rank)).toEqual([6, 5, 4, 3, 2]);
      expect(body.adjacentBelow.map((p) => p.userID)).toEqual([8, 9, 10, 11, 12].map((i) => sp[i - 1].id));
      expect(body.users.map((u) => u.id)).toEqual([6, 5, 4, 3, 2, 8, 9, 10, 11, 12].map((i) => sp[i - 1].id));
      expect('clan' in body.users[0]).toBe(profile === 'spec');
    });

    it('at the top and near the bottom: only the PBs there are', async () => {
      const first = read<{ adjacentAbove: Doc[]; adjacentBelow: Doc[] }>(await adjacent(sp[0], ANTHEM_MXM.chartID));
      expect(first.adjacentAbove).toEqual([]);
      expect(first.adjacentBelow.map((p) => p.userID)).toEqual([2, 3, 4, 5, 6].map((i) => sp[i - 1].id));
      const eleventh = read<{ adjacentAbove: Doc[]; adjacentBelow: Doc[] }>(await adjacent(sp[10], ANTHEM_MXM.chartID));
      expect(eleventh.adjacentAbove.map((p) => p.userID)).toEqual([10, 9, 8, 7, 6].map((i) => sp[i - 1].id));
      expect(eleventh.adjacentBelow.map((p) => p.userID)).toEqual([sp[11].id]);
      // Alone on a chart.
      const alone = read<{ adjacentAbove: Doc[]; adjacentBelow: Doc[]; users: Doc[] }>(await adjacent(sp[0], ANTHEM_EXH.chartID));
      expect([alone.adjacentAbove, alone.adjacentBelow, alone.users]).toEqual([[], [], []]);
    });

    it('404 for a chart of another GPT or none, a chart the player has no PB on, and a player who has not played the GPT', async () => {
      refused(await adjacent(sp[0], BMS_7K.chartID), 404);
      refused(await adjacent(sp[0], 'nochart'), 404);
      refused(await adjacent(sp[1], ANTHEM_EXH.chartID), 404);
      refused(await adjacent(sp1x, ANTHEM_MXM.chartID), 404);
    });
  });

  describe('GET UGPT/scores/:chartID', () => {
    it('the player’s scores on the chart, the latest first, those without a time last', async () => {
      const p = await quickPlayer(t, `scores_${profile}`, ['submit_score']);
      await importSdvx(p, [mxm(9_000_000, T0 - DAY), mxm(9_100_000, null), mxm(9_200_000, T0)]);
      await importSdvx(p, [exh(8_000_000, T0)]);
      const scores = read<Doc[]>(await t.http().get(ugpt(p, `/scores/${ANTHEM_MXM.chartID}`)));
      expect(scores.map((s) => [(s.scoreData as Doc).score, s.timeAchieved])).toEqual([
        [9_200_000, T0],
        [9_000_000, T0 - DAY],
        [9_100_000, null],
      ]);
      expect(scores.every((s) => s.userID === p.id && s.chartID === ANTHEM_MXM.chartID)).toBe(true);
      // The route after it is still scores/recent.
      expect(read<{ scores: Doc[] }>(await t.http().get(ugpt(p, '/scores/recent'))).scores).toHaveLength(4);
    });

    it('404 for a chart of another GPT, a chart the player has not played, and a player who has not played the GPT', async () => {
      refused(await t.http().get(ugpt(sp[0], `/scores/${USC_KEYBOARD.chartID}`)), 404);
      refused(await t.http().get(ugpt(sp[1], `/scores/${ANTHEM_EXH.chartID}`)), 404);
      refused(await t.http().get(ugpt(sp1x, `/scores/${ANTHEM_MXM.chartID}`)), 404);
    });
  });

  describe('GET /search', () => {
    it('users whose name contains the text (exact first) with __isRival; songs and their charts in every game; folders', async () => {
      const body = read<Doc>(await t.http().get(api('/search?search=sp1')));
      const users = body.users as Doc[];
      expect(users.map((u) => u.username)).toEqual(['sp1', 'sp10', 'sp11', 'sp12', 'sp1x']);
      expect(users.every((u) => u.__isRival === false)).toBe(true);
      expect('clan' in users[0]).toBe(profile === 'spec');

      // Players per chart, as the chart page counts them (other tests here play Anthem too).
      const players = async (chartID: string) => read<{ count: number }>(await t.http().get(api(`/games/sdvx/Single/charts/${chartID}/playcount`))).count;
      const [mxmPlayers, exhPlayers] = [await players(ANTHEM_MXM.chartID), await players(ANTHEM_EXH.chartID)];
      expect(mxmPlayers).toBeGreaterThan(exhPlayers);
      const anthem = read<Doc>(await t.http().get(api('/search?search=Pipeline%20Anthem')));
      if (profile === 'spec') {
        expect(anthem.songs).toEqual([expect.objectContaining({ id: 1, title: 'Pipeline Anthem', game: 'sdvx' })]);
        const charts = anthem.charts as Doc[];
        expect(charts.every((c) => c.game === 'sdvx' && c.songID === 1)).toBe(true);
        // The most played first: MXM, then EXH.
        expect(charts.slice(0, 2).map((c) => [c.chartID, c.__playcount])).toEqual([
          [ANTHEM_MXM.chartID, mxmPlayers],
          [ANTHEM_EXH.chartID, exhPlayers],
        ]);
        expect(keys(anthem)).toEqual(['charts', 'folders', 'songs', 'users']);
      } else {
        const byGpt = anthem.charts as Record<string, { song: Doc; chart: Doc; playcount: number }[]>;
        // Every GPT searched is named, with or without hits.
        expect(Object.keys(byGpt)).toEqual(expect.arrayContaining(['sdvx:Single', 'bms:7K', 'usc:Keyboard', 'chunithm:Single', 'iidx:DP']));
        expect(byGpt['bms:7K']).toEqual([]);
        expect(byGpt['sdvx:Single'].slice(0, 2).map((h) => [h.chart.chartID, h.song.id, h.playcount])).toEqual([
          [ANTHEM_MXM.chartID, 1, mxmPlayers],
          [ANTHEM_EXH.chartID, 1, exhPlayers],
        ]);
        expect(keys(anthem)).toEqual(['charts', 'folders', 'users']);
      }
    });

    it('hasPlayedGame: a signed-in player sees only the GPTs they have played; a guest’s is ignored', async () => {
      const folderTitles = (body: Doc) => (body.folders as Doc[]).map((f) => f.title);
      // The chunithm folder "Level 13 (LUMINOUS)".
      expect(folderTitles(read(await t.http().get(api('/search?search=Level%2013'))))).toContain('Level 13 (LUMINOUS)');
      expect(folderTitles(read(await t.http().get(api('/search?search=Level%2013&hasPlayedGame=true')).set(bearer(sp[0].token))))).toEqual([]);
      expect(folderTitles(read(await t.http().get(api('/search?search=Level%2013&hasPlayedGame=true'))))).toContain('Level 13 (LUMINOUS)');
      const played = read<Doc>(await t.http().get(api('/search?search=BMS&hasPlayedGame')).set(bearer(sp[0].token)));
      const all = read<Doc>(await t.http().get(api('/search?search=BMS')));
      if (profile === 'spec') {
        expect(played.charts).toEqual([]);
        expect((all.charts as Doc[]).map((c) => c.game)).toContain('bms');
      } else {
        expect(Object.keys(played.charts as Doc)).toEqual(['sdvx:Single']);
        expect(((all.charts as Record<string, Doc[]>)['bms:7K'] ?? []).length).toBeGreaterThan(0);
      }
    });

    it('__isRival: the users the signed-in requester has as rivals, on any game and playtype; false for a guest', async () => {
      const searcher = await quickPlayer(t, `rival_finder_${profile}`, ['submit_score', 'manage_rivals']);
      await importSdvx(searcher, [exh(7_000_000, T0)]);
      const put = await t
        .http()
        .put(ugpt(searcher, '/rivals'))
        .set(bearer(searcher.token))
        .send({ rivalIDs: [sp[1].id] });
      read(put);
      const flags = (body: Doc) => Object.fromEntries((body.users as Doc[]).map((u) => [u.username, u.__isRival]));
      const signedIn = flags(read(await t.http().get(api('/search?search=sp')).set(bearer(searcher.token))));
      expect(Object.keys(signedIn)).toEqual(expect.arrayContaining(['sp1', 'sp2', 'sp3', 'sp12', 'sp1x']));
      expect(Object.entries(signedIn).filter(([, isRival]) => isRival)).toEqual([['sp2', true]]);
      expect(flags(read(await t.http().get(api('/search?search=sp2'))))).toEqual({ sp2: false });
    });

    it('400 without a search, with a blank one or an unknown parameter', async () => {
      refused(await t.http().get(api('/search')), 400);
      refused(await t.http().get(api('/search?search=%20%20')), 400);
      refused(await t.http().get(api('/search?search=a&other=1')), 400);
    });
  });

  describe('GET /search/chart-hash', () => {
    it('BMS by MD5 (any case) and USC by SHA1: the charts and their songs', async () => {
      const bms = read<Doc>(await t.http().get(api(`/search/chart-hash?search=${BMS_MD5.toUpperCase()}`)));
      const usc = read<Doc>(await t.http().get(api(`/search/chart-hash?search=${USC_SHA1}`)));
      const none = read<Doc>(await t.http().get(api(`/search/chart-hash?search=${'0'.repeat(32)}`)));
      if (profile === 'spec') {
        expect(bms).toEqual({
          songs: [expect.objectContaining({ id: 1, title: 'BMS Alpha', game: 'bms' })],
          charts: [expect.objectContaining({ chartID: BMS_7K.chartID, game: 'bms', __playcount: null })],
        });
        expect((usc.charts as Doc[]).map((c) => c.chartID)).toEqual([USC_CONTROLLER.chartID, USC_KEYBOARD.chartID]);
        expect(usc.songs).toHaveLength(1);
        expect(none).toEqual({ songs: [], charts: [] });
      } else {
        const hits = bms.charts as Record<string, { song: Doc; chart: Doc; playcount: null }[]>;
        expect(Object.keys(hits)).toEqual(expect.arrayContaining(['bms:7K', 'bms:14K', 'pms:Controller', 'pms:Keyboard', 'usc:Controller', 'usc:Keyboard']));
        expect(hits['bms:7K']).toEqual([
          { song: expect.objectContaining({ id: 1, title: 'BMS Alpha' }), chart: expect.objectContaining({ chartID: BMS_7K.chartID }), playcount: null },
        ]);
        expect(hits['bms:14K']).toEqual([]);
        const uscHits = usc.charts as Record<string, { chart: Doc }[]>;
        expect([uscHits['usc:Controller'].map((h) => h.chart.chartID), uscHits['usc:Keyboard'].map((h) => h.chart.chartID)]).toEqual([
          [USC_CONTROLLER.chartID],
          [USC_KEYBOARD.chartID],
        ]);
        expect(Object.values(none.charts as Record<string, unknown[]>).flat()).toEqual([]);
      }
    });

    it('400 without a search', async () => {
      refused(await t.http().get(api('/search/chart-hash')), 400);
      refused(await t.http().get(api('/search/chart-hash?search=')), 400);
    });
  });

  describe('GET /users/:userID/recent-imports', () => {
    it('the import types the player chose in the last 4 weeks, the most used first; public', async () => {
      const p = await quickPlayer(t, `recent_${profile}`, ['submit_score']);
      await importSdvx(p, [mxm(9_000_000, T0)], true);
      await importSdvx(p, [mxm(9_100_000, T0 + 1)], true);
      await importSdvx(p, [mxm(9_200_000, T0 + 2)], false);
      const file = JSON.stringify({ meta: { game: 'sdvx', playtype: 'Single', service: 'e2e' }, scores: [exh(9_000_000, T0)] });
      const res = await uploadFile(t, p.token, 'file/batch-manual', file, {
        contentType: 'application/json',
        filename: 'scores.json',
        headers: { 'X-User-Intent': 'true' },
      });
      if (profile === 'tachi') await polledImport(t, res);
      else expect(res.status).toBe(200);
      // Older than 4 weeks: left out.
      await t.app.get(ImportsRepository).insert({
        importID: `old-${profile}`,
        userID: p.id,
        importType: 'file/eamusement-sdvx-csv',
        userIntent: true,
        status: 'completed',
        timeQueued: Date.now() - 29 * DAY,
        timeStarted: Date.now() - 29 * DAY,
        timeFinished: Date.now() - 29 * DAY,
      });
      expect(read<Doc[]>(await t.http().get(api(`/users/${p.username}/recent-imports`)))).toEqual([
        { importType: 'ir/direct-manual', count: 2 },
        { importType: 'file/batch-manual', count: 1 },
      ]);
      expect(read<Doc[]>(await t.http().get(api(`/users/${sp1x.id}/recent-imports`)))).toEqual([]);
    });

    it('404 for an unknown user; 401 for me as a guest', async () => {
      refused(await t.http().get(api('/users/nobody_here/recent-imports')), 404);
      refused(await t.http().get(api('/users/me/recent-imports')), 401);
    });
  });

  describe('import answers', () => {
    if (profile === 'tachi') {
      it('POST /import/file and /ir/direct-manual/import answer 202 {url, importID}, and the url polls the finished import', async () => {
        const p = await quickPlayer(t, 'answers_tachi', ['submit_score']);
        const file = JSON.stringify({ meta: { game: 'sdvx', playtype: 'Single', service: 'e2e' }, scores: [mxm(9_500_000, T0)] });
        const fromFile = await polledImport<Doc>(
          t,
          await uploadFile(t, p.token, 'file/batch-manual', file, { contentType: 'application/json', filename: 'scores.json' }),
        );
        expect(fromFile).toMatchObject({ importType: 'file/batch-manual', userID: p.id, errors: [] });
        const direct = await t
          .http()
          .post(api('/ir/direct-manual/import'))
          .set(bearer(p.token))
          .send({ meta: { game: 'sdvx', playtype: 'Single', service: 'e2e' }, scores: [mxm(9_600_000, T0 + 1)] });
        expect(direct.body).toMatchObject({ success: true, description: expect.stringMatching(/poll/) });
        const doc = await polledImport<Doc>(t, direct);
        expect(doc).toMatchObject({ importType: 'ir/direct-manual', userID: p.id });
        expect(read<{ import: Doc }>(await t.http().get(api(`/imports/${doc.importID as string}`))).import.importID).toBe(doc.importID);
      });

      it('a refused import is still an error at once; an unknown import’s poll is a 404', async () => {
        const p = await quickPlayer(t, 'refused_tachi', ['submit_score']);
        failed(await uploadFile(t, p.token, 'file/batch-manual', 'not json', { contentType: 'application/json', filename: 'scores.json' }), 400);
        failed(await t.http().post(api('/ir/direct-manual/import')).send({}), 401);
        failed(await t.http().get(api('/imports/nosuchimport/poll-status')), 404);
      });
    } else {
      it('the spec profile keeps its answers: 200 with the ImportDocument when imported in the request', async () => {
        const p = await quickPlayer(t, 'answers_spec', ['submit_score']);
        const res = await t
          .http()
          .post(api('/ir/direct-manual/import'))
          .set(bearer(p.token))
          .send({ meta: { game: 'sdvx', playtype: 'Single', service: 'e2e' }, scores: [mxm(9_500_000, T0)] });
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({ importType: 'ir/direct-manual', userID: p.id, errors: [] });
      });
    }
  });
});

function keys(value: unknown): string[] {
  return Object.keys(value as object).sort();
}
