import { afterAll, afterEach, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { CLASS_DISTRIBUTION_TTL_MS } from '../../src/games/gpt-leaderboards.service.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { danWithoutScores, importAs, lbChart, loadLeaderboardCatalog, play, quickPlayer, type QuickPlayer } from '../support/leaderboard-fixtures.js';
import { bearer } from '../support/users.js';

const MIN = 60_000;
const DAY = 24 * 60 * MIN;
const T0 = Date.UTC(2024, 1, 1, 12);
const GPT = '/api/v1/games/sdvx/Single';
const PUC = 'PERFECT ULTIMATE CHAIN';

const BH = lbChart(1, 'MXM'); // Blue Horizon MXM, level 18
const BEYOND = lbChart(3, 'MXM'); // level 18
const RED = lbChart(5, 'MXM'); // level 20
const OLD = lbChart(6, 'EXH'); // level 20, not primary

/*
 * VF6 = floor(level × 2 × score/1e7 × grade × lamp × 1000) / 1000, with grade S 1.05, AA+ 0.97,
 * AA 0.94, A+ 0.91, B 0.85 and lamp PUC 1.1, CLEAR 1, FAILED 0.5. Profile VF6 = the sum of the
 * best 50 on primary charts; null without any.
 *   PUC on level 18: 36 × 1.05 × 1.1 = 41.58 → 0.415;   on level 20: 40 × 1.155 = 46.2 → 0.462
 *   bulk_i: Blue Horizon MXM CLEAR, 9,000,000 + floor(i/2) × 10,000 (pairs tie), all at one time:
 *     9,490,000 AA: 36 × 0.949 × 0.94 = 32.11416 → 0.321   (bulk_098, bulk_099)
 *     9,480,000, 9,470,000, 9,460,000 AA: 32.080, 32.046, 32.012 → 0.320  (bulk_092 … bulk_097)
 *     9,450,000 AA: 31.9788 → 0.319
 *   kai_pro: 8,500,000 B FAILED: 36 × 0.85 × 0.85 × 0.5 = 13.005 → 0.130
 *   kai:     8,000,000 B FAILED: 36 × 0.80 × 0.85 × 0.5 = 12.24  → 0.122
 * Players (in creation order, so by ascending id): bulk_000 … bulk_099, alice, bob, carol, dave,
 * erin, kai, kai_pro.
 *   alice  Blue Horizon PUC (T0+10m) + Red Planet PUC (T0+20m), dan DAN_5 → 0.415 + 0.462 = 0.877
 *   bob    Blue Horizon PUC (T0+5m), dan DAN_5 → 0.415
 *   carol  Beyond PUC (T0+30m) → 0.415 (ties bob)
 *   dave   dan DAN_3 only (his one score deleted) → null
 *   erin   Old Mix PUC (non-primary, version booth) → PB 0.462, profile null
 *   kai    Blue Horizon 8,000,000 FAILED, no time → 0.122
 *   kai_pro Blue Horizon 8,500,000 FAILED (T0+40m) → 0.130
 * Blue Horizon MXM ranks: bob 1 (PUC first), alice 2, then the bulk pairs best first, the lower
 * id first within a pair (same score, same time): bulk_098 3, bulk_099 4, bulk_096 5, …,
 * bulk_000 101, bulk_001 102, kai_pro 103, kai 104.
 */
describe('GPT leaderboards (/games/:game/:playtype)', () => {
  let t: TestApp;
  let bulk: QuickPlayer[];
  let alice: QuickPlayer, bob: QuickPlayer, carol: QuickPlayer, dave: QuickPlayer, erin: QuickPlayer, kai: QuickPlayer, kaiPro: QuickPlayer;
  const scoreIDs: Record<string, string[]> = {};

  /** The Blue Horizon MXM order: bob, alice, the bulk pairs from the best, kai_pro, kai. */
  const chartOrder = () => [
    bob.username,
    alice.username,
    ...Array.from({ length: 50 }, (_, k) => 49 - k).flatMap((pair) => [
      `bulk_${String(2 * pair).padStart(3, '0')}`,
      `bulk_${String(2 * pair + 1).padStart(3, '0')}`,
    ]),
    kaiPro.username,
    kai.username,
  ];

  beforeAll(async () => {
    t = await createTestApp();
    await loadLeaderboardCatalog(t);
    bulk = [];
    for (let i = 0; i < 100; i++) {
      const p = await quickPlayer(t, `bulk_${String(i).padStart(3, '0')}`);
      await importAs(t, p, [play(1, 'MXM', 9_000_000 + Math.floor(i / 2) * 10_000, 'CLEAR', T0 - DAY)]);
      bulk.push(p);
    }
    alice = await quickPlayer(t, 'alice');
    bob = await quickPlayer(t, 'bob');
    carol = await quickPlayer(t, 'carol');
    dave = await quickPlayer(t, 'dave', ['submit_score', 'delete_score']);
    erin = await quickPlayer(t, 'erin');
    kai = await quickPlayer(t, 'kai');
    kaiPro = await quickPlayer(t, 'kai_pro');
    scoreIDs.alice = (
      await importAs(t, alice, [play(1, 'MXM', 10_000_000, PUC, T0 + 10 * MIN), play(5, 'MXM', 10_000_000, PUC, T0 + 20 * MIN)], { classes: { dan: 'DAN_5' } })
    ).scoreIDs;
    scoreIDs.bob = (await importAs(t, bob, [play(1, 'MXM', 10_000_000, PUC, T0 + 5 * MIN)], { classes: { dan: 'DAN_5' } })).scoreIDs;
    scoreIDs.carol = (await importAs(t, carol, [play(3, 'MXM', 10_000_000, PUC, T0 + 30 * MIN)])).scoreIDs;
    await danWithoutScores(t, dave, 'DAN_3');
    scoreIDs.erin = (await importAs(t, erin, [play(6, 'EXH', 10_000_000, PUC, T0 + 50 * MIN)], { version: 'booth' })).scoreIDs;
    scoreIDs.kai = (await importAs(t, kai, [play(1, 'MXM', 8_000_000, 'FAILED', null)])).scoreIDs;
    scoreIDs.kaiPro = (await importAs(t, kaiPro, [play(1, 'MXM', 8_500_000, 'FAILED', T0 + 40 * MIN)])).scoreIDs;
  }, 180_000);
  afterAll(async () => {
    await t.close();
  });

  type Stats = { userID: number; ratings: { VF6: number | null } };
  type Pb = { userID: number; chartID: string; calculatedData: { VF6: number }; rankingData: { rank: number; outOf: number } };
  const name = (id: number) => [...bulk, alice, bob, carol, dave, erin, kai, kaiPro].find((p) => p.id === id)!.username;

  describe('GET /leaderboard', () => {
    it('sorts the profiles by the default profile rating, ties by user id, players without a rating last', async () => {
      const res = await t.http().get(`${GPT}/leaderboard`).query({ limit: 500 });
      expect(res.status).toBe(200);
      const stats = res.body.gameStats as Stats[];
      expect(stats).toHaveLength(107);
      expect(stats.slice(0, 11).map((s) => [name(s.userID), s.ratings.VF6])).toEqual([
        ['alice', 0.877],
        ['bob', 0.415],
        ['carol', 0.415],
        ['bulk_098', 0.321],
        ['bulk_099', 0.321],
        ['bulk_092', 0.32],
        ['bulk_093', 0.32],
        ['bulk_094', 0.32],
        ['bulk_095', 0.32],
        ['bulk_096', 0.32],
        ['bulk_097', 0.32],
      ]);
      expect(stats.slice(-4).map((s) => [name(s.userID), s.ratings.VF6])).toEqual([
        ['kai_pro', 0.13],
        ['kai', 0.122],
        ['dave', null],
        ['erin', null],
      ]);
      // the whole list: ratings never rise, and equal ratings go by user id
      for (let i = 1; i < stats.length; i++) {
        const [a, b] = [stats[i - 1], stats[i]];
        const [ra, rb] = [a.ratings.VF6 ?? -Infinity, b.ratings.VF6 ?? -Infinity];
        expect(ra > rb || (ra === rb && a.userID < b.userID)).toBe(true);
      }
      expect(res.body.users.map((u: { id: number }) => u.id)).toEqual(stats.map((s) => s.userID));
      expect(res.body.users[0]).toMatchObject({ id: alice.id, username: 'alice' });
      expect(res.body.users[0]).not.toHaveProperty('email');
      expect(stats[0]).toEqual({ userID: alice.id, game: 'sdvx', playtype: 'Single', ratings: { VF6: 0.877 }, classes: { dan: 'DAN_5', vfClass: 'SIENNA_I' } });
    });

    it('gives 100 by default and takes a limit from 1 to 500', async () => {
      const all = (await t.http().get(`${GPT}/leaderboard`).query({ limit: 500 })).body.gameStats as Stats[];
      const byDefault = await t.http().get(`${GPT}/leaderboard`);
      expect(byDefault.status).toBe(200);
      expect(byDefault.body.gameStats).toEqual(all.slice(0, 100));
      expect(byDefault.body.users).toHaveLength(100);
      const one = await t.http().get(`${GPT}/leaderboard`).query({ limit: 1, alg: 'VF6' });
      expect(one.body.gameStats.map((s: Stats) => s.userID)).toEqual([alice.id]);
      expect(one.body.users.map((u: { id: number }) => u.id)).toEqual([alice.id]);
      for (const bad of ['501', '0', '-1', '1.5', 'abc', '1e2', '0x10', ' 5', '']) {
        const res = await t.http().get(`${GPT}/leaderboard`).query({ limit: bad });
        expect({ bad, status: res.status }).toEqual({ bad, status: 400 });
      }
      expect((await t.http().get(`${GPT}/leaderboard?limit=5&limit=6`)).status).toBe(400);
      expect((await t.http().get(`${GPT}/leaderboard`).query({ limit: 501 })).body.message).toContain('limit must be an integer from 1 to 500');
    });

    it('400s an algorithm that is not a profile algorithm of the GPT, naming the valid ones', async () => {
      for (const alg of ['ProfileVF6', 'naiveRating', 'vf6', 'constructor']) {
        const res = await t.http().get(`${GPT}/leaderboard`).query({ alg });
        expect({ alg, status: res.status }).toEqual({ alg, status: 400 });
        expect(res.body.message).toContain('Expected one of: VF6');
      }
      expect((await t.http().get(`${GPT}/leaderboard?nope=1`)).status).toBe(400);
    });

    it('404s an unknown game or playtype, and is empty for a GPT nobody played', async () => {
      expect((await t.http().get('/api/v1/games/nope/Single/leaderboard')).status).toBe(404);
      expect((await t.http().get('/api/v1/games/sdvx/Double/leaderboard')).status).toBe(404);
      const usc = await t.http().get('/api/v1/games/usc/Controller/leaderboard');
      expect(usc.status).toBe(200);
      expect(usc.body).toEqual({ gameStats: [], users: [] });
    });

    it('agrees with each player’s rankingData: 1 + the players strictly better, out of all players', async () => {
      const ranking = async (p: QuickPlayer) => (await t.http().get(`/api/v1/users/${p.id}/games/sdvx/Single`)).body.rankingData;
      expect(await ranking(alice)).toEqual({ VF6: { ranking: 1, outOf: 107 } });
      expect(await ranking(bob)).toEqual({ VF6: { ranking: 2, outOf: 107 } });
      expect(await ranking(carol)).toEqual({ VF6: { ranking: 2, outOf: 107 } });
      expect(await ranking(bulk[98])).toEqual({ VF6: { ranking: 4, outOf: 107 } });
      expect(await ranking(bulk[99])).toEqual({ VF6: { ranking: 4, outOf: 107 } });
      expect(await ranking(bulk[92])).toEqual({ VF6: { ranking: 6, outOf: 107 } });
      expect(await ranking(kai)).toEqual({ VF6: { ranking: 105, outOf: 107 } });
      // without a rating: after the 105 rated players
      expect(await ranking(dave)).toEqual({ VF6: { ranking: 106, outOf: 107 } });
      expect(await ranking(erin)).toEqual({ VF6: { ranking: 106, outOf: 107 } });
      const gameStats = await t.http().get(`/api/v1/users/${dave.id}/game-stats`);
      expect(gameStats.body).toEqual([
        {
          userID: dave.id,
          game: 'sdvx',
          playtype: 'Single',
          ratings: { VF6: null },
          classes: { dan: 'DAN_3' },
          __rankingData: { VF6: { ranking: 106, outOf: 107 } },
        },
      ]);
    });
  });

  describe('GET /charts/:chartID/pbs', () => {
    it('gives the 100 PBs from rank 1, by rank, with their users; ranks are unique and ties go to the earlier play, then the lower id', async () => {
      const res = await t.http().get(`${GPT}/charts/${BH}/pbs`);
      expect(res.status).toBe(200);
      const pbs = res.body.pbs as Pb[];
      expect(pbs).toHaveLength(100);
      expect(pbs.map((p) => p.rankingData)).toEqual(Array.from({ length: 100 }, (_, i) => ({ rank: i + 1, outOf: 104 })));
      expect(pbs.map((p) => name(p.userID))).toEqual(chartOrder().slice(0, 100));
      expect(res.body.users.map((u: { username: string }) => u.username)).toEqual(chartOrder().slice(0, 100));
      expect(pbs[0]).toMatchObject({
        userID: bob.id,
        chartID: BH,
        game: 'sdvx',
        playtype: 'Single',
        scoreData: { score: 10_000_000, lamp: PUC },
        calculatedData: { VF6: 0.415 },
      });
    });

    it('starts at startRanking, inclusive', async () => {
      const from5 = await t.http().get(`${GPT}/charts/${BH}/pbs`).query({ startRanking: 5 });
      expect(from5.body.pbs.map((p: Pb) => p.rankingData.rank)).toEqual(Array.from({ length: 100 }, (_, i) => i + 5));
      expect(from5.body.pbs.map((p: Pb) => name(p.userID))).toEqual(chartOrder().slice(4));
      const from101 = await t.http().get(`${GPT}/charts/${BH}/pbs`).query({ startRanking: 101 });
      expect(from101.body.pbs.map((p: Pb) => [name(p.userID), p.rankingData.rank])).toEqual([
        ['bulk_000', 101],
        ['bulk_001', 102],
        ['kai_pro', 103],
        ['kai', 104],
      ]);
      expect((await t.http().get(`${GPT}/charts/${BH}/pbs`).query({ startRanking: 105 })).body).toEqual({ pbs: [], users: [] });
      expect((await t.http().get(`${GPT}/charts/${BH}/pbs`).query({ startRanking: 2147483647 })).body).toEqual({ pbs: [], users: [] });
    });

    it('400s a startRanking that is not an integer of at least 1', async () => {
      for (const bad of ['0', '-1', '1.5', 'abc', '', '2147483648', '99999999999']) {
        const res = await t.http().get(`${GPT}/charts/${BH}/pbs`).query({ startRanking: bad });
        expect({ bad, status: res.status }).toEqual({ bad, status: 400 });
      }
    });

    it('404s a chart that is not the GPT’s, and is empty for an unplayed chart', async () => {
      expect((await t.http().get(`${GPT}/charts/${'0'.repeat(40)}/pbs`)).status).toBe(404);
      expect((await t.http().get(`/api/v1/games/usc/Controller/charts/${BH}/pbs`)).status).toBe(404);
      const unplayed = await t.http().get(`${GPT}/charts/${lbChart(2, 'MXM')}/pbs`);
      expect(unplayed.status).toBe(200);
      expect(unplayed.body).toEqual({ pbs: [], users: [] });
    });
  });

  describe('GET /charts/:chartID/pbs/search', () => {
    const search = (q: string, chart = BH) => t.http().get(`${GPT}/charts/${chart}/pbs/search`).query({ search: q });

    it('finds the PBs of users whose name contains the text, case-insensitively, by rank', async () => {
      const res = await search('BULK_09');
      expect(res.status).toBe(200);
      expect(res.body.pbs.map((p: Pb) => [name(p.userID), p.rankingData.rank])).toEqual([
        ['bulk_098', 3],
        ['bulk_099', 4],
        ['bulk_096', 5],
        ['bulk_097', 6],
        ['bulk_094', 7],
        ['bulk_095', 8],
        ['bulk_092', 9],
        ['bulk_093', 10],
        ['bulk_090', 11],
        ['bulk_091', 12],
      ]);
      expect(res.body.users.map((u: { username: string }) => u.username)).toEqual(res.body.pbs.map((p: Pb) => name(p.userID)));
    });

    it('gives at most 25, and puts the exact username first', async () => {
      const many = await search('bulk');
      expect(many.body.pbs.map((p: Pb) => p.rankingData.rank)).toEqual(Array.from({ length: 25 }, (_, i) => i + 3));
      // kai_pro ranks above kai, but "kai" is kai's exact name
      expect((await search('kai')).body.pbs.map((p: Pb) => name(p.userID))).toEqual(['kai', 'kai_pro']);
      // carol and dave have no PB on this chart
      expect((await search('carol')).body).toEqual({ pbs: [], users: [] });
      expect((await search('carol', BEYOND)).body.pbs.map((p: Pb) => name(p.userID))).toEqual(['carol']);
    });

    it('ignores spaces around the search, as the other searches do', async () => {
      expect((await search('  kai ')).body.pbs.map((p: Pb) => name(p.userID))).toEqual(['kai', 'kai_pro']);
      const long = await search(` ${'k'.repeat(200)} `);
      expect(long.status).toBe(200);
      expect(long.body).toEqual({ pbs: [], users: [] });
    });

    it('takes LIKE wildcards literally', async () => {
      expect((await search('%')).body.pbs).toEqual([]);
      expect((await search('b_lk')).body.pbs).toEqual([]);
      expect((await search('kai_')).body.pbs.map((p: Pb) => name(p.userID))).toEqual(['kai_pro']);
    });

    it('400s a missing, empty or blank search and 404s an unknown chart', async () => {
      expect((await t.http().get(`${GPT}/charts/${BH}/pbs/search`)).status).toBe(400);
      expect((await search('')).status).toBe(400);
      expect((await search('   ')).status).toBe(400);
      expect((await search('x'.repeat(201))).status).toBe(400);
      expect((await search('kai', 'nope')).status).toBe(404);
    });
  });

  describe('GET /pb-leaderboard', () => {
    it('gives the best PBs of the GPT under the default score algorithm, ties by user id, non-primary charts included', async () => {
      const res = await t.http().get(`${GPT}/pb-leaderboard`);
      expect(res.status).toBe(200);
      const pbs = res.body.pbs as Pb[];
      expect(pbs).toHaveLength(50);
      expect(pbs.slice(0, 7).map((p) => [name(p.userID), p.chartID, p.calculatedData.VF6])).toEqual([
        ['alice', RED, 0.462],
        ['erin', OLD, 0.462],
        ['alice', BH, 0.415],
        ['bob', BH, 0.415],
        ['carol', BEYOND, 0.415],
        ['bulk_098', BH, 0.321],
        ['bulk_099', BH, 0.321],
      ]);
      const values = pbs.map((p) => p.calculatedData.VF6);
      expect(values).toEqual([...values].sort((a, b) => b - a));
      expect(res.body.users.map((u: { username: string }) => u.username).slice(0, 5)).toEqual(['alice', 'erin', 'bob', 'carol', 'bulk_098']);
      expect(res.body.charts.map((c: { chartID: string }) => c.chartID)).toEqual([RED, OLD, BH, BEYOND]);
      expect(res.body.songs.map((s: { id: number; title: string }) => [s.id, s.title])).toEqual([
        [5, 'Red Planet'],
        [6, 'Old Mix'],
        [1, 'Blue Horizon'],
        [3, 'Beyond the Blue Horizon Line'],
      ]);
    });

    it('takes a limit from 1 to 50 and an algorithm of the GPT', async () => {
      const two = await t.http().get(`${GPT}/pb-leaderboard`).query({ limit: 2, alg: 'VF6' });
      expect(two.body.pbs.map((p: Pb) => name(p.userID))).toEqual(['alice', 'erin']);
      expect((await t.http().get(`${GPT}/pb-leaderboard`).query({ limit: 50 })).body.pbs).toHaveLength(50);
      for (const bad of ['51', '0', 'x', '2.5']) {
        const res = await t.http().get(`${GPT}/pb-leaderboard`).query({ limit: bad });
        expect({ bad, status: res.status }).toEqual({ bad, status: 400 });
      }
      const badAlg = await t.http().get(`${GPT}/pb-leaderboard`).query({ alg: 'ProfileVF6' });
      expect(badAlg.status).toBe(400);
      expect(badAlg.body.message).toContain("Invalid score rating algorithm 'ProfileVF6'. Expected one of: VF6");
    });
  });

  describe('GET /player-distribution', () => {
    it('counts the players holding each value of a class, in the class order, leaving out values nobody holds', async () => {
      const dan = await t.http().get(`${GPT}/player-distribution`).query({ class: 'dan' });
      expect(dan.status).toBe(200);
      expect(dan.body).toEqual({ DAN_3: 1, DAN_5: 2 });
      expect(Object.keys(dan.body as object)).toEqual(['DAN_3', 'DAN_5']);
      // every rated player is below 2.5 VF; dave and erin have no rating and so no vfClass
      expect((await t.http().get(`${GPT}/player-distribution`).query({ class: 'vfClass' })).body).toEqual({ SIENNA_I: 105 });
      expect((await t.http().get('/api/v1/games/usc/Controller/player-distribution').query({ class: 'vfClass' })).body).toEqual({});
    });

    it('400s a class the GPT does not have, and class together with limit', async () => {
      const bad = await t.http().get(`${GPT}/player-distribution`).query({ class: 'colour' });
      expect(bad.status).toBe(400);
      expect(bad.body.message).toContain('Expected one of: dan, vfClass');
      expect((await t.http().get(`${GPT}/player-distribution`).query({ class: 'dan', limit: 5 })).status).toBe(400);
      expect((await t.http().get(`${GPT}/player-distribution`).query({ class: '' })).status).toBe(400);
    });

    it('without class gives the latest class updates of all users, newest first (10 by default, up to 50)', async () => {
      const res = await t.http().get(`${GPT}/player-distribution`);
      expect(res.status).toBe(200);
      type Achievement = { userID: number; classSet: string; classOldValue: string | null; classValue: string; timeAchieved: number };
      const classes = res.body.classes as Achievement[];
      // setup order: the bulk players, then alice … kai_pro; within an import the provided dan comes before the derived vfClass
      expect(classes.map((c) => [name(c.userID), c.classSet, c.classOldValue, c.classValue])).toEqual([
        ['kai_pro', 'vfClass', null, 'SIENNA_I'],
        ['kai', 'vfClass', null, 'SIENNA_I'],
        ['dave', 'dan', null, 'DAN_3'],
        ['carol', 'vfClass', null, 'SIENNA_I'],
        ['bob', 'vfClass', null, 'SIENNA_I'],
        ['bob', 'dan', null, 'DAN_5'],
        ['alice', 'vfClass', null, 'SIENNA_I'],
        ['alice', 'dan', null, 'DAN_5'],
        ['bulk_099', 'vfClass', null, 'SIENNA_I'],
        ['bulk_098', 'vfClass', null, 'SIENNA_I'],
      ]);
      expect(Object.keys(classes[0]).sort()).toEqual(['classOldValue', 'classSet', 'classValue', 'game', 'playtype', 'timeAchieved', 'userID']);
      expect(classes[0]).toMatchObject({ game: 'sdvx', playtype: 'Single' });
      const times = classes.map((c) => c.timeAchieved);
      expect(times).toEqual([...times].sort((a, b) => b - a));
      expect(res.body.users.map((u: { username: string }) => u.username)).toEqual(['kai_pro', 'kai', 'dave', 'carol', 'bob', 'alice', 'bulk_099', 'bulk_098']);

      const max = await t.http().get(`${GPT}/player-distribution`).query({ limit: 50 });
      expect(max.body.classes).toHaveLength(50);
      expect(max.body.classes.slice(0, 10)).toEqual(classes);
      expect((await t.http().get(`${GPT}/player-distribution`).query({ limit: 1 })).body.classes).toEqual(classes.slice(0, 1));
      for (const bad of ['51', '0', 'ten']) {
        const r = await t.http().get(`${GPT}/player-distribution`).query({ limit: bad });
        expect({ bad, status: r.status }).toEqual({ bad, status: 400 });
      }
    });
  });

  describe('GET /scores/highlighted', () => {
    beforeAll(async () => {
      // alice's Red Planet (T0+20m), bob's Blue Horizon (T0+5m), carol's Beyond (T0+30m), kai's score without a time
      for (const [p, id] of [
        [alice, scoreIDs.alice[1]],
        [bob, scoreIDs.bob[0]],
        [carol, scoreIDs.carol[0]],
        [kai, scoreIDs.kai[0]],
      ] as const) {
        const res = await t.http().patch(`/api/v1/scores/${id}`).set(bearer(p.token)).send({ highlight: true });
        expect(res.status).toBe(200);
      }
    });

    it('gives the highlighted scores, most recently achieved first and those without a time last, with users, songs and charts', async () => {
      const res = await t.http().get(`${GPT}/scores/highlighted`);
      expect(res.status).toBe(200);
      const scores = res.body.scores as { scoreID: string; userID: number; highlighted: boolean; timeAchieved: number | null }[];
      expect(scores.map((s) => [s.scoreID, s.timeAchieved])).toEqual([
        [scoreIDs.carol[0], T0 + 30 * MIN],
        [scoreIDs.alice[1], T0 + 20 * MIN],
        [scoreIDs.bob[0], T0 + 5 * MIN],
        [scoreIDs.kai[0], null],
      ]);
      expect(scores.every((s) => s.highlighted)).toBe(true);
      expect(res.body.users.map((u: { username: string }) => u.username)).toEqual(['carol', 'alice', 'bob', 'kai']);
      expect(res.body.charts.map((c: { chartID: string }) => c.chartID)).toEqual([BEYOND, RED, BH]);
      expect(res.body.songs.map((s: { id: number }) => s.id)).toEqual([3, 5, 1]);
    });

    it('takes a limit from 1 to 100', async () => {
      const two = await t.http().get(`${GPT}/scores/highlighted`).query({ limit: 2 });
      expect(two.body.scores.map((s: { scoreID: string }) => s.scoreID)).toEqual([scoreIDs.carol[0], scoreIDs.alice[1]]);
      expect(two.body.users.map((u: { username: string }) => u.username)).toEqual(['carol', 'alice']);
      expect((await t.http().get(`${GPT}/scores/highlighted`).query({ limit: 100 })).body.scores).toHaveLength(4);
      for (const bad of ['101', '0', 'all']) {
        const r = await t.http().get(`${GPT}/scores/highlighted`).query({ limit: bad });
        expect({ bad, status: r.status }).toEqual({ bad, status: 400 });
      }
      expect((await t.http().get('/api/v1/games/usc/Controller/scores/highlighted')).body).toEqual({ scores: [], users: [], songs: [], charts: [] });
    });
  });

  // Last: it adds a player.
  describe('GET /player-distribution?class= caching', () => {
    afterEach(() => {
      jest.restoreAllMocks();
    });

    it(`reuses a distribution for ${CLASS_DISTRIBUTION_TTL_MS / 1000} s per GPT and class set, then counts again`, async () => {
      const realNow = Date.now.bind(Date);
      let offset = 0;
      jest.spyOn(Date, 'now').mockImplementation(() => realNow() + offset);
      const distribution = async (classSet: string) =>
        (await t.http().get(`${GPT}/player-distribution`).query({ class: classSet })).body as Record<string, number>;
      // Past anything an earlier test cached.
      offset = 2 * CLASS_DISTRIBUTION_TTL_MS;
      expect(await distribution('dan')).toEqual({ DAN_3: 1, DAN_5: 2 });

      const fay = await quickPlayer(t, 'fay');
      await importAs(t, fay, [play(3, 'MXM', 9_000_000, 'CLEAR', T0)], { classes: { dan: 'DAN_7' } });
      expect(await distribution('dan')).toEqual({ DAN_3: 1, DAN_5: 2 });
      // Another class set is its own entry, counted now.
      expect(await distribution('vfClass')).toEqual({ SIENNA_I: 106 });

      offset += CLASS_DISTRIBUTION_TTL_MS + 1;
      expect(await distribution('dan')).toEqual({ DAN_3: 1, DAN_5: 2, DAN_7: 1 });
    });
  });
});
