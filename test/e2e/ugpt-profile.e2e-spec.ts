import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import path from 'node:path';
import { SeedLoader } from '../../src/seeds/seed-loader.js';
import { SeedSource } from '../../src/seeds/seed-source.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { fixtureChartID, importSdvx, loadScoreFixtures, sdvxScore, type SdvxDifficulty } from '../support/score-fixtures.js';
import { bearer, issueToken, signUp, type SignedUpUser } from '../support/users.js';

const T0 = Date.UTC(2024, 4, 1, 12);
const MIN = 60_000;
const PUC = 'PERFECT ULTIMATE CHAIN';

/**
 * Folders over the score fixtures (test/fixtures/ugpt/folders.json): levelNum ≥ 17 holds EXH 5,
 * 6, 7 and MXM 1–7 (10 charts); level 20 holds MXM 4, 5, 7; the third belongs to iidx SP.
 */
const LEVEL_17_UP = 'F1c272465d41e52cf1cc2b351493efe2a29753674310cb1f52802399c5bbe7c23';
const LEVEL_20 = 'Fde22538ff5c29b0cfe100e213e575988500196175709c4d9f448862ba7503d27';
const IIDX_FOLDER = 'Fa381b9d7680003af5a6c5623487f5d99acf17c0ca1b9e15f08b51bd75f404a43';

/**
 * Player k (1–12) has PUCs on the first k of these. A PUC's VF6 is level × 2 × 105 × 110 / 1e6
 * floored to 0.001: 14 → 0.323, 15 → 0.346, 16 → 0.369, 17 → 0.392, 18 → 0.415, 19 → 0.438,
 * 20 → 0.462. Profile VF6 sums them: R1 0.323, R2 0.669, R3 1.038, R4 1.430, R5 1.845, R6 2.283, … R12.
 */
const LADDER: [number, SdvxDifficulty][] = [
  [1, 'EXH'],
  [2, 'EXH'],
  [3, 'EXH'],
  [5, 'EXH'],
  [7, 'EXH'],
  [3, 'MXM'],
  [4, 'MXM'],
  [5, 'MXM'],
  [7, 'MXM'],
  [6, 'MXM'],
  [4, 'EXH'],
  [6, 'EXH'],
];

/**
 * The showcase player. VF6 (grade coefficient × lamp coefficient):
 * 1-EXH (14) 9,500,000 AA+ EXCESSIVE CLEAR: 28 × 0.95 × 97 × 102 / 1e6 = 0.263 (an earlier 9,000,000 CLEAR is not the PB);
 * 4-MXM (20) 9,850,000 AAA+ ULTIMATE CHAIN: 40 × 0.985 × 102 × 105 / 1e6 = 0.421;
 * 5-MXM (20) 8,800,000 A CLEAR: 40 × 0.88 × 88 × 100 / 1e6 = 0.309;
 * 7-EXH (18) PUC: 0.415. Profile VF6 1.408: between R3 and R4.
 */
const SHOWCASE_SCORES = [
  sdvxScore(1, 'EXH', 9_000_000, 'CLEAR', T0),
  sdvxScore(1, 'EXH', 9_500_000, 'EXCESSIVE CLEAR', T0 + 5 * MIN),
  sdvxScore(4, 'MXM', 9_850_000, 'ULTIMATE CHAIN', T0 + 10 * MIN),
  sdvxScore(5, 'MXM', 8_800_000, 'CLEAR', T0 + 15 * MIN),
  sdvxScore(7, 'EXH', 10_000_000, PUC, T0 + 20 * MIN),
];

interface Stats {
  userID: number;
  game: string;
  playtype: string;
  ratings: Record<string, number | null>;
  classes: Record<string, string>;
}

