import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import { createTestApp, type TestApp } from '../support/app.js';
import { batchManual, fixtureChart, HOUR, imported, loadFixtureCatalog, player, T0, type Player } from '../support/imports.js';
import { storedPb } from '../support/stored.js';

const md5 = (s: string) => createHash('md5').update(s).digest('hex');
const sdvx = (difficulty: string, score: number, lamp: string, timeAchieved: number | null, extra: Record<string, unknown> = {}) => ({
  matchType: 'sdvxInGameID',
  identifier: '1001',
  difficulty,
  score,
  lamp,
  timeAchieved,
  ...extra,
});

describe('PBs through real imports', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
    await loadFixtureCatalog(t.database);
  });
  afterAll(async () => {
    await t.close();
  });

  describe('sdvx: best score + best lamp, VF6 recomputed, best EX score', () => {
    let p: Player;
    const MXM = fixtureChart('sdvx-1-MXM');

    beforeAll(async () => {
      p = await player(t);
    });

    it('merges an earlier EXCESSIVE CLEAR at 9.0M with a later CLEAR at 9.1M into an EXCESSIVE CLEAR at 9.1M, rated as such', async () => {
      const hc = await imported(t, p.token, batchManual('sdvx', 'Single', [sdvx('MXM', 9_000_000, 'EXCESSIVE CLEAR', T0, { optional: { exScore: 2900 } })]));
      const first = (await storedPb(t, p.user.id, MXM))!;
      // Level 18, 9.0M (A+ 91), EXCESSIVE CLEAR (102): 36 × 0.9 × 91 × 102 = 300,736.8 → 0.300.
      expect(first).toMatchObject({
        scoreData: { score: 9_000_000, lampIndex: 2 },
        calculatedData: { VF6: 0.3 },
        composedFrom: [{ name: 'Best Score', scoreID: hc.scoreIDs[0] }],
        timeAchieved: T0,
      });

      const nc = await imported(t, p.token, batchManual('sdvx', 'Single', [sdvx('MXM', 9_100_000, 'CLEAR', T0 + 3 * HOUR, { optional: { exScore: 2850 } })]));
      const pb = (await storedPb(t, p.user.id, MXM))!;
      expect(pb.scoreData).toMatchObject({ score: 9_100_000, percent: 91, grade: 'A+', lamp: 'EXCESSIVE CLEAR', lampIndex: 2, optional: { exScore: 2900 } });
      expect(pb).toMatchObject({ scoreData: { score: 9_100_000, percent: 91, lampIndex: 2 }, isPrimary: true, songID: 1, game: 'sdvx', playtype: 'Single' });
      // Neither play's own VF6 (NC 9.1M: 36 × 0.91 × 91 × 100 = 298,116 → 0.298; HC: 0.300), but the merged one:
      // 36 × 0.91 × 91 × 102 = 304,078.3 → 0.304.
      expect(pb.calculatedData).toEqual({ VF6: 0.304 });
      // The HC play also holds the best EX score, so it is listed once, as the best lamp.
      expect(pb.composedFrom).toEqual([
        { name: 'Best Score', scoreID: nc.scoreIDs[0] },
        { name: 'Best Lamp', scoreID: hc.scoreIDs[0] },
      ]);
      expect(pb.timeAchieved).toBe(T0 + 3 * HOUR);
    });

    it('takes the best EX score from a third play, listing it and counting its time', async () => {
      const ex = await imported(t, p.token, batchManual('sdvx', 'Single', [sdvx('MXM', 8_900_000, 'CLEAR', T0 + 5 * HOUR, { optional: { exScore: 2950 } })]));
      const pb = (await storedPb(t, p.user.id, MXM))!;
      expect(pb.scoreData).toMatchObject({ score: 9_100_000, lamp: 'EXCESSIVE CLEAR', optional: { exScore: 2950 } });
      expect(pb.composedFrom.map((e) => e.name)).toEqual(['Best Score', 'Best Lamp', 'Best EX Score']);
      expect(pb.composedFrom[2].scoreID).toBe(ex.scoreIDs[0]);
      expect(pb.timeAchieved).toBe(T0 + 5 * HOUR);
      expect(pb.calculatedData).toEqual({ VF6: 0.304 });
    });

    it('is one PB per chart and user, whatever the number of plays', async () => {
      const all = await t.http().get(`/api/v1/users/${p.user.id}/games/sdvx/Single/pbs/all`);
      expect(all.body.pbs).toHaveLength(1);
    });
  });

  describe('EX-score games: lowest BP, the gauge with its lamp', () => {
    it('bms: best EX score, best lamp and lowest BP from three plays', async () => {
      const p = await player(t);
      const el = (score: number, lamp: string, optional: Record<string, unknown>, timeAchieved: number) => ({
        matchType: 'bmsChartHash',
        identifier: md5('bms-alpha-7k'),
        score,
        lamp,
        optional,
        timeAchieved,
      });
      const doc = await imported(
        t,
        p.token,
        batchManual('bms', '7K', [
          el(1800, 'CLEAR', { bp: 20, gauge: 82 }, T0), // best EX score
          el(1500, 'HARD CLEAR', { bp: 15, gauge: 40 }, T0 + 10 * 60_000), // best lamp
          el(1400, 'FAILED', { bp: 5, gauge: 0 }, T0 + 20 * 60_000), // lowest BP
          el(1300, 'FAILED', {}, T0 + 30 * 60_000), // no BP: ignored
        ]),
      );
      const pb = (await storedPb(t, p.user.id, fixtureChart('bms-1-7K')))!;
      // 1800 / (1000 × 2) = 90%: AAA (≥ 8/9 = 88.9%).
      expect(pb.scoreData).toMatchObject({ score: 1800, percent: 90, grade: 'AAA', lamp: 'HARD CLEAR', optional: { bp: 5, gauge: 40 } });
      expect(pb.composedFrom).toEqual([
        { name: 'Best Score', scoreID: doc.scoreIDs[0] },
        { name: 'Best Lamp', scoreID: doc.scoreIDs[1] },
        { name: 'Best BP', scoreID: doc.scoreIDs[2] },
      ]);
      expect(pb.timeAchieved).toBe(T0 + 20 * 60_000);
    });

    it('iidx: lowest BP and the gauge of the best lamp', async () => {
      const p = await player(t);
      const el = (score: number, lamp: string, optional: Record<string, unknown>) => ({
        matchType: 'inGameID',
        identifier: '30001',
        difficulty: 'ANOTHER',
        score,
        lamp,
        optional,
        timeAchieved: T0 + score,
      });
      await imported(t, p.token, batchManual('iidx', 'SP', [el(1700, 'CLEAR', { bp: 12, gauge: 90 }), el(1650, 'EX HARD CLEAR', { bp: 9, gauge: 30 })]));
      const pb = (await storedPb(t, p.user.id, fixtureChart('iidx-1-SP-ANOTHER')))!;
      expect(pb.scoreData).toMatchObject({ score: 1700, percent: 85, grade: 'AA', lamp: 'EX HARD CLEAR', optional: { bp: 9, gauge: 30 } });
      expect(pb.composedFrom.map((e) => e.name)).toEqual(['Best Score', 'Best Lamp']);
    });
  });

  describe('ranks', () => {
    const EXH = fixtureChart('sdvx-1-EXH');
    const ADV = fixtureChart('sdvx-1-ADV');
    let users: Player[];
    const rankOf = async (u: Player, chart = EXH) => {
      const pb = await storedPb(t, u.user.id, chart);
      return pb && { rank: pb.rankingData.rank, outOf: pb.rankingData.outOf };
    };
    const ranks = async () => Promise.all(users.map((u) => rankOf(u)));

    beforeAll(async () => {
      users = [await player(t), await player(t), await player(t), await player(t), await player(t)];
    });

    it('ranks every PB of a chart 1..N, best first, a tie going to the earlier achievement', async () => {
      const [a, b, c, d] = users;
      await imported(t, a.token, batchManual('sdvx', 'Single', [sdvx('EXH', 9_500_000, 'CLEAR', T0 + 3 * HOUR)]));
      await imported(t, b.token, batchManual('sdvx', 'Single', [sdvx('EXH', 9_500_000, 'CLEAR', T0 + HOUR)]));
      await imported(t, c.token, batchManual('sdvx', 'Single', [sdvx('EXH', 9_800_000, 'CLEAR', T0 + 2 * HOUR)]));
      await imported(t, d.token, batchManual('sdvx', 'Single', [sdvx('EXH', 9_000_000, 'EXCESSIVE CLEAR', T0)]));
      expect(await ranks()).toEqual([{ rank: 3, outOf: 4 }, { rank: 2, outOf: 4 }, { rank: 1, outOf: 4 }, { rank: 4, outOf: 4 }, undefined]);
    });

    it('moves the other users when a new PB lands, and counts a newcomer in everyone’s outOf', async () => {
      const [, , , d, e] = users;
      await imported(t, d.token, batchManual('sdvx', 'Single', [sdvx('EXH', 9_900_000, 'CLEAR', T0 + 4 * HOUR)]));
      expect(await ranks()).toEqual([{ rank: 4, outOf: 4 }, { rank: 3, outOf: 4 }, { rank: 2, outOf: 4 }, { rank: 1, outOf: 4 }, undefined]);
      // A tie with no known time ranks after the timed ones.
      await imported(t, e.token, batchManual('sdvx', 'Single', [sdvx('EXH', 9_500_000, 'CLEAR', null)]));
      expect(await ranks()).toEqual([
        { rank: 4, outOf: 5 },
        { rank: 3, outOf: 5 },
        { rank: 2, outOf: 5 },
        { rank: 1, outOf: 5 },
        { rank: 5, outOf: 5 },
      ]);
    });

    it('leaves ranks alone when only a lamp improves, and never touches other charts', async () => {
      const [a, b] = users;
      await imported(t, a.token, batchManual('sdvx', 'Single', [sdvx('ADV', 9_000_000, 'CLEAR', T0)]));
      await imported(t, b.token, batchManual('sdvx', 'Single', [sdvx('EXH', 9_100_000, 'ULTIMATE CHAIN', T0 + 6 * HOUR)]));
      const pb = (await storedPb(t, b.user.id, EXH))!;
      expect(pb.scoreData).toMatchObject({ score: 9_500_000, lamp: 'ULTIMATE CHAIN' });
      // The PB's time is now the lamp's (T0 + 6h), but the tie is on score: b reached 9.5M first, and stays ahead of a.
      expect(pb.timeAchieved).toBe(T0 + 6 * HOUR);
      expect(await ranks()).toEqual([
        { rank: 4, outOf: 5 },
        { rank: 3, outOf: 5 },
        { rank: 2, outOf: 5 },
        { rank: 1, outOf: 5 },
        { rank: 5, outOf: 5 },
      ]);
      expect(await rankOf(a, ADV)).toEqual({ rank: 1, outOf: 1 });
    });
  });
});
