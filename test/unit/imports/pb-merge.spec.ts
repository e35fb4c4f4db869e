import { describe, expect, it } from '@jest/globals';
import { BMS } from '../../../src/game-support/bms/index.js';
import { CHUNITHM } from '../../../src/game-support/chunithm/index.js';
import { SDVX } from '../../../src/game-support/sdvx/index.js';
import type { GptSupport, ScoreInput } from '../../../src/game-support/types.js';
import { mergePersonalBest, type ScoreForPb } from '../../../src/scoring/pbs/pb-merge.js';
import { chart, derive, input, song } from '../games/fixtures.js';

const sdvx = SDVX.gpts.Single;
const bms = BMS.gpts['7K'];
const chunithm = CHUNITHM.gpts.Single;
const T = 1_700_000_000_000;

/** A stored score as the PB writer reads it: derived by the game itself. */
function score(gpt: GptSupport, scoreID: string, i: ScoreInput, timeAchieved: number | null, c = chart(), highlighted = false): ScoreForPb {
  return { scoreID, scoreData: derive(gpt, i, c), timeAchieved, highlighted };
}

describe('mergePersonalBest: best score plus best lamp', () => {
  const c = chart({ levelNum: 18 });

  it('takes the score from the best-score play and the lamp from the best-lamp play, and says so in composedFrom', () => {
    const nc = score(sdvx, 'nc', input(9_100_000, 'CLEAR'), T + 1000, c);
    const hc = score(sdvx, 'hc', input(9_000_000, 'EXCESSIVE CLEAR'), T, c);
    const pb = mergePersonalBest(sdvx, c, song(), [hc, nc]);
    expect(pb.scoreData).toMatchObject({ score: 9_100_000, percent: 91, grade: 'A+', lamp: 'EXCESSIVE CLEAR', lampIndex: 2 });
    expect(pb.composedFrom).toEqual([
      { name: 'Best Score', scoreID: 'nc' },
      { name: 'Best Lamp', scoreID: 'hc' },
    ]);
  });

  it('recomputes VF6 on the merged PB: HC at 9.0M plus NC at 9.1M rates as an EXCESSIVE CLEAR at 9.1M', () => {
    // VF6 = floor(level × 2 × score/1e7 × grade coefficient × lamp coefficient / 1000) / 1000, level 18:
    //   NC  9.1M (A+ 91, CLEAR 100):           36 × 0.91 × 91 × 100 = 298,116   → 0.298
    //   HC  9.0M (A+ 91, EXCESSIVE CLEAR 102): 36 × 0.90 × 91 × 102 = 300,736.8 → 0.300
    //   PB  9.1M (A+ 91, EXCESSIVE CLEAR 102): 36 × 0.91 × 91 × 102 = 304,078.3 → 0.304
    const nc = score(sdvx, 'nc', input(9_100_000, 'CLEAR'), T + 1000, c);
    const hc = score(sdvx, 'hc', input(9_000_000, 'EXCESSIVE CLEAR'), T, c);
    expect(sdvx.scoreRatingAlgs.VF6.calculate(nc.scoreData, c, song())).toBe(0.298);
    expect(sdvx.scoreRatingAlgs.VF6.calculate(hc.scoreData, c, song())).toBe(0.3);
    expect(mergePersonalBest(sdvx, c, song(), [nc, hc]).calculatedData).toEqual({ VF6: 0.304 });
  });

  it('lists only Best Score when one play holds both the best score and the best lamp', () => {
    const best = score(sdvx, 'best', input(9_500_000, 'EXCESSIVE CLEAR'), T, c);
    const worse = score(sdvx, 'worse', input(9_000_000, 'CLEAR'), T + 1000, c);
    const pb = mergePersonalBest(sdvx, c, song(), [worse, best]);
    expect(pb.composedFrom).toEqual([{ name: 'Best Score', scoreID: 'best' }]);
    expect(pb.timeAchieved).toBe(T);
  });

  it('breaks a tie in score or lamp in favour of the earlier achievement; an unknown time counts as later', () => {
    const late = score(sdvx, 'a-late', input(9_000_000, 'CLEAR'), T + 5000, c);
    const early = score(sdvx, 'z-early', input(9_000_000, 'CLEAR'), T, c);
    const unknown = score(sdvx, '0-unknown', input(9_000_000, 'CLEAR'), null, c);
    for (const order of [
      [late, early, unknown],
      [unknown, late, early],
      [early, unknown, late],
    ]) {
      const pb = mergePersonalBest(sdvx, c, song(), order);
      expect(pb.composedFrom).toEqual([{ name: 'Best Score', scoreID: 'z-early' }]);
      expect(pb.timeAchieved).toBe(T);
    }
    // Same time: the smaller scoreID, so the result never depends on the order of the rows.
    const twinA = score(sdvx, 'twin-a', input(9_000_000, 'CLEAR'), T, c);
    const twinB = score(sdvx, 'twin-b', input(9_000_000, 'CLEAR'), T, c);
    expect(mergePersonalBest(sdvx, c, song(), [twinB, twinA]).composedFrom).toEqual([{ name: 'Best Score', scoreID: 'twin-a' }]);
  });

  it('ranks scores by percent, then by score', () => {
    const a = score(sdvx, 'a', input(9_100_000, 'CLEAR'), T, c);
    const b = score(sdvx, 'b', input(9_100_001, 'CLEAR'), T + 1, c);
    expect(mergePersonalBest(sdvx, c, song(), [a, b]).scoreData.score).toBe(9_100_001);
  });

  it('sets timeAchieved to the latest of the composing scores only, and highlighted if any of them is', () => {
    const scorePB = score(sdvx, 'score', input(9_800_000, 'CLEAR'), T + 2000, c);
    const lampPB = score(sdvx, 'lamp', input(9_000_000, 'EXCESSIVE CLEAR'), T + 1000, c, true);
    const laterButUseless = score(sdvx, 'useless', input(8_000_000, 'FAILED'), T + 9000, c, false);
    const pb = mergePersonalBest(sdvx, c, song(), [scorePB, lampPB, laterButUseless]);
    expect(pb.timeAchieved).toBe(T + 2000);
    // Ranks break ties on when the best score was achieved, whatever improved later.
    expect(pb.rankTime).toBe(T + 2000);
    expect(
      mergePersonalBest(sdvx, c, song(), [score(sdvx, 's', input(9_500_000, 'CLEAR'), T, c), score(sdvx, 'l', input(9_000_000, 'ULTIMATE CHAIN'), T + 9000, c)])
        .rankTime,
    ).toBe(T);
    expect(pb.highlighted).toBe(true);
    const noTimes = mergePersonalBest(sdvx, c, song(), [
      score(sdvx, 'x', input(9_000_000, 'CLEAR'), null, c),
      score(sdvx, 'y', input(8_000_000, 'EXCESSIVE CLEAR'), null, c),
    ]);
    expect(noTimes.timeAchieved).toBeNull();
    expect(noTimes.highlighted).toBe(false);
    // A known time wins over an unknown one.
    const mixed = mergePersonalBest(sdvx, c, song(), [
      score(sdvx, 'x', input(9_000_000, 'CLEAR'), null, c),
      score(sdvx, 'y', input(8_000_000, 'EXCESSIVE CLEAR'), T, c),
    ]);
    expect(mixed.timeAchieved).toBe(T);
  });

  it('refuses an empty list', () => {
    expect(() => mergePersonalBest(sdvx, c, song(), [])).toThrow(/at least one score/);
  });
});