describe('UGPT profile: leaderboard-adjacent, settings, showcase', () => {
  let t: TestApp;
  /** ladder[k] is player k (1–12); ladder[0] is unused. */
  const ladder: SignedUpUser[] = [];
  /** Tied with player 6, registered after them. */
  let tied: SignedUpUser;
  /** Played (with a provided dan, which keeps the profile), then deleted their only score: no rating. */
  let unrated: SignedUpUser;
  let showcaser: SignedUpUser;
  /** Never played sdvx. */
  let newcomer: SignedUpUser;
  const PLAYERS = 15;

  const ugpt = (user: SignedUpUser | string | number, rest: string) =>
    `/api/v1/users/${typeof user === 'object' ? user.user.id : user}/games/sdvx/Single${rest}`;
  const chart = (song: number, diff: SdvxDifficulty) => fixtureChartID(song, diff);

  beforeAll(async () => {
    t = await createTestApp();
    await loadScoreFixtures(t);
    const report = await new SeedLoader(t.database).load(new SeedSource(path.resolve('test/fixtures/ugpt')), { games: ['sdvx', 'iidx'] });
    expect(report.rejected).toEqual([]);
    expect(report.warnings).toEqual([]);

    ladder.push(undefined as unknown as SignedUpUser);
    for (let k = 1; k <= 12; k++) {
      const u = await signUp(t);
      await importSdvx(
        u.agent,
        LADDER.slice(0, k).map(([song, diff], i) => sdvxScore(song, diff, 10_000_000, PUC, T0 + i * MIN)),
      );
      ladder.push(u);
    }
    tied = await signUp(t);
    await importSdvx(
      tied.agent,
      LADDER.slice(0, 6).map(([song, diff], i) => sdvxScore(song, diff, 10_000_000, PUC, T0 + i * MIN)),
    );
    unrated = await signUp(t);
    const doc = await importSdvx(unrated.agent, [sdvxScore(2, 'EXH', 9_000_000, 'CLEAR', T0)], { classes: { dan: 'DAN_1' } });
    expect((await unrated.agent.delete(`/api/v1/scores/${doc.scoreIDs[0]}`)).status).toBe(200);
    showcaser = await signUp(t);
    await importSdvx(showcaser.agent, SHOWCASE_SCORES);
    newcomer = await signUp(t);
  }, 120_000);
  afterAll(async () => {
    await t.close();
  });

  describe('GET /leaderboard-adjacent', () => {
    const adjacent = async (u: SignedUpUser, query = '') => {
      const res = await t.http().get(ugpt(u, `/leaderboard-adjacent${query}`));
      expect(res.status).toBe(200);
      const body = res.body as {
        above: Stats[];
        below: Stats[];
        users: { id: number }[];
        thisUsersStats: Stats;
        thisUsersRanking: { ranking: number; outOf: number };
      };
      return { ...body, aboveIDs: body.above.map((s) => s.userID), belowIDs: body.below.map((s) => s.userID) };
    };
    const id = (u: SignedUpUser) => u.user.id;

    it('gives the hand-worked ratings the order R1 < R2 < R3 < showcase < R4 < R5 < R6 = tied < R7 …', async () => {
      const vf6 = async (u: SignedUpUser) => (await adjacent(u)).thisUsersStats.ratings.VF6;
      expect(await vf6(ladder[3])).toBeCloseTo(1.038, 10);
      expect(await vf6(showcaser)).toBeCloseTo(1.408, 10);
      expect(await vf6(ladder[4])).toBeCloseTo(1.43, 10);
      expect(await vf6(tied)).toBe(await vf6(ladder[6]));
      expect(await vf6(unrated)).toBeNull();
    });

    it('puts 5 strictly better above and ties below, best first, with the shared rank', async () => {
      const res = await adjacent(tied);
      expect(
        Object.keys(res)
          .filter((k) => !k.endsWith('IDs'))
          .sort(),
      ).toEqual(['above', 'below', 'thisUsersRanking', 'thisUsersStats', 'users']);
      expect(res.aboveIDs).toEqual([11, 10, 9, 8, 7].map((k) => id(ladder[k])));
      expect(res.belowIDs).toEqual([id(ladder[6]), id(ladder[5]), id(ladder[4]), id(showcaser), id(ladder[3])]);
      expect(res.thisUsersRanking).toEqual({ ranking: 7, outOf: PLAYERS });
      expect(res.thisUsersStats).toEqual({
        userID: id(tied),
        game: 'sdvx',
        playtype: 'Single',
        ratings: { VF6: expect.any(Number) },
        classes: expect.any(Object),
      });
      expect(res.above[0]).toEqual({
        userID: id(ladder[11]),
        game: 'sdvx',
        playtype: 'Single',
        ratings: { VF6: expect.any(Number) },
        classes: expect.any(Object),
      });
      expect(res.users.map((u) => u.id).sort()).toEqual([...res.aboveIDs, ...res.belowIDs, id(tied)].sort());

      // Player 6 has the same rank, and the tied player below them.
      const six = await adjacent(ladder[6]);
      expect(six.thisUsersRanking).toEqual({ ranking: 7, outOf: PLAYERS });
      expect(six.aboveIDs).toEqual(res.aboveIDs);
      expect(six.belowIDs).toEqual([id(tied), id(ladder[5]), id(ladder[4]), id(showcaser), id(ladder[3])]);
    });

    it('has nobody above the best, and the closest 5 above in leaderboard order (ties by user id)', async () => {
      const top = await adjacent(ladder[12]);
      expect(top.aboveIDs).toEqual([]);
      expect(top.belowIDs).toEqual([11, 10, 9, 8, 7].map((k) => id(ladder[k])));
      expect(top.thisUsersRanking).toEqual({ ranking: 1, outOf: PLAYERS });

      // Leaderboard: …, 6, tied, 5, 4, showcase, 3, 2, 1, unrated.
      const three = await adjacent(ladder[3]);
      expect(three.aboveIDs).toEqual([id(ladder[6]), id(tied), id(ladder[5]), id(ladder[4]), id(showcaser)]);
      expect(three.belowIDs).toEqual([id(ladder[2]), id(ladder[1]), id(unrated)]);
      expect(three.thisUsersRanking).toEqual({ ranking: 12, outOf: PLAYERS });
    });

    it('ranks a player without a rating after every rated one', async () => {
      const one = await adjacent(ladder[1]);
      expect(one.belowIDs).toEqual([id(unrated)]);
      expect(one.thisUsersRanking).toEqual({ ranking: 14, outOf: PLAYERS });
      const none = await adjacent(unrated);
      expect(none.aboveIDs).toEqual([id(ladder[4]), id(showcaser), id(ladder[3]), id(ladder[2]), id(ladder[1])]);
      expect(none.belowIDs).toEqual([]);
      expect(none.thisUsersRanking).toEqual({ ranking: 15, outOf: PLAYERS });
    });

    it('takes a profile algorithm by name; 400s another', async () => {
      expect((await adjacent(tied, '?alg=VF6')).thisUsersRanking).toEqual({ ranking: 7, outOf: PLAYERS });
      for (const alg of ['ProfileVF6', 'nope']) {
        const res = await t.http().get(ugpt(tied, `/leaderboard-adjacent?alg=${alg}`));
        expect(res.status).toBe(400);
        expect(res.body.message).toMatch(/Profile rating algorithms of sdvx Single: VF6/);
      }
      expect((await t.http().get(ugpt(tied, '/leaderboard-adjacent?limit=3'))).status).toBe(400);
    });

    it('404s a user who has not played the GPT', async () => {
      expect((await t.http().get(ugpt(newcomer, '/leaderboard-adjacent'))).status).toBe(404);
    });
  });

  describe('settings', () => {
    const DEFAULTS = {
      preferredScoreAlg: null,
      preferredSessionAlg: null,
      preferredProfileAlg: null,
      stats: [],
      preferredDefaultEnum: null,
      defaultTable: null,
      preferredRanking: null,
      gameSpecific: {},
    };

    it('GET is public and gives the defaults to a player who never saved any', async () => {
      const res = await t.http().get(ugpt(ladder[1], '/settings'));
      expect(res.status).toBe(200);
      expect(res.body).toEqual(DEFAULTS);
      expect((await t.http().get(ugpt(newcomer, '/settings'))).status).toBe(404);
    });

    it('PATCH sets what is sent, keeps what is not, and null unsets', async () => {
      const u = ladder[2];
      const first = await u.agent.patch(ugpt(u, '/settings')).send({ preferredScoreAlg: 'VF6' });
      expect(first.status).toBe(200);
      expect(first.body).toEqual({ ...DEFAULTS, preferredScoreAlg: 'VF6' });
      const second = await u.agent.patch(ugpt(u, '/settings')).send({ preferredSessionAlg: 'ProfileVF6', preferredProfileAlg: 'VF6' });
      expect(second.body).toEqual({ ...DEFAULTS, preferredScoreAlg: 'VF6', preferredSessionAlg: 'ProfileVF6', preferredProfileAlg: 'VF6' });
      const unset = await u.agent.patch(ugpt(u, '/settings')).send({ preferredScoreAlg: null });
      expect(unset.body).toEqual({ ...DEFAULTS, preferredSessionAlg: 'ProfileVF6', preferredProfileAlg: 'VF6' });
      expect((await t.http().get(ugpt(u, '/settings'))).body).toEqual(unset.body);
      // An empty body changes nothing and answers with the current settings.
      const empty = await u.agent.patch(ugpt(u, '/settings')).send({});
      expect(empty.status).toBe(200);
      expect(empty.body).toEqual(unset.body);
      // Another GPT, another user: untouched.
      expect((await t.http().get(ugpt(ladder[3], '/settings'))).body).toEqual(DEFAULTS);
    });

    it.each([
      [
        'a session algorithm as the score algorithm',
        { preferredScoreAlg: 'ProfileVF6' },
        /preferredScoreAlg 'ProfileVF6'.*Score rating algorithms of sdvx Single: VF6/,
      ],
      ['a score algorithm as the session algorithm', { preferredSessionAlg: 'VF6' }, /Session rating algorithms of sdvx Single: ProfileVF6/],
      ['an unknown profile algorithm', { preferredProfileAlg: 'ProfileVF6' }, /Profile rating algorithms of sdvx Single: VF6/],
      ['an empty name', { preferredScoreAlg: '' }, /preferredScoreAlg ''/],
      ['a number', { preferredScoreAlg: 5 }, /preferredScoreAlg must be a string/],
      ['stats', { stats: [] }, /stats cannot be changed here/],
      [
        'stats with a valid preference',
        { preferredScoreAlg: 'VF6', stats: [{ mode: 'chart', chartID: 'x', property: 'score' }] },
        /stats cannot be changed here/,
      ],
      ['an unknown key', { scoreBucket: 'lamp' }, /scoreBucket should not exist/],
    ])('PATCH 400s %s and changes nothing', async (_what, body, message) => {
      const u = ladder[4];
      await u.agent.patch(ugpt(u, '/settings')).send({ preferredProfileAlg: 'VF6' });
      const res = await u.agent.patch(ugpt(u, '/settings')).send(body);
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(message);
      expect((await t.http().get(ugpt(u, '/settings'))).body).toEqual({ ...DEFAULTS, preferredProfileAlg: 'VF6' });
    });

    it('PATCH 400s a body that is not an object', async () => {
      const res = await ladder[4].agent.patch(ugpt(ladder[4], '/settings')).send([{ preferredScoreAlg: 'VF6' }]);
      expect(res.status).toBe(400);
    });

    it('PATCH needs customise_profile and the owner', async () => {
      const u = ladder[5];
      expect((await t.http().patch(ugpt(u, '/settings')).send({ preferredScoreAlg: 'VF6' })).status).toBe(401);
      const weak = await issueToken(u, ['submit_score', 'customise_score', 'customise_session']);
      const denied = await t.http().patch(ugpt(u, '/settings')).set(bearer(weak)).send({ preferredScoreAlg: 'VF6' });
      expect(denied.status).toBe(403);
      expect(denied.body.message).toMatch(/customise_profile/);
      expect((await ladder[6].agent.patch(ugpt(u, '/settings')).send({ preferredScoreAlg: 'VF6' })).status).toBe(403);
      const othersToken = await issueToken(ladder[6], ['customise_profile']);
      expect((await t.http().patch(ugpt(u, '/settings')).set(bearer(othersToken)).send({ preferredScoreAlg: 'VF6' })).status).toBe(403);
      expect((await t.http().get(ugpt(u, '/settings'))).body).toEqual(DEFAULTS);

      const token = await issueToken(u, ['customise_profile']);
      const ok = await t.http().patch(ugpt('me', '/settings')).set(bearer(token)).send({ preferredScoreAlg: 'VF6' });
      expect(ok.status).toBe(200);
      expect(ok.body).toEqual({ ...DEFAULTS, preferredScoreAlg: 'VF6' });
    });

    it('PATCH 404s the owner on a GPT they have not played', async () => {
      expect((await newcomer.agent.patch(ugpt(newcomer, '/settings')).send({ preferredScoreAlg: 'VF6' })).status).toBe(404);
      expect((await ladder[1].agent.patch(`/api/v1/users/${ladder[1].user.id}/games/iidx/SP/settings`).send({})).status).toBe(404);
    });
  });

  describe('showcase', () => {
    const STATS = [
      { mode: 'chart', chartID: chart(1, 'EXH'), property: 'score' },
      { mode: 'chart', chartID: chart(1, 'EXH'), property: 'playcount' },
      { mode: 'chart', chartID: chart(4, 'MXM'), property: 'grade' },
      { mode: 'chart', chartID: chart(2, 'EXH'), property: 'lamp' },
      { mode: 'folder', folderID: LEVEL_17_UP, property: 'lamp', gte: 4 },
      { mode: 'folder', folderID: LEVEL_20, property: 'percent', gte: 88 },
    ];
    const values = (body: unknown) => (body as { value: { value: number | null; outOf?: number } }[]).map((r) => r.value);

    it('starts empty', async () => {
      const res = await t.http().get(ugpt(showcaser, '/showcase'));
      expect(res.status).toBe(200);
      expect(res.body).toEqual([]);
    });

    it('PATCH replaces the showcase with up to 6 stats and returns them; settings keep their preferences', async () => {
      await showcaser.agent.patch(ugpt(showcaser, '/settings')).send({ preferredScoreAlg: 'VF6' });
      const res = await showcaser.agent.patch(ugpt(showcaser, '/showcase')).send(STATS);
      expect(res.status).toBe(200);
      expect(res.body).toEqual(STATS);
      expect((await t.http().get(ugpt(showcaser, '/settings'))).body).toEqual({
        preferredScoreAlg: 'VF6',
        preferredSessionAlg: null,
        preferredProfileAlg: null,
        stats: STATS,
        preferredDefaultEnum: null,
        defaultTable: null,
        preferredRanking: null,
        gameSpecific: {},
      });
    });

    it("GET evaluates each stat against the user's PBs and scores (grade and lamp as indexes)", async () => {
      const res = await t.http().get(ugpt(showcaser, '/showcase'));
      expect(res.status).toBe(200);
      const results = res.body as { stat: unknown; value: unknown; related: Record<string, unknown> }[];
      expect(results.map((r) => r.stat)).toEqual(STATS);
      expect(values(res.body)).toEqual([
        { value: 9_500_000 }, // the PB's score, not the earlier 9,000,000
        { value: 2 }, // two plays of 1-EXH
        { value: 8 }, // AAA+ is grade 8 of D, C, B, A, A+, AA, AA+, AAA, AAA+, S, PUC
        { value: null }, // 2-EXH never played
        { value: 2, outOf: 10 }, // level 17+: 4-MXM ULTIMATE CHAIN (4) and 7-EXH PUC (5) reach lamp 4; 5-MXM CLEAR (1) does not
        { value: 2, outOf: 3 }, // level 20: 4-MXM 98.5% and 5-MXM 88% reach 88; 7-MXM is unplayed
      ]);
      expect(results[0].related).toEqual({
        song: expect.objectContaining({ id: 1 }),
        chart: expect.objectContaining({ chartID: chart(1, 'EXH'), difficulty: 'EXH' }),
      });
      expect(Object.keys(results[4].related)).toEqual(['folders']);
      expect(results[4].related.folders).toEqual([expect.objectContaining({ folderID: LEVEL_17_UP, title: 'Level 17+ (showcase)' })]);
    });

    it("projectUser evaluates that user's stats against this user's scores", async () => {
      // Player 12 has PUCs on 12 charts: 8 of the 10 level 17+ charts (not 1-MXM and 2-MXM) and all 3 level 20 ones.
      const expected = [{ value: 10_000_000 }, { value: 1 }, { value: 10 }, { value: 5 }, { value: 8, outOf: 10 }, { value: 3, outOf: 3 }];
      for (const projected of [showcaser.username.toUpperCase(), String(showcaser.user.id)]) {
        const res = await t.http().get(ugpt(ladder[12], `/showcase?projectUser=${projected}`));
        expect(res.status).toBe(200);
        expect((res.body as { stat: unknown }[]).map((r) => r.stat)).toEqual(STATS);
        expect(values(res.body)).toEqual(expected);
      }
      expect(values((await showcaser.agent.get(ugpt(ladder[12], '/showcase?projectUser=me'))).body)).toEqual(expected);
      // Player 12 has no showcase of their own; a user without settings projects nothing.
      expect((await t.http().get(ugpt(ladder[12], '/showcase'))).body).toEqual([]);
      expect((await t.http().get(ugpt(showcaser, `/showcase?projectUser=${newcomer.user.id}`))).body).toEqual([]);
    });

    it('projectUser 404s an unknown user; me needs authentication', async () => {
      expect((await t.http().get(ugpt(showcaser, '/showcase?projectUser=nobody_here'))).status).toBe(404);
      expect((await t.http().get(ugpt(showcaser, '/showcase?projectUser=99999999'))).status).toBe(404);
      expect((await t.http().get(ugpt(showcaser, '/showcase?projectUser=me'))).status).toBe(401);
      expect((await t.http().get(ugpt(newcomer, '/showcase'))).status).toBe(404);
    });

    describe('PATCH validation', () => {
      const chartStat = { mode: 'chart', chartID: chart(1, 'EXH'), property: 'score' };
      const folderStat = { mode: 'folder', folderID: LEVEL_17_UP, property: 'grade', gte: 7 };
      it.each([
        ['an object', { stats: STATS }, /JSON array/],
        ['7 stats', [...STATS, chartStat], /at most 6/],
        ['an unknown mode', [{ ...chartStat, mode: 'song' }], /stats\[0\]/],
        ['a chart stat with an extra key', [{ ...chartStat, gte: 1 }], /stats\[0\]/],
        ['a chart stat without chartID', [{ mode: 'chart', property: 'score' }], /stats\[0\]\.chartID/],
        ['a chart stat with an unknown property', [{ ...chartStat, property: 'bp' }], /stats\[0\]\.property/],
        ['a folder stat without gte', [{ mode: 'folder', folderID: LEVEL_17_UP, property: 'grade' }], /stats\[0\]\.gte/],
        ['a folder stat with a string gte', [{ ...folderStat, gte: '7' }], /stats\[0\]\.gte/],
        ['a folder playcount stat', [{ ...folderStat, property: 'playcount' }], /stats\[0\]\.property/],
        ['a folder stat with a chartID', [{ ...folderStat, chartID: chart(1, 'EXH') }], /stats\[0\]/],
        ['an unknown chart', [folderStat, { ...chartStat, chartID: 'nope' }], /stats\[1\]: The chart nope does not exist in sdvx Single/],
        ['an unknown folder', [{ ...folderStat, folderID: 'Fnope' }], /The folder Fnope does not exist/],
        ["another GPT's folder", [{ ...folderStat, folderID: IIDX_FOLDER }], /does not exist in sdvx Single/],
        ['a grade index past the last grade', [{ ...folderStat, gte: 11 }], /gte must be the index of a grade \(0 to 10/],
        ['a fractional lamp index', [{ ...folderStat, property: 'lamp', gte: 1.5 }], /index of a lamp/],
        ['a negative lamp index', [{ ...folderStat, property: 'lamp', gte: -1 }], /index of a lamp/],
        ['a negative score', [{ ...folderStat, property: 'score', gte: -5 }], /at least 0/],
        ['a percent over percentMax', [{ ...folderStat, property: 'percent', gte: 100.5 }], /from 0 to 100/],
      ])('400s %s and keeps the showcase', async (_what, body, message) => {
        const res = await showcaser.agent.patch(ugpt(showcaser, '/showcase')).send(body);
        expect(res.status).toBe(400);
        expect(res.body.message).toMatch(message);
        expect((await t.http().get(ugpt(showcaser, '/settings'))).body.stats).toEqual(STATS);
      });

      it('accepts the bounds of gte and an empty list', async () => {
        const u = ladder[7];
        const bounds = [
          { ...folderStat, gte: 0 },
          { ...folderStat, gte: 10 },
          { ...folderStat, property: 'lamp', gte: 5 },
          { ...folderStat, property: 'score', gte: 0 },
          { ...folderStat, property: 'percent', gte: 100 },
        ];
        const res = await u.agent.patch(ugpt(u, '/showcase')).send(bounds);
        expect(res.status).toBe(200);
        expect(res.body).toEqual(bounds);
        // Player 7's PUCs on the level 17+ charts: 5-EXH, 7-EXH, 3-MXM, 4-MXM; every threshold is reached.
        expect(values((await t.http().get(ugpt(u, '/showcase'))).body)).toEqual(bounds.map(() => ({ value: 4, outOf: 10 })));
        const cleared = await u.agent.patch(ugpt(u, '/showcase')).send([]);
        expect(cleared.status).toBe(200);
        expect(cleared.body).toEqual([]);
        expect((await t.http().get(ugpt(u, '/showcase'))).body).toEqual([]);
      });
    });

    it('PATCH needs customise_profile and the owner', async () => {
      const u = ladder[8];
      const stats = [{ mode: 'chart', chartID: chart(1, 'EXH'), property: 'score' }];
      expect((await t.http().patch(ugpt(u, '/showcase')).send(stats)).status).toBe(401);
      const weak = await issueToken(u, ['submit_score', 'customise_score', 'customise_session', 'manage_targets']);
      expect((await t.http().patch(ugpt(u, '/showcase')).set(bearer(weak)).send(stats)).status).toBe(403);
      expect((await ladder[9].agent.patch(ugpt(u, '/showcase')).send(stats)).status).toBe(403);
      const othersToken = await issueToken(ladder[9], ['customise_profile']);
      expect((await t.http().patch(ugpt(u, '/showcase')).set(bearer(othersToken)).send(stats)).status).toBe(403);
      expect((await t.http().get(ugpt(u, '/showcase'))).body).toEqual([]);
      const token = await issueToken(u, ['customise_profile']);
      const ok = await t.http().patch(ugpt(u, '/showcase')).set(bearer(token)).send(stats);
      expect(ok.status).toBe(200);
      expect(ok.body).toEqual(stats);
      expect((await newcomer.agent.patch(ugpt(newcomer, '/showcase')).send(stats)).status).toBe(404);
    });

    describe('GET /showcase/custom', () => {
      const custom = (query: string) => t.http().get(ugpt(showcaser, `/showcase/custom?${query}`));

      it('evaluates a chart stat: {stat, result, related}', async () => {
        const res = await custom(`mode=chart&property=percent&chartID=${chart(4, 'MXM')}`);
        expect(res.status).toBe(200);
        expect(res.body).toEqual({
          stat: { mode: 'chart', chartID: chart(4, 'MXM'), property: 'percent' },
          result: { value: 98.5 },
          related: { song: expect.objectContaining({ id: 4 }), chart: expect.objectContaining({ chartID: chart(4, 'MXM') }) },
        });
        expect((await custom(`mode=chart&property=lamp&chartID=${chart(1, 'EXH')}`)).body.result).toEqual({ value: 2 });
        expect((await custom(`mode=chart&property=lamp&chartID=${chart(2, 'MXM')}`)).body.result).toEqual({ value: null });
        // Spec: null when the chart was never played, for playcount too; a played chart counts every play.
        expect((await custom(`mode=chart&property=playcount&chartID=${chart(2, 'MXM')}`)).body.result).toEqual({ value: null });
        expect((await custom(`mode=chart&property=playcount&chartID=${chart(1, 'EXH')}`)).body.result).toEqual({ value: 2 });
      });

      it('evaluates a folder stat: charts reaching gte, out of the folder', async () => {
        const res = await custom(`mode=folder&property=grade&folderID=${LEVEL_17_UP}&gte=7`);
        expect(res.status).toBe(200);
        // 4-MXM AAA+ (8) and 7-EXH PUC (10) reach AAA (7); 5-MXM A (3) does not.
        expect(res.body).toEqual({
          stat: { mode: 'folder', folderID: LEVEL_17_UP, property: 'grade', gte: 7 },
          result: { value: 2, outOf: 10 },
          related: { folders: [expect.objectContaining({ folderID: LEVEL_17_UP })] },
        });
        expect((await custom(`mode=folder&property=score&folderID=${LEVEL_17_UP}&gte=9000000`)).body.result).toEqual({ value: 2, outOf: 10 });
        expect((await custom(`mode=folder&property=score&folderID=${LEVEL_17_UP}&gte=8800000`)).body.result).toEqual({ value: 3, outOf: 10 });
        expect((await custom(`mode=folder&property=percent&folderID=${LEVEL_20}&gte=98.5`)).body.result).toEqual({ value: 1, outOf: 3 });
        expect((await custom(`mode=folder&property=lamp&folderID=${LEVEL_20}&gte=0`)).body.result).toEqual({ value: 2, outOf: 3 });
      });

      it.each([
        ['no mode', `property=score&chartID=${chart(1, 'EXH')}`, /mode/],
        ['an unknown mode', `mode=song&property=score&chartID=${chart(1, 'EXH')}`, /mode/],
        ['an unknown property', `mode=chart&property=bp&chartID=${chart(1, 'EXH')}`, /property/],
        ['chart mode without chartID', 'mode=chart&property=score', /chartID is required/],
        ['chart mode with gte', `mode=chart&property=score&chartID=${chart(1, 'EXH')}&gte=1`, /only for folder mode/],
        ['folder mode without gte', `mode=folder&property=score&folderID=${LEVEL_17_UP}`, /required in folder mode/],
        ['folder mode with a chartID', `mode=folder&property=score&folderID=${LEVEL_17_UP}&gte=1&chartID=${chart(1, 'EXH')}`, /only for chart mode/],
        ['folder playcount', `mode=folder&property=playcount&folderID=${LEVEL_17_UP}&gte=1`, /property/],
        ['a gte that is not a number', `mode=folder&property=score&folderID=${LEVEL_17_UP}&gte=abc`, /gte must be a decimal number/],
        ['a grade gte past the grades', `mode=folder&property=grade&folderID=${LEVEL_17_UP}&gte=11`, /index of a grade/],
        ['an unknown chart', 'mode=chart&property=score&chartID=nope', /The chart nope does not exist/],
        ["another GPT's folder", `mode=folder&property=score&folderID=${IIDX_FOLDER}&gte=1`, /does not exist in sdvx Single/],
        ['an unknown parameter', `mode=chart&property=score&chartID=${chart(1, 'EXH')}&x=1`, /x should not exist/],
      ])('400s %s', async (_what, query, message) => {
        const res = await custom(query);
        expect(res.status).toBe(400);
        expect(res.body.message).toMatch(message);
      });

      it('404s a user who has not played the GPT', async () => {
        expect((await t.http().get(ugpt(newcomer, `/showcase/custom?mode=chart&property=score&chartID=${chart(1, 'EXH')}`))).status).toBe(404);
      });
    });
  });
});
