import { afterAll, afterEach, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { BadRequestException, NotFoundException } from '@nestjs/common';
import { chartRankings, classAchievements, personalBests } from '../../src/database/schema.js';
import { findGpt } from '../../src/game-support/registry.js';
import { GamesModule } from '../../src/games/games.module.js';
import { CLASS_DISTRIBUTION_TTL_MS, GptLeaderboardsService } from '../../src/games/gpt-leaderboards.service.js';
import { insertProfile, insertSongWithCharts, insertUser, openServiceModule, type ServiceTestModule } from './support-db.js';

// iidx SP: profile algorithms ktLampRating (the default) and BPI; one class set, dan.
const SP = findGpt('iidx', 'SP')!;
const DP = findGpt('iidx', 'DP')!;
const CHART = 'sp-chart';

describe('GptLeaderboardsService', () => {
  let t: ServiceTestModule;
  let leaderboards: GptLeaderboardsService;
  const userIDs = (list: { userID: number }[]) => list.map((r) => r.userID);
  /** One at a time, so that ids ascend in the order given. */
  async function usersInIdOrder(usernames: string[]) {
    const users = [];
    for (const username of usernames) users.push(await insertUser(t.db, username));
    return users;
  }

  beforeAll(async () => {
    t = await openServiceModule([GamesModule]);
    leaderboards = t.module.get(GptLeaderboardsService);
    await insertSongWithCharts(t.db, 'iidx', 'SP', { id: 1, title: 'Song' }, [{ chartID: CHART, difficulty: 'ANOTHER', levelNum: 12 }]);
  });
  afterEach(async () => {
    jest.restoreAllMocks();
    await t.clearUsers();
  });
  afterAll(() => t.close());

  describe('leaderboard', () => {
    it('lists profiles by rating, best first, ties by user id, then the unrated by user id; only this GPT', async () => {
      const [a, b, c, d, e] = await usersInIdOrder(['a', 'b', 'c', 'd', 'e']);
      await insertProfile(t.db, a.id, SP, { ktLampRating: 10, BPI: 50 });
      await insertProfile(t.db, b.id, SP, { ktLampRating: 12, BPI: null });
      await insertProfile(t.db, c.id, SP, { ktLampRating: 10, BPI: null });
      await insertProfile(t.db, d.id, SP, { ktLampRating: null, BPI: null });
      await insertProfile(t.db, e.id, DP, { ktLampRating: 99, BPI: 99 });

      const all = await leaderboards.leaderboard(SP, {});
      expect(userIDs(all.gameStats)).toEqual([b.id, a.id, c.id, d.id]);
      expect(all.users.map((u) => u.id)).toEqual([b.id, a.id, c.id, d.id]);
      expect(all.gameStats[0]).toEqual({ userID: b.id, game: 'iidx', playtype: 'SP', ratings: { ktLampRating: 12, BPI: null }, classes: {} });
      expect(userIDs((await leaderboards.leaderboard(SP, { limit: 2 })).gameStats)).toEqual([b.id, a.id]);
      expect(userIDs((await leaderboards.leaderboard(SP, { alg: 'BPI', limit: 3 })).gameStats)).toEqual([a.id, b.id, c.id]);
    });

    it('400s a name that is not a profile algorithm of the GPT', async () => {
      const bad = leaderboards.leaderboard(SP, { alg: 'bpi' });
      await expect(bad).rejects.toThrow(BadRequestException);
      await expect(bad).rejects.toThrow(
        "Invalid profile rating algorithm 'bpi'. Expected one of: ktLampRating, BPI (Profile rating algorithms of iidx SP: ktLampRating, BPI).",
      );
    });
  });

  describe('chart PBs', () => {
    /** PBs on CHART at ranks 1..n, in the order given. */
    async function pbsInRankOrder(usernames: string[]) {
      const users = [];
      for (const [i, username] of usernames.entries()) {
        const user = await insertUser(t.db, username);
        const score = 2000 - i;
        await t.db.insert(personalBests).values({
          userID: user.id,
          chartID: CHART,
          game: 'iidx',
          playtype: 'SP',
          songID: 1,
          isPrimary: true,
          score,
          percent: score / 20,
          lampIndex: 4,
          gradeIndex: 5,
          scoreData: { score, percent: score / 20, lamp: 'CLEAR', grade: 'AA', lampIndex: 4, gradeIndex: 5, judgements: {}, optional: {} },
          calculatedData: {},
          composedFrom: [],
          rankOrder: score / 20,
          rank: i + 1,
        });
        users.push(user);
      }
      // The chart's player count, clean: the stored ranks above are its exact ones.
      await t.db
        .insert(chartRankings)
        .values({ chartID: CHART, game: 'iidx', playtype: 'SP', players: usernames.length })
        .onConflictDoUpdate({ target: chartRankings.chartID, set: { players: usernames.length, dirtySince: null } });
      return users;
    }

    it('pages by rank from startRanking', async () => {
      const users = await pbsInRankOrder(['r1', 'r2', 'r3']);
      const page = await leaderboards.chartPbs(SP, CHART, { startRanking: 2 });
      expect(page.pbs.map((p) => [p.userID, p.rankingData])).toEqual([
        [users[1].id, { rank: 2, outOf: 3 }],
        [users[2].id, { rank: 3, outOf: 3 }],
      ]);
      expect(page.users.map((u) => u.id)).toEqual([users[1].id, users[2].id]);
      await expect(leaderboards.chartPbs(DP, CHART, {})).rejects.toThrow(NotFoundException);
    });

    it('searches usernames literally (no LIKE wildcards), case-insensitively, the exact name first, then by rank', async () => {
      const [xaby, aB, axb] = await pbsInRankOrder(['xa_b_y', 'a_B', 'axb']);
      expect((await leaderboards.searchChartPbs(SP, CHART, 'A_b')).pbs.map((p) => p.userID)).toEqual([aB.id, xaby.id]);
      expect((await leaderboards.searchChartPbs(SP, CHART, 'x')).pbs.map((p) => p.userID)).toEqual([xaby.id, axb.id]);
      expect((await leaderboards.searchChartPbs(SP, CHART, '%')).pbs).toEqual([]);
    });
  });

  describe('player distribution', () => {
    it('counts the players of each class value in the class set order, and reuses the counts for CLASS_DISTRIBUTION_TTL_MS', async () => {
      const now = Date.now();
      const clock = jest.spyOn(Date, 'now').mockReturnValue(now);
      const dans = ['DAN_2', 'KYU_1', 'DAN_2', 'KAIDEN'];
      for (const [i, dan] of dans.entries()) await insertProfile(t.db, (await insertUser(t.db, `dan${i}`)).id, SP, {}, { dan });
      await insertProfile(t.db, (await insertUser(t.db, 'undanned')).id, SP, {});
      await insertProfile(t.db, (await insertUser(t.db, 'dp')).id, DP, {}, { dan: 'DAN_2' });
      const counts = { KYU_1: 1, DAN_2: 2, KAIDEN: 1 };
      const distribution = await leaderboards.playerDistribution(SP, { class: 'dan' });
      expect(distribution).toEqual(counts);
      expect(Object.keys(distribution)).toEqual(['KYU_1', 'DAN_2', 'KAIDEN']);

      await insertProfile(t.db, (await insertUser(t.db, 'late')).id, SP, {}, { dan: 'KYU_1' });
      clock.mockReturnValue(now + CLASS_DISTRIBUTION_TTL_MS - 1);
      expect(await leaderboards.playerDistribution(SP, { class: 'dan' })).toEqual(counts);
      clock.mockReturnValue(now + CLASS_DISTRIBUTION_TTL_MS);
      expect(await leaderboards.playerDistribution(SP, { class: 'dan' })).toEqual({ ...counts, KYU_1: 2 });
    });

    it('lists the latest class achievements without a class, newest first', async () => {
      const [a, b] = await usersInIdOrder(['a', 'b']);
      const achieved = (userID: number, classValue: string, timeAchieved: number, game = SP) => ({
        userID,
        game: game.game,
        playtype: game.playtype,
        classSet: 'dan',
        classOldValue: null,
        classValue,
        timeAchieved,
      });
      await t.db
        .insert(classAchievements)
        .values([achieved(a.id, 'DAN_1', 100), achieved(b.id, 'DAN_3', 300), achieved(a.id, 'DAN_2', 200), achieved(b.id, 'DAN_9', 400, DP)]);
      expect(await leaderboards.playerDistribution(SP, { limit: 2 })).toEqual({
        users: [expect.objectContaining({ id: b.id, username: 'b' }), expect.objectContaining({ id: a.id, username: 'a' })],
        classes: [
          { userID: b.id, game: 'iidx', playtype: 'SP', classSet: 'dan', classOldValue: null, classValue: 'DAN_3', timeAchieved: 300 },
          { userID: a.id, game: 'iidx', playtype: 'SP', classSet: 'dan', classOldValue: null, classValue: 'DAN_2', timeAchieved: 200 },
        ],
      });
    });

    it('400s an unknown class set, and a class given with a limit', async () => {
      await expect(leaderboards.playerDistribution(SP, { class: 'vfClass' })).rejects.toThrow("Invalid class 'vfClass' for iidx SP. Expected one of: dan.");
      await expect(leaderboards.playerDistribution(SP, { class: 'dan', limit: 5 })).rejects.toThrow(BadRequestException);
    });
  });
});
