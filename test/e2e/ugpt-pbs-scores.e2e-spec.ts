import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestApp, type TestApp } from '../support/app.js';
import {
  danWithoutScores,
  FILLERS,
  fillerLevel,
  fillerSong,
  importAs,
  lbChart,
  loadLeaderboardCatalog,
  play,
  quickPlayer,
  type QuickPlayer,
} from '../support/leaderboard-fixtures.js';

const MIN = 60_000;
const HOUR = 60 * MIN;
const T0 = Date.UTC(2024, 2, 1, 12);
const PUC = 'PERFECT ULTIMATE CHAIN';

const BH_EXH = lbChart(1, 'EXH'); // Blue Horizon EXH, level 16
const BH = lbChart(1, 'MXM'); // level 18
const REMIX = lbChart(2, 'MXM'); // level 19
const BEYOND = lbChart(3, 'MXM'); // level 18
const HORIZEN = lbChart(4, 'MXM'); // level 20
const RED = lbChart(5, 'MXM'); // level 20
const OLD = lbChart(6, 'EXH'); // level 20, not primary
const filler = (i: number) => lbChart(fillerSong(i), 'MXM');
/** from..to inclusive, counting down when to < from. */
const range = (from: number, to: number) => Array.from({ length: Math.abs(to - from) + 1 }, (_, k) => (from <= to ? from + k : from - k));

/*
 * hana's scores (VF6 = floor(level × 2 × score/1e7 × grade × lamp × 1000) / 1000; grades S 1.05,
 * AAA 1.00, AA+ 0.97, A+ 0.91; lamps PUC 1.1, EXCESSIVE CLEAR 1.02, CLEAR 1):
 *   Blue Horizon EXH  9,000,000 CLEAR (T0-4h): 32 × 0.9 × 0.91 = 26.208 → 0.262
 *   Blue Horizon MXM  a 9,700,000 CLEAR (T0-3h), b 9,200,000 EXCESSIVE CLEAR (T0-2h),
 *                     c 9,100,000 CLEAR (no time), d 9,000,000 FAILED (T0-1h)
 *                     PB = a's score + b's lamp: 36 × 0.97 × 1.00 × 1.02 = 35.6184 → 0.356, at T0-2h
 *   Remix             9,900,000 CLEAR (T0-50m), 9,400,000 CLEAR (T0-45m): PB 38 × 0.99 × 1.05 = 39.501 → 0.395
 *   Beyond            9,500,000 CLEAR (T0-40m): 36 × 0.95 × 0.97 = 33.174 → 0.331
 *   Horizen           9,000,000 CLEAR (T0-35m), PUC (T0-30m), 9,500,000 CLEAR (T0-25m): PB 40 × 1.155 = 46.2 → 0.462
 *   Red Planet        9,000,000 CLEAR (T0-20m): 40 × 0.9 × 0.91 = 32.76 → 0.327
 *   Filler i (1..130) PUC at T0 + i min: level 17 + (i mod 4): 0.392, 0.415, 0.438, 0.462
 *                     (levels 17/18/19/20: 32/33/33/32 charts)
 *   Old Mix           PUC (T0-5h), version booth: 0.462, but not primary
 * 143 scores, 137 PBs. Profile VF6: the best 50 primary = 33 × 0.462 + 17 × 0.438 = 22.692.
 * ivan and jun: Red Planet PUC → 0.462 each (a tie). lee: Blue Horizon EXH 9,000,000 CLEAR
 * without a time → 0.262. kim: a dan, no scores (the one deleted) → no rating. noel: has played nothing.
 */