describe('mergePersonalBest: the games’ pbMerge rules', () => {
  const bmsChart = chart({ playtype: '7K', difficulty: 'CHART', levelNum: 12, data: { notecount: 1000 } });

  it("'best' with direction max (SDVX exScore): the highest value from any play, with its play in composedFrom and its time counted", () => {
    const c = chart({ levelNum: 18 });
    const scorePB = score(sdvx, 'score', input(9_500_000, 'CLEAR', { optional: { exScore: 2900 } }), T, c);
    const lampPB = score(sdvx, 'lamp', input(9_000_000, 'EXCESSIVE CLEAR', { optional: { exScore: 2800 } }), T + 1000, c);
    const exPB = score(sdvx, 'ex', input(9_400_000, 'CLEAR', { optional: { exScore: 2950 } }), T + 3000, c);
    const noEx = score(sdvx, 'none', input(9_300_000, 'CLEAR'), T + 4000, c);
    const pb = mergePersonalBest(sdvx, c, song(), [scorePB, lampPB, exPB, noEx]);
    expect(pb.scoreData.optional.exScore).toBe(2950);
    expect(pb.composedFrom).toEqual([
      { name: 'Best Score', scoreID: 'score' },
      { name: 'Best Lamp', scoreID: 'lamp' },
      { name: 'Best EX Score', scoreID: 'ex' },
    ]);
    expect(pb.timeAchieved).toBe(T + 3000);
  });

  it("'best' with direction min (BMS bp): the lowest BP, ignoring plays without one; no extra entry when a composing play holds it", () => {
    const scorePB = score(bms, 'score', input(1800, 'CLEAR', { optional: { bp: 20 } }), T, bmsChart);
    const lampPB = score(bms, 'lamp', input(1500, 'HARD CLEAR', { optional: { bp: 15 } }), T + 1000, bmsChart);
    const bpPB = score(bms, 'bp', input(1400, 'FAILED', { optional: { bp: 5 } }), T + 2000, bmsChart);
    const nullBp = score(bms, 'null-bp', input(1300, 'FAILED', { optional: { bp: null } }), T + 3000, bmsChart);
    const pb = mergePersonalBest(bms, bmsChart, song(), [scorePB, lampPB, bpPB, nullBp]);
    expect(pb.scoreData).toMatchObject({ score: 1800, lamp: 'HARD CLEAR' });
    expect(pb.scoreData.optional.bp).toBe(5);
    expect(pb.composedFrom).toEqual([
      { name: 'Best Score', scoreID: 'score' },
      { name: 'Best Lamp', scoreID: 'lamp' },
      { name: 'Best BP', scoreID: 'bp' },
    ]);
    expect(pb.timeAchieved).toBe(T + 2000);

    const lampHasBest = mergePersonalBest(bms, bmsChart, song(), [scorePB, lampPB]);
    expect(lampHasBest.scoreData.optional.bp).toBe(15);
    expect(lampHasBest.composedFrom.map((e) => e.name)).toEqual(['Best Score', 'Best Lamp']);
  });

  it("'fromLampPB' (BMS gauge): metrics that belong with the lamp come from the best-lamp play, and are dropped when it has none", () => {
    const scorePB = score(bms, 'score', input(1800, 'CLEAR', { optional: { gauge: 80, gaugeHistory: [20, 80] } }), T, bmsChart);
    const lampPB = score(bms, 'lamp', input(1500, 'HARD CLEAR', { optional: { gauge: 35.5 } }), T + 1000, bmsChart);
    const pb = mergePersonalBest(bms, bmsChart, song(), [scorePB, lampPB]);
    expect(pb.scoreData.optional.gauge).toBe(35.5);
    expect(pb.scoreData.optional).not.toHaveProperty('gaugeHistory');
  });

  it("'best' with an order (CHUNITHM clearLamp): the highest in the order, not alphabetically", () => {
    const c = chart({ difficulty: 'MASTER', levelNum: 14 });
    const hard = score(chunithm, 'hard', input(1_005_000, 'CLEAR', { optional: { clearLamp: 'HARD' } }), T, c);
    const brave = score(chunithm, 'brave', input(990_000, 'CLEAR', { optional: { clearLamp: 'BRAVE' } }), T + 1000, c);
    const absolute = score(chunithm, 'absolute', input(980_000, 'CLEAR', { optional: { clearLamp: 'ABSOLUTE' } }), T + 2000, c);
    const pb = mergePersonalBest(chunithm, c, song(), [hard, absolute, brave]);
    expect(pb.scoreData.optional.clearLamp).toBe('ABSOLUTE');
    // CLEAR is the best lamp of all three: the earliest (hard) holds both the score and the lamp.
    expect(pb.composedFrom).toEqual([
      { name: 'Best Score', scoreID: 'hard' },
      { name: 'Best Clear Lamp', scoreID: 'absolute' },
    ]);
  });
});
