import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startReferenceServer, type ReferenceServer } from '../../bench/reference-server.js';
import { dirtyChartCount, refreshDirtyCharts } from '../../src/scoring/pbs/rank-refresher.js';
import { createTestApp, usingPostgres, type TestApp } from '../support/app.js';
import { clearProfileRatings } from '../support/db-fixtures.js';
import { fixtureChartID, importSdvx, loadScoreFixtures, sdvxScore, type SdvxDifficulty } from '../support/score-fixtures.js';
import { chartRanking, storedPb, storedRanks } from '../support/stored.js';
import { bearer, issueToken, signUp, type SignedUpUser } from '../support/users.js';

/**
 * The reads bench's reference server (bench/reference-server.ts) answers its six routes with the
 * app's exact bytes: every route, for players with ties, untimed scores, no PBs, no rating or no
 * profile at all, every chart, several searches; on clean charts and on a dirty one (ranks
 * counted live, the rank refresher off). It needs a PostgreSQL server (TEST_DATABASE_URL).
 */
(usingPostgres ? describe : describe.skip)('reference server: the same bodies as the app', () => {
  let t: TestApp;
  let ref: ReferenceServer;
  const players: { u: SignedUpUser; token: string }[] = [];
  const T0 = Date.UTC(2025, 0, 1);
  const API = '/api/v1';
  const GPT = `${API}/games/sdvx/Single`;
  const shared = fixtureChartID(1, 'EXH');
  const tied = fixtureChartID(2, 'MXM');
  const allCharts = [1, 2, 3, 4, 5, 6, 7].flatMap((song) => (['EXH', 'MXM'] as SdvxDifficulty[]).map((d) => fixtureChartID(song, d)));
  const searches = ['fixture', 'Alpha', 'bravo', 'ECHO', 'fixture artist', 'fixtur', 'golf', '  delta  ', '', ' ', 'zzzzzz', '%', 'a_b'];

  const importAs = (i: number, scores: object[]) => importSdvx(t.http(), scores, { headers: bearer(players[i].token) });

  const urls = () => [
    `${GPT}/leaderboard`,
    ...allCharts.map((c) => `${GPT}/charts/${c}/pbs`),
    ...searches.map((s) => `${GPT}/charts?search=${encodeURIComponent(s)}`),
    `${GPT}/charts`,
    ...players.flatMap(({ u }) => ['pbs/best', 'scores/recent', 'leaderboard-adjacent'].map((r) => `${API}/users/${u.user.id}/games/sdvx/Single/${r}`)),
  ];

  /** The app's and the reference's answers to a GET: status, and on 200 the body bytes and content type. */
  async function both(url: string) {
    const app = await t.http().get(url);
    const mine = await fetch(ref.url + url);
    const body = await mine.text();
    return {
      app: { url, status: app.status, type: app.status === 200 ? app.headers['content-type'] : '', body: app.status === 200 ? app.text : '' },
      ref: { url, status: mine.status, type: mine.status === 200 ? mine.headers.get('content-type') : '', body: mine.status === 200 ? body : '' },
    };
  }

  /** Every route through both; returns the app's 200 bodies by URL. */
  async function expectSameBodies(): Promise<Map<string, string>> {
    const bodies = new Map<string, string>();
    for (const url of urls()) {
      const { app, ref: mine } = await both(url);
      expect(mine).toEqual(app);
      if (app.status === 200) bodies.set(url, app.body);
    }
    return bodies;
  }

  beforeAll(async () => {
    // The rank refresher off: a chart an import touched stays dirty until the test refreshes it.
    // The read cache off: every answer of the app is built from the database.
    t = await createTestApp({ RANK_REFRESH_INTERVAL_MS: '0', READ_CACHE_MB: '0' });
    await loadScoreFixtures(t);
    for (let i = 0; i < 7; i++) {
      const u = await signUp(t);
      players.push({ u, token: await issueToken(u, ['submit_score']) });
    }
    // Three on the shared chart; on `tied`, 0 and 1 tie on score and time (user id decides), 2 later.
    await importAs(0, [
      sdvxScore(1, 'EXH', 9_800_000, 'EXCESSIVE CLEAR', T0),
      sdvxScore(2, 'MXM', 9_500_000, 'CLEAR', T0),
      sdvxScore(3, 'EXH', 9_000_000, 'CLEAR', T0 + 5000),
      sdvxScore(5, 'MXM', 8_000_000, 'FAILED', null),
      sdvxScore(6, 'EXH', 8_100_000, 'FAILED', null),
    ]);
    await importAs(1, [sdvxScore(1, 'EXH', 9_700_000, 'CLEAR', T0 + 1000), sdvxScore(2, 'MXM', 9_500_000, 'CLEAR', T0)]);
    await importAs(2, [
      sdvxScore(1, 'EXH', 9_600_000, 'CLEAR', T0 + 3000),
      sdvxScore(2, 'MXM', 9_500_000, 'CLEAR', T0 + 2000),
      sdvxScore(4, 'MXM', 9_100_000, 'FAILED', T0 + 3000),
    ]);
    // 3 and 4 play the same: the same profile rating, a tie on the leaderboard.
    const same = [sdvxScore(7, 'MXM', 9_900_000, 'ULTIMATE CHAIN', T0 + 7000), sdvxScore(3, 'MXM', 9_200_000, 'CLEAR', T0 + 8000)];
    await importAs(3, same);
    await importAs(4, same);
    // 5: a profile without a value under the profile rating algorithm (last on the leaderboard).
    await importAs(5, [sdvxScore(4, 'EXH', 7_000_000, 'FAILED', T0 + 9000)]);
    const unrated = players[5].u.user.id;
    await clearProfileRatings(t, unrated);
    // 6 never plays: no profile (404 from both).
    await refreshDirtyCharts(t.database);
    ref = await startReferenceServer(t.databaseUrl!, 0);
  }, 120_000);

  afterAll(async () => {
    await ref?.close();
    await t?.close();
  });

  it('answers every route with the app’s bytes on clean charts', async () => {
    const bodies = await expectSameBodies();
    // Not vacuous: the lists hold what the imports made.
    const ugpt = (i: number, r: string) => JSON.parse(bodies.get(`${API}/users/${players[i].u.user.id}/games/sdvx/Single/${r}`)!) as Record<string, unknown[]>;
    expect(ugpt(0, 'pbs/best').pbs.length).toBeGreaterThan(2);
    expect(ugpt(0, 'scores/recent').scores).toHaveLength(5);
    expect(ugpt(5, 'leaderboard-adjacent').above).toHaveLength(5);
    expect(bodies.has(`${API}/users/${players[6].u.user.id}/games/sdvx/Single/pbs/best`)).toBe(false);
    const board = JSON.parse(bodies.get(`${GPT}/leaderboard`)!) as { gameStats: { userID: number; ratings: object }[] };
    expect(board.gameStats).toHaveLength(6);
    expect(board.gameStats.at(-1)!.userID).toBe(players[5].u.user.id);
    // 3 and 4 tie (the user id orders them), and 4 is below 3 on 3's leaderboard-adjacent.
    const [three, four] = [3, 4].map((i) => board.gameStats.find((s) => s.userID === players[i].u.user.id)!);
    expect(Object.keys(three.ratings).length).toBeGreaterThan(0);
    expect(four.ratings).toEqual(three.ratings);
    expect((ugpt(3, 'leaderboard-adjacent').below[0] as { userID: number }).userID).toBe(players[4].u.user.id);
    const tiedPage = JSON.parse(bodies.get(`${GPT}/charts/${tied}/pbs`)!) as { pbs: { userID: number; rankingData: { rank: number } }[] };
    expect(tiedPage.pbs.map((p) => p.userID)).toEqual([players[0].u.user.id, players[1].u.user.id, players[2].u.user.id]);
    expect(JSON.parse(bodies.get(`${GPT}/charts?search=fixture`)!).charts.length).toBeGreaterThan(10);
  });

  it('answers 404 where the app does', async () => {
    for (const url of [
      `${API}/users/999999/games/sdvx/Single/pbs/best`,
      `${API}/users/${players[0].u.user.id}/games/nogame/Single/scores/recent`,
      `${API}/users/${players[0].u.user.id}/games/sdvx/Double/leaderboard-adjacent`,
      `${GPT}/charts/not-a-chart/pbs`,
      `${API}/games/iidx/SP/charts/${shared}/pbs`,
    ]) {
      const { app, ref: mine } = await both(url);
      expect(app.status).toBe(404);
      expect(mine.status).toBe(404);
    }
  });

  it('serves a dirty chart’s live ranks as the app does', async () => {
    // 6 plays: best on the shared chart, so everyone else's live rank there moves down by one.
    await importAs(6, [sdvxScore(1, 'EXH', 9_990_000, 'ULTIMATE CHAIN', T0 + 20_000), sdvxScore(2, 'MXM', 9_500_000, 'CLEAR', T0 - 1000)]);
    expect(await chartRanking(t, shared)).toMatchObject({ dirtySince: expect.any(Number) });
    // The stored rank is stale, the served one is counted live.
    expect((await storedRanks(t, shared)).find(([userID]) => userID === players[0].u.user.id)).toEqual([players[0].u.user.id, 1]);
    expect((await storedPb(t, players[0].u.user.id, shared))?.rankingData.rank).toBe(2);
    const bodies = await expectSameBodies();
    const page = JSON.parse(bodies.get(`${GPT}/charts/${shared}/pbs`)!) as { pbs: { userID: number; rankingData: { rank: number; outOf: number } }[] };
    expect(page.pbs[0]).toMatchObject({ userID: players[6].u.user.id, rankingData: { rank: 1, outOf: 4 } });
    const best = JSON.parse(bodies.get(`${API}/users/${players[0].u.user.id}/games/sdvx/Single/pbs/best`)!) as {
      pbs: { chartID: string; rankingData: { rank: number } }[];
    };
    expect(best.pbs.find((p) => p.chartID === shared)!.rankingData.rank).toBe(2);
    // Still dirty: nothing refreshed it behind the test's back.
    expect(await dirtyChartCount(t.database)).toBeGreaterThan(0);
  });
});