describe('UGPT profile, PBs and scores (/users/:userID/games/:game/:playtype)', () => {
  let t: TestApp;
  let hana: QuickPlayer, ivan: QuickPlayer, jun: QuickPlayer, lee: QuickPlayer, kim: QuickPlayer, noel: QuickPlayer;
  let hanaScores: string[];
  let oldMixScore: string;
  const ugpt = (p: QuickPlayer | string, path = '') => `/api/v1/users/${typeof p === 'string' ? p : p.id}/games/sdvx/Single${path}`;

  beforeAll(async () => {
    t = await createTestApp();
    await loadLeaderboardCatalog(t);
    [hana, ivan, jun, lee, kim, noel] = [
      await quickPlayer(t, 'hana'),
      await quickPlayer(t, 'ivan'),
      await quickPlayer(t, 'jun'),
      await quickPlayer(t, 'lee'),
      await quickPlayer(t, 'kim', ['submit_score', 'delete_score']),
      await quickPlayer(t, 'noel'),
    ];
    hanaScores = (
      await importAs(t, hana, [
        play(1, 'EXH', 9_000_000, 'CLEAR', T0 - 4 * HOUR),
        play(1, 'MXM', 9_700_000, 'CLEAR', T0 - 3 * HOUR),
        play(1, 'MXM', 9_200_000, 'EXCESSIVE CLEAR', T0 - 2 * HOUR),
        play(1, 'MXM', 9_100_000, 'CLEAR', null),
        play(1, 'MXM', 9_000_000, 'FAILED', T0 - HOUR),
        play(2, 'MXM', 9_900_000, 'CLEAR', T0 - 50 * MIN),
        play(2, 'MXM', 9_400_000, 'CLEAR', T0 - 45 * MIN),
        play(3, 'MXM', 9_500_000, 'CLEAR', T0 - 40 * MIN),
        play(4, 'MXM', 9_000_000, 'CLEAR', T0 - 35 * MIN),
        play(4, 'MXM', 10_000_000, PUC, T0 - 30 * MIN),
        play(4, 'MXM', 9_500_000, 'CLEAR', T0 - 25 * MIN),
        play(5, 'MXM', 9_000_000, 'CLEAR', T0 - 20 * MIN),
        ...range(1, FILLERS).map((i) => play(fillerSong(i), 'MXM', 10_000_000, PUC, T0 + i * MIN)),
      ])
    ).scoreIDs;
    [oldMixScore] = (await importAs(t, hana, [play(6, 'EXH', 10_000_000, PUC, T0 - 5 * HOUR)], { version: 'booth' })).scoreIDs;
    await importAs(t, ivan, [play(5, 'MXM', 10_000_000, PUC, T0)]);
    await importAs(t, jun, [play(5, 'MXM', 10_000_000, PUC, T0)]);
    await importAs(t, lee, [play(1, 'EXH', 9_000_000, 'CLEAR', null)]);
    await danWithoutScores(t, kim, 'DAN_1');
  }, 120_000);
  afterAll(async () => {
    await t.close();
  });

  type Pb = { chartID: string; userID: number; calculatedData: { VF6: number }; timeAchieved: number | null; __playcount?: number };
  type Score = { scoreID: string; chartID: string; timeAchieved: number | null };
  const [a, b, c, d] = [1, 2, 3, 4];

  describe('404 rules', () => {
    const paths = ['', '/pbs?search=blue', '/pbs/best', '/pbs/all', `/pbs/${BH}`, '/scores?search=blue', '/scores/recent', '/most-played'];

    it('404s every route for a user who has not played the GPT, an unknown user, game or playtype', async () => {
      for (const path of paths) {
        for (const url of [
          ugpt(noel, path),
          ugpt('no_such_user', path),
          `/api/v1/users/${hana.id}/games/usc/Controller${path}`,
          `/api/v1/users/${hana.id}/games/nope/Single${path}`,
          `/api/v1/users/${hana.id}/games/sdvx/Double${path}`,
        ]) {
          const res = await t.http().get(url);
          expect({ url, status: res.status }).toEqual({ url, status: 404 });
        }
      }
      expect((await t.http().get(ugpt(noel))).body.message).toBe('The user noel has not played sdvx Single.');
    });

    it('finds the user by name, in any case, as well as by id', async () => {
      expect((await t.http().get(ugpt('HANA'))).body.gameStats.userID).toBe(hana.id);
    });
  });

  describe('GET (the profile summary)', () => {
    it('gives the game stats, first and latest timed scores, the score count and the rank under every profile algorithm', async () => {
      const res = await t.http().get(ugpt(hana));
      expect(res.status).toBe(200);
      expect(Object.keys(res.body as object)).toEqual(['gameStats', 'firstScore', 'mostRecentScore', 'totalScores', 'rankingData']);
      expect(res.body.gameStats).toEqual({
        userID: hana.id,
        game: 'sdvx',
        playtype: 'Single',
        ratings: { VF6: expect.any(Number) },
        classes: { vfClass: 'IMPERIAL_III' },
      });
      expect(res.body.gameStats.ratings.VF6).toBeCloseTo(22.692, 10);
      expect(res.body.firstScore).toMatchObject({ scoreID: oldMixScore, chartID: OLD, timeAchieved: T0 - 5 * HOUR });
      expect(res.body.mostRecentScore).toMatchObject({ scoreID: hanaScores[hanaScores.length - 1], chartID: filler(130), timeAchieved: T0 + 130 * MIN });
      expect(res.body.totalScores).toBe(143);
      expect(res.body.rankingData).toEqual({ VF6: { ranking: 1, outOf: 5 } });
    });

    it('ranks ties together and players without a rating last', async () => {
      const rank = async (p: QuickPlayer) => (await t.http().get(ugpt(p))).body.rankingData;
      expect(await rank(ivan)).toEqual({ VF6: { ranking: 2, outOf: 5 } });
      expect(await rank(jun)).toEqual({ VF6: { ranking: 2, outOf: 5 } });
      expect(await rank(lee)).toEqual({ VF6: { ranking: 4, outOf: 5 } });
      expect(await rank(kim)).toEqual({ VF6: { ranking: 5, outOf: 5 } });
    });

    it('has null first and latest scores without timed scores, still counting the untimed ones', async () => {
      expect((await t.http().get(ugpt(lee))).body).toMatchObject({ firstScore: null, mostRecentScore: null, totalScores: 1 });
      expect((await t.http().get(ugpt(kim))).body).toEqual({
        gameStats: { userID: kim.id, game: 'sdvx', playtype: 'Single', ratings: { VF6: null }, classes: { dan: 'DAN_1' } },
        firstScore: null,
        mostRecentScore: null,
        totalScores: 0,
        rankingData: { VF6: { ranking: 5, outOf: 5 } },
      });
    });

    it('matches the __rankingData of /users/:userID/game-stats', async () => {
      const [stats] = (await t.http().get(`/api/v1/users/${ivan.id}/game-stats`)).body;
      expect(stats.__rankingData).toEqual({ VF6: { ranking: 2, outOf: 5 } });
    });
  });

  describe('GET /pbs?search', () => {
    const search = (q: string, p = hana) => t.http().get(ugpt(p, '/pbs')).query({ search: q });

    it('puts the exact title first, then titles containing the search (shorter first), then close words; within a song the latest PB first', async () => {
      const res = await search('blue horizon');
      expect(res.status).toBe(200);
      expect(Object.keys(res.body as object).sort()).toEqual(['charts', 'pbs', 'songs']);
      expect(res.body.pbs.map((p: Pb) => p.chartID)).toEqual([BH, BH_EXH, REMIX, BEYOND, HORIZEN]);
      expect(res.body.pbs[0]).toMatchObject({
        userID: hana.id,
        calculatedData: { VF6: 0.356 },
        timeAchieved: T0 - 2 * HOUR,
        rankingData: { rank: 1, outOf: 1 },
      });
      expect(res.body.songs.map((s: { id: number }) => s.id)).toEqual([1, 2, 3, 4]);
      expect(res.body.charts.map((ch: { chartID: string }) => ch.chartID)).toEqual([BH, BH_EXH, REMIX, BEYOND, HORIZEN]);
      expect(res.body.songs[0]).not.toHaveProperty('__textScore');
    });

    it('matches a substring and a misspelling, case-insensitively, and only the user’s own PBs', async () => {
      expect((await search('REMIX')).body.pbs.map((p: Pb) => p.chartID)).toEqual([REMIX]);
      // "planit" is no substring of anything: a close word
      expect((await search('red planit')).body.pbs.map((p: Pb) => p.chartID)).toEqual([RED]);
      expect((await search('red planit', ivan)).body.pbs.map((p: Pb) => p.userID)).toEqual([ivan.id]);
      expect((await search('zzqqxxjj')).body).toEqual({ songs: [], charts: [], pbs: [] });
      expect((await search('%')).body.pbs).toEqual([]);
    });

    it('gives at most 30', async () => {
      const res = await search('filler');
      expect(res.body.pbs.map((p: Pb) => p.chartID)).toEqual(range(1, 30).map(filler));
      expect(res.body.songs).toHaveLength(30);
    });

    it('400s a missing, blank or too long search and unknown parameters', async () => {
      expect((await t.http().get(ugpt(hana, '/pbs'))).status).toBe(400);
      for (const bad of ['', '  ', 'x'.repeat(201)]) expect((await search(bad)).status).toBe(400);
      expect((await t.http().get(ugpt(hana, '/pbs?search=blue&nope=1'))).status).toBe(400);
    });
  });

  describe('GET /pbs/best', () => {
    it('gives the 100 best PBs on primary charts under the default score algorithm, ties by chart id', async () => {
      const res = await t.http().get(ugpt(hana, '/pbs/best'));
      expect(res.status).toBe(200);
      const pbs = res.body.pbs as Pb[];
      const sorted = (ids: string[]) => [...ids].sort();
      // Old Mix's 0.462 is left out: not a primary chart
      expect(pbs.map((p) => p.chartID)).toEqual([
        ...sorted([
          ...range(1, FILLERS)
            .filter((i) => fillerLevel(i) === 20)
            .map(filler),
          HORIZEN,
        ]),
        ...sorted(
          range(1, FILLERS)
            .filter((i) => fillerLevel(i) === 19)
            .map(filler),
        ),
        ...sorted(
          range(1, FILLERS)
            .filter((i) => fillerLevel(i) === 18)
            .map(filler),
        ),
        REMIX,
      ]);
      expect(pbs.map((p) => p.calculatedData.VF6)).toEqual([...Array(33).fill(0.462), ...Array(33).fill(0.438), ...Array(33).fill(0.415), 0.395]);
      expect(res.body.charts).toHaveLength(100);
      expect(res.body.songs).toHaveLength(100);
      expect((await t.http().get(ugpt(hana, '/pbs/best')).query({ alg: 'VF6' })).body).toEqual(res.body);
    });

    it('400s an algorithm that is not a score algorithm of the GPT', async () => {
      for (const alg of ['ProfileVF6', 'BPI', '']) {
        const res = await t.http().get(ugpt(hana, '/pbs/best')).query({ alg });
        expect({ alg, status: res.status }).toEqual({ alg, status: 400 });
      }
      expect((await t.http().get(ugpt(hana, '/pbs/best')).query({ alg: 'BPI' })).body.message).toContain('Expected one of: VF6');
    });
  });

  describe('GET /pbs/all', () => {
    it('gives every PB, non-primary ones too, the latest first', async () => {
      const res = await t.http().get(ugpt(hana, '/pbs/all'));
      expect(res.status).toBe(200);
      const ids = (res.body.pbs as Pb[]).map((p) => p.chartID);
      expect(ids).toHaveLength(137);
      expect(ids.slice(0, 130)).toEqual(range(130, 1).map(filler));
      expect(ids.slice(-3)).toEqual([BH, BH_EXH, OLD]);
      expect(res.body.charts).toHaveLength(137);
      expect(res.body.songs).toHaveLength(136);
      expect((await t.http().get(ugpt(ivan, '/pbs/all'))).body.pbs.map((p: Pb) => p.chartID)).toEqual([RED]);
    });
  });

  describe('GET /pbs/:chartID', () => {
    it('gives {pb, chart}, and with getComposition the scores the PB is made of', async () => {
      const plain = await t.http().get(ugpt(hana, `/pbs/${BH}`));
      expect(plain.status).toBe(200);
      expect(Object.keys(plain.body as object)).toEqual(['pb', 'chart']);
      expect(plain.body.pb).toMatchObject({
        chartID: BH,
        userID: hana.id,
        scoreData: { score: 9_700_000, lamp: 'EXCESSIVE CLEAR' },
        composedFrom: [
          { name: 'Best Score', scoreID: hanaScores[a] },
          { name: 'Best Lamp', scoreID: hanaScores[b] },
        ],
      });
      expect(plain.body.chart).toMatchObject({ chartID: BH, songID: 1, difficulty: 'MXM', level: '18' });

      const composed = await t.http().get(ugpt(hana, `/pbs/${BH}?getComposition`));
      expect(composed.status).toBe(200);
      expect(composed.body.pb).toEqual(plain.body.pb);
      expect(composed.body.scores.map((s: Score) => s.scoreID)).toEqual([hanaScores[a], hanaScores[b]]);
      expect(composed.body.scores[1]).toMatchObject({ scoreData: { score: 9_200_000, lamp: 'EXCESSIVE CLEAR' }, timeAchieved: T0 - 2 * HOUR });
      // a PB made of one score names it once
      const single = await t
        .http()
        .get(ugpt(hana, `/pbs/${HORIZEN}`))
        .query({ getComposition: '' });
      expect(single.body.scores.map((s: Score) => s.scoreID)).toEqual([hanaScores[9]]);
    });

    it('404s an unknown chart and a chart without a PB of the user', async () => {
      expect((await t.http().get(ugpt(hana, `/pbs/${'0'.repeat(40)}`))).status).toBe(404);
      const none = await t.http().get(ugpt(ivan, `/pbs/${BH}`));
      expect(none.status).toBe(404);
      expect(none.body.message).toBe(`ivan has no PB on the chart ${BH}.`);
    });
  });

  describe('GET /scores?search', () => {
    const search = (q: string) => t.http().get(ugpt(hana, '/scores')).query({ search: q });

    it('gives the scores on matching songs, closest song first, then the latest (untimed last); songs carry __textScore', async () => {
      const res = await search('Blue Horizon');
      expect(res.status).toBe(200);
      expect(res.body.scores.map((s: Score) => s.scoreID)).toEqual([d, b, a, 0, c, 6, 5, 7, 10, 9, 8].map((i) => hanaScores[i]));
      expect(res.body.songs.map((s: { id: number; __textScore: number }) => [s.id, s.__textScore])).toEqual([
        [1, 1],
        [2, 1],
        [3, 1],
        // "blue horizen" shares 10 of the 13 trigrams of "blue horizon"
        [4, expect.closeTo(10 / 13, 5)],
      ]);
      expect(res.body.charts.map((ch: { chartID: string }) => ch.chartID)).toEqual([BH, BH_EXH, REMIX, BEYOND, HORIZEN]);
    });

    it('gives at most 30 and 400s a missing search', async () => {
      const res = await search('filler');
      expect(res.body.scores.map((s: Score) => s.chartID)).toEqual(range(1, 30).map(filler));
      expect((await t.http().get(ugpt(hana, '/scores'))).status).toBe(400);
      expect((await search(' ')).status).toBe(400);
    });
  });

  describe('GET /scores/recent', () => {
    it('gives the 100 latest scores by timeAchieved', async () => {
      const res = await t.http().get(ugpt(hana, '/scores/recent'));
      expect(res.status).toBe(200);
      expect(res.body.scores.map((s: Score) => s.chartID)).toEqual(range(130, 31).map(filler));
      expect(res.body.scores.map((s: Score) => s.timeAchieved)).toEqual(range(130, 31).map((i) => T0 + i * MIN));
      expect(res.body.songs).toHaveLength(100);
      expect(res.body.charts).toHaveLength(100);
    });

    it('follows the timed scores with those without a time, the latest import first', async () => {
      // lee's only score has no time: it is still his most recent
      const lees = await t.http().get(ugpt(lee, '/scores/recent'));
      expect(lees.body.scores.map((s: Score) => [s.chartID, s.timeAchieved])).toEqual([[BH_EXH, null]]);
      expect(lees.body.charts.map((ch: { chartID: string }) => ch.chartID)).toEqual([BH_EXH]);

      const mia = await quickPlayer(t, 'mia');
      const first = await importAs(t, mia, [play(2, 'MXM', 9_000_000, 'CLEAR', T0), play(3, 'MXM', 9_000_000, 'CLEAR', null)]);
      // a later import (timeAdded) than the first
      await new Promise((resolve) => setTimeout(resolve, 5));
      const second = await importAs(t, mia, [play(4, 'MXM', 9_000_000, 'CLEAR', null), play(5, 'MXM', 9_000_000, 'CLEAR', T0 + HOUR)]);
      const res = await t.http().get(ugpt(mia, '/scores/recent'));
      expect(res.body.scores.map((s: Score) => s.scoreID)).toEqual([second.scoreIDs[1], first.scoreIDs[0], second.scoreIDs[0], first.scoreIDs[1]]);
      expect(res.body.scores.map((s: Score) => s.timeAchieved)).toEqual([T0 + HOUR, T0, null, null]);
    });
  });

  describe('GET /most-played', () => {
    it('gives the 100 PBs with the most plays of the user, with __playcount, then the latest PB first', async () => {
      const res = await t.http().get(ugpt(hana, '/most-played'));
      expect(res.status).toBe(200);
      const pbs = res.body.pbs as Pb[];
      expect(pbs.map((p) => [p.chartID, p.__playcount])).toEqual([[BH, 4], [HORIZEN, 3], [REMIX, 2], ...range(130, 34).map((i) => [filler(i), 1])]);
      expect(res.body.songs.slice(0, 3).map((s: { id: number }) => s.id)).toEqual([1, 4, 2]);
      expect(res.body.charts).toHaveLength(100);
      expect((await t.http().get(ugpt(kim, '/most-played'))).body).toEqual({ songs: [], charts: [], pbs: [] });
    });
  });
});
