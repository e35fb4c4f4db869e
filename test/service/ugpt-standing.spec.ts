import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { BadRequestException } from '@nestjs/common';
import { gameStatsSnapshots, type GameStatsRow, type UserRow } from '../../src/database/schema.js';
import { findGpt } from '../../src/game-support/registry.js';
import type { UgptContext } from '../../src/ugpt/ugpt.guard.js';
import { UgptModule } from '../../src/ugpt/ugpt.module.js';
import { HISTORY_LIMIT, UgptStandingService } from '../../src/ugpt/ugpt-standing.service.js';
import { insertProfile, insertUser, openServiceModule, type ServiceTestModule } from './support-db.js';

// iidx SP: profile algorithms ktLampRating (the default) and BPI.
const SP = findGpt('iidx', 'SP')!;
const DP = findGpt('iidx', 'DP')!;
const DAY = 24 * 60 * 60 * 1000;

describe('UgptStandingService', () => {
  let t: ServiceTestModule;
  let standing: UgptStandingService;

  beforeAll(async () => {
    t = await openServiceModule([UgptModule.register({ schedule: false })]);
    standing = t.module.get(UgptStandingService);
  });
  afterEach(() => t.clearUsers());
  afterAll(() => t.close());

  describe('leaderboardAdjacent', () => {
    /** Name → the player's context on SP. */
    let players: Map<string, UgptContext>;
    const ids = (list: { userID: number }[]) => list.map((s) => s.userID);
    const id = (name: string) => players.get(name)!.user.id;
    const adjacent = (name: string, alg?: string) => standing.leaderboardAdjacent(players.get(name)!, alg);

    /*
     * SP players in id order, by ktLampRating: p1 20, p2 18, p3 15, p4 15, p5 15, p6 12, p7 10,
     * p8 9, p9 8, p10 7, p11 6, p12 5, then u1, u2, u3 without a rating: 15 players. BPI: p2 60,
     * p1 50; nobody else has one. On DP, a better player who is not part of SP.
     */
    beforeEach(async () => {
      const ratings: [string, number | null, number | null][] = [
        ['p1', 20, 50],
        ['p2', 18, 60],
        ...([15, 15, 15, 12, 10, 9, 8, 7, 6, 5] as const).map((r, i): [string, number, null] => [`p${i + 3}`, r, null]),
        ['u1', null, null],
        ['u2', null, null],
        ['u3', null, null],
      ];
      players = new Map();
      for (const [name, ktLampRating, BPI] of ratings) {
        const user: UserRow = await insertUser(t.db, name);
        const stats: GameStatsRow = await insertProfile(t.db, user.id, SP, { ktLampRating, BPI });
        players.set(name, { user, gpt: SP, stats });
      }
      const other = await insertUser(t.db, 'dp_only');
      await insertProfile(t.db, other.id, DP, { ktLampRating: 99, BPI: 99 });
    });

    it('lists the closest better players above and the tied or worse below, and ranks ties together', async () => {
      const p4 = await adjacent('p4');
      expect(ids(p4.above)).toEqual([id('p1'), id('p2')]);
      // Ties go below, by user id; p4 is not its own neighbour.
      expect(ids(p4.below)).toEqual(['p3', 'p5', 'p6', 'p7', 'p8'].map(id));
      expect(p4.thisUsersRanking).toEqual({ ranking: 3, outOf: 15 });
      expect(p4.thisUsersStats).toEqual({ userID: id('p4'), game: 'iidx', playtype: 'SP', ratings: { ktLampRating: 15, BPI: null }, classes: {} });
      expect(p4.users.map((u) => u.id)).toEqual(['p1', 'p2', 'p3', 'p5', 'p6', 'p7', 'p8', 'p4'].map(id));
      expect((await adjacent('p3')).thisUsersRanking).toEqual({ ranking: 3, outOf: 15 });
    });

    it('puts the players without a rating below the last rated one, and ranks them after every rated one', async () => {
      const p12 = await adjacent('p12');
      expect(ids(p12.above)).toEqual(['p7', 'p8', 'p9', 'p10', 'p11'].map(id));
      expect(ids(p12.below)).toEqual(['u1', 'u2', 'u3'].map(id));
      expect(p12.thisUsersRanking).toEqual({ ranking: 12, outOf: 15 });
      const u2 = await adjacent('u2');
      expect(ids(u2.above)).toEqual(['p8', 'p9', 'p10', 'p11', 'p12'].map(id));
      expect(ids(u2.below)).toEqual(['u1', 'u3'].map(id));
      expect(u2.thisUsersRanking).toEqual({ ranking: 13, outOf: 15 });
    });

    it('takes another profile algorithm by name', async () => {
      const p1 = await adjacent('p1', 'BPI');
      expect(ids(p1.above)).toEqual([id('p2')]);
      // Nobody else is rated under BPI: the unrated follow by user id.
      expect(ids(p1.below)).toEqual(['p3', 'p4', 'p5', 'p6', 'p7'].map(id));
      expect(p1.thisUsersRanking).toEqual({ ranking: 2, outOf: 15 });
      expect((await adjacent('p4', 'BPI')).thisUsersRanking).toEqual({ ranking: 3, outOf: 15 });
    });

    it('400s a name that is not a profile algorithm of the GPT', async () => {
      const bad = adjacent('p1', 'bpi');
      await expect(bad).rejects.toThrow(BadRequestException);
      await expect(bad).rejects.toThrow(
        "Invalid profile rating algorithm 'bpi'. Expected one of: ktLampRating, BPI (Profile rating algorithms of iidx SP: ktLampRating, BPI).",
      );
    });
  });

  describe('history', () => {
    it("gives the user's snapshots on the GPT, newest first, at most HISTORY_LIMIT", async () => {
      const user = await insertUser(t.db, 'historian');
      const other = await insertUser(t.db, 'other');
      const stats = await insertProfile(t.db, user.id, SP, { ktLampRating: 10 });
      const snapshot = (userID: number, gpt: typeof SP, day: number) => ({
        userID,
        game: gpt.game,
        playtype: gpt.playtype,
        timestamp: day * DAY,
        classes: { dan: 'DAN_1' },
        ratings: { ktLampRating: day, BPI: null },
        playcount: day * 2,
        ranking: 100 - day,
        rankings: { ktLampRating: { ranking: 100 - day, outOf: 100 } },
      });
      // Days 1..91 in a shuffled order, plus one of another user and one of another GPT.
      const days = Array.from({ length: HISTORY_LIMIT + 1 }, (_, i) => ((i * 37) % (HISTORY_LIMIT + 1)) + 1);
      await t.db.insert(gameStatsSnapshots).values([...days.map((d) => snapshot(user.id, SP, d)), snapshot(other.id, SP, 200), snapshot(user.id, DP, 300)]);

      const history = await standing.history({ user, gpt: SP, stats });
      expect(history).toHaveLength(HISTORY_LIMIT);
      expect(history[0]).toEqual({ classes: { dan: 'DAN_1' }, ratings: { ktLampRating: 91, BPI: null }, timestamp: 91 * DAY, playcount: 182, ranking: 9 });
      expect(history.map((h) => h.timestamp)).toEqual(Array.from({ length: HISTORY_LIMIT }, (_, i) => (91 - i) * DAY));
    });
  });
});
