import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { dirtyChartCount, refreshDirtyCharts } from '../../src/scoring/pbs/rank-refresher.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { batchManual, fixtureChart, imported, loadFixtureCatalog, player, T0, type Player } from '../support/imports.js';
import { chartRanking, pbRowVersions, storedRanks as ranksOf, storedScores } from '../support/stored.js';
import { bearer } from '../support/users.js';

const EXH1 = fixtureChart('sdvx-1-EXH');
const MXM1 = fixtureChart('sdvx-1-MXM');
const ADV1 = fixtureChart('sdvx-1-ADV');
const GPT = '/api/v1/games/sdvx/Single';
const play = (score: number, timeAchieved: number | null, difficulty = 'EXH') => ({
  matchType: 'sdvxInGameID',
  identifier: '1001',
  difficulty,
  score,
  lamp: 'CLEAR',
  timeAchieved,
});

interface Ranked {
  userID: number;
  chartID: string;
  rankingData: { rank: number; outOf: number };
}

/**
 * Imports write no other player's PB: they bump the chart's player count and mark it dirty (unless
 * their PB came last on a clean chart); readers count a dirty chart's ranks live; the refresher rewrites the stored
 * ones. The app's own refresher is off here, so each test decides when it runs.
 */
describe('chart ranks kept lazily (chart_rankings, live ranks of dirty charts, the refresher)', () => {
  let t: TestApp;
  const ugpt = (p: Player) => `/api/v1/users/${p.user.id}/games/sdvx/Single`;
  const get = async (url: string, query: Record<string, string | number> = {}) => {
    const res = await t.http().get(url).query(query);
    expect(res.status).toBe(200);
    return res.body as Record<string, unknown>;
  };
  /** [userID, rank, outOf] of the chart's PBs from startRanking on, as GET charts/:chartID/pbs serves them. */
  const chartPage = async (chartID: string, startRanking = 1) =>
    ((await get(`${GPT}/charts/${chartID}/pbs`, { startRanking })).pbs as Ranked[]).map((p) => [p.userID, p.rankingData.rank, p.rankingData.outOf]);
  /** The player's PB on the chart as GET pbs/:chartID serves it. */
  const served = async (p: Player, chartID = EXH1) => ((await get(`${ugpt(p)}/pbs/${chartID}`)).pb as Ranked).rankingData;
  /** Every PB row of the chart with its system columns: xmin moves with any write, xmax with a row lock. */
  const rawRows = (chartID: string) => pbRowVersions(t, chartID);
  /** [userID, stored rank] of the chart's PBs, best first. */
  const storedRanks = (chartID: string) => ranksOf(t, chartID);
  const ranking = (chartID: string) => chartRanking(t, chartID);
  /** Every read endpoint that shows ranks of these players' PBs on EXH1, whole bodies. */
  const readEverything = async (players: Player[]) => ({
    chart: await get(`${GPT}/charts/${EXH1}/pbs`),
    page3: await get(`${GPT}/charts/${EXH1}/pbs`, { startRanking: 3 }),
    pbLeaderboard: await get(`${GPT}/pb-leaderboard`),
    charts: await get(`${GPT}/charts`),
    players: await Promise.all(
      players.map(async (p) => ({
        pb: await get(`${ugpt(p)}/pbs/${EXH1}`),
        all: await get(`${ugpt(p)}/pbs/all`),
        best: await get(`${ugpt(p)}/pbs/best`),
        search: await get(`${ugpt(p)}/pbs`, { search: 'Pipeline' }),
        mostPlayed: await get(`${ugpt(p)}/most-played`),
        chartSearch: await get(`${GPT}/charts/${EXH1}/pbs/search`, { search: p.user.username }),
      })),
    ),
  });

  let b: Player, c: Player, f: Player, a: Player, d: Player, e: Player;

  beforeAll(async () => {
    t = await createTestApp({ RANK_REFRESH_INTERVAL_MS: '0' });
    await loadFixtureCatalog(t.database, 'catalog', ['sdvx']);
    // Created in this order, so user ids rise b < c < f < a < d < e.
    [b, c, f, a, d, e] = [
      await player(t, ['submit_score', 'delete_score']),
      await player(t),
      await player(t),
      await player(t),
      await player(t),
      await player(t),
    ];
    await imported(t, a.token, batchManual('sdvx', 'Single', [play(9_500_000, T0 + 2000)]));
    await imported(t, b.token, batchManual('sdvx', 'Single', [play(9_900_000, T0)]));
    await imported(t, c.token, batchManual('sdvx', 'Single', [play(9_500_000, T0 + 1000)]));
    await imported(t, f.token, batchManual('sdvx', 'Single', [play(9_500_000, T0 + 1000)]));
    await imported(t, d.token, batchManual('sdvx', 'Single', [play(9_500_000, null)]));
  });
  afterAll(async () => {
    await t.close();
  });

  it('breaks ties as before: the earlier play, then the lower user id; a play without a time after every timed one', async () => {
    // By hand: b's 9.9M; then 9.5M by c and f (same time: c's lower id), a (later), d (no time).
    const expected = [
      [b.user.id, 1, 5],
      [c.user.id, 2, 5],
      [f.user.id, 3, 5],
      [a.user.id, 4, 5],
      [d.user.id, 5, 5],
    ];
    expect(await chartPage(EXH1)).toEqual(expected);
    for (const [i, p] of [b, c, f, a, d].entries()) expect(await served(p)).toEqual({ rank: i + 1, outOf: 5 });
    // b's import put b above a PB already there: stored ranks are stale until the refresher runs.
    expect((await ranking(EXH1)).dirtySince).not.toBeNull();
    expect(await refreshDirtyCharts(t.database)).toBe(1);
    expect(await ranking(EXH1)).toMatchObject({ players: 5, dirtySince: null });
    expect(await storedRanks(EXH1)).toEqual(expected.map(([id, rank]) => [id, rank]));
    expect(await chartPage(EXH1)).toEqual(expected);
  });

  it("writes none of the other players' PB rows, yet every read shows their shifted ranks and the new outOf", async () => {
    const before = await rawRows(EXH1);
    await imported(t, e.token, batchManual('sdvx', 'Single', [play(9_700_000, T0 + 3000), play(9_000_000, T0 + 3000, 'MXM')]));
    // Not written, not even locked: the same bytes, the same xmin and xmax.
    const after = await rawRows(EXH1);
    expect(after.filter((r) => r.user_id !== e.user.id)).toEqual(before);
    expect(await ranking(EXH1)).toMatchObject({ players: 6, dirtySince: expect.any(Number) });
    // e's MXM PB is the chart's first: last and first at once, nobody moved, the chart stays clean.
    expect(await ranking(MXM1)).toMatchObject({ players: 1, dirtySince: null });
    expect(await served(e, MXM1)).toEqual({ rank: 1, outOf: 1 });

    const expected = [
      [b.user.id, 1, 6],
      [e.user.id, 2, 6],
      [c.user.id, 3, 6],
      [f.user.id, 4, 6],
      [a.user.id, 5, 6],
      [d.user.id, 6, 6],
    ];
    expect(await chartPage(EXH1)).toEqual(expected);
    for (const [i, p] of [b, e, c, f, a, d].entries()) expect(await served(p)).toEqual({ rank: i + 1, outOf: 6 });
    // Page boundaries: from the middle, the last rank alone, past the end.
    expect(await chartPage(EXH1, 3)).toEqual(expected.slice(2));
    expect(await chartPage(EXH1, 6)).toEqual(expected.slice(5));
    expect(await chartPage(EXH1, 7)).toEqual([]);
    const aAll = (await get(`${ugpt(a)}/pbs/all`)).pbs as Ranked[];
    expect(aAll.map((p) => [p.chartID, p.rankingData])).toEqual([[EXH1, { rank: 5, outOf: 6 }]]);
    const search = (await get(`${GPT}/charts/${EXH1}/pbs/search`, { search: a.user.username })).pbs as Ranked[];
    expect(search.map((p) => [p.userID, p.rankingData])).toEqual([[a.user.id, { rank: 5, outOf: 6 }]]);
    const charts = (await get(`${GPT}/charts`)).charts as { chartID: string; __playcount: number }[];
    expect(charts.find((ch) => ch.chartID === EXH1)?.__playcount).toBe(6);

    // The refresher rewrites exactly the four PBs that moved and e's (stored unranked), and every answer stays the same.
    const dirty = await readEverything([a, b, c, d, e, f]);
    const written = await rawRows(EXH1);
    expect(await refreshDirtyCharts(t.database)).toBe(1);
    expect(await dirtyChartCount(t.database)).toBe(0);
    const moved = new Set((await rawRows(EXH1)).filter((r, i) => r.xmin !== written[i].xmin).map((r) => r.user_id));
    expect(moved).toEqual(new Set([e.user.id, c.user.id, f.user.id, a.user.id, d.user.id]));
    expect(await storedRanks(EXH1)).toEqual(expected.map(([id, rank]) => [id, rank]));
    expect(await readEverything([a, b, c, d, e, f])).toEqual(dirty);
  });

  it('keeps the chart clean when the new PB comes last, and follows a deletion', async () => {
    const g = await player(t);
    const before = await rawRows(EXH1);
    await imported(t, g.token, batchManual('sdvx', 'Single', [play(8_000_000, T0)]));
    expect(await ranking(EXH1)).toMatchObject({ players: 7, dirtySince: null });
    expect((await rawRows(EXH1)).filter((r) => r.user_id !== g.user.id)).toEqual(before);
    expect(await served(g)).toEqual({ rank: 7, outOf: 7 });
    expect((await storedRanks(EXH1)).find(([id]) => id === g.user.id)).toEqual([g.user.id, 7]);

    // b (first) deletes their score: everyone else moves up one, read live until the refresher runs.
    for (const s of await storedScores(t, b.user.id)) expect((await t.http().delete(`/api/v1/scores/${s.scoreID}`).set(bearer(b.token))).status).toBe(200);
    expect(await ranking(EXH1)).toMatchObject({ players: 6, dirtySince: expect.any(Number) });
    const expected = [e, c, f, a, d, g].map((p, i) => [p.user.id, i + 1, 6]);
    expect(await chartPage(EXH1)).toEqual(expected);
    expect(await served(g)).toEqual({ rank: 6, outOf: 6 });
    const dirty = await readEverything([a, c, d, e, f, g]);
    expect(await refreshDirtyCharts(t.database)).toBe(1);
    expect(await readEverything([a, c, d, e, f, g])).toEqual(dirty);
    expect(await storedRanks(EXH1)).toEqual(expected.map(([id, rank]) => [id, rank]));
  });

  it('serves an empty chart: no PBs, no players', async () => {
    expect(await chartPage(ADV1)).toEqual([]);
    expect(await ranking(ADV1)).toBeUndefined();
    const searched = (await get(`${GPT}/charts`, { search: 'Pipeline' })).charts as { chartID: string; __playcount: number }[];
    expect(searched.find((ch) => ch.chartID === ADV1)?.__playcount).toBe(0);
  });

  it('ranks two imports onto the same chart at once exactly', async () => {
    const [h, i] = [await player(t), await player(t)];
    // h's 9.8M goes first, above e's 9.7M; i's 9.6M third, above c's 9.5M.
    await Promise.all([
      imported(t, h.token, batchManual('sdvx', 'Single', [play(9_800_000, T0)])),
      imported(t, i.token, batchManual('sdvx', 'Single', [play(9_600_000, T0)])),
    ]);
    const g = (await chartPage(EXH1)).at(-1)![0];
    const expected = [h.user.id, e.user.id, i.user.id, c.user.id, f.user.id, a.user.id, d.user.id, g].map((id, n) => [id, n + 1, 8]);
    expect(await chartPage(EXH1)).toEqual(expected);
    expect(await served(i)).toEqual({ rank: 3, outOf: 8 });
    expect(await ranking(EXH1)).toMatchObject({ players: 8 });
    expect(await refreshDirtyCharts(t.database)).toBe(1);
    expect(await storedRanks(EXH1)).toEqual(expected.map(([id, rank]) => [id, rank]));
    expect(await ranking(EXH1)).toMatchObject({ players: 8, dirtySince: null });
  });
});

describe("the app's own rank refresher (RANK_REFRESH_INTERVAL_MS)", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ RANK_REFRESH_INTERVAL_MS: '50' });
    await loadFixtureCatalog(t.database, 'catalog', ['sdvx']);
  });
  afterAll(async () => {
    await t.close();
  });

  it('re-ranks a chart an import left dirty on its own, soon after', async () => {
    const [a, b] = [await player(t), await player(t)];
    await imported(t, a.token, batchManual('sdvx', 'Single', [play(9_000_000, T0)]));
    await imported(t, b.token, batchManual('sdvx', 'Single', [play(9_500_000, T0)]));
    const started = Date.now();
    while ((await dirtyChartCount(t.database)) > 0 && Date.now() - started < 10_000) await new Promise((r) => setTimeout(r, 20));
    expect(await dirtyChartCount(t.database)).toBe(0);
    expect(await ranksOf(t, EXH1)).toEqual([
      [b.user.id, 1],
      [a.user.id, 2],
    ]);
  });
});
