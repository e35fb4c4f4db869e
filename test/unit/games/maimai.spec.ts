import { describe, expect, it } from '@jest/globals';
import { MAIMAI } from '../../../src/game-support/maimai/index.js';
import { chart, derive, deriveError, input, rated, song } from './fixtures.js';

const gpt = MAIMAI.gpts.Single;
const withMax = (maxPercent: number, levelNum = 13) => chart({ levelNum, data: { maxPercent } });
const c = withMax(101.5);
const rate = (percent: number, levelNum: number, maxPercent = 101.5) => {
  const ch = withMax(maxPercent, levelNum);
  const lamp = percent === maxPercent ? 'ALL PERFECT+' : 'CLEAR';
  return gpt.scoreRatingAlgs.rate.calculate(derive(gpt, input(percent, lamp), ch), ch, song());
};

describe('maimai:Single grades (HEAD boundaries, by percent; SSS+ is the chart maximum)', () => {
  it.each([
    [0, 'F'],
    [9.9999, 'F'],
    [10, 'E'],
    [19.9999, 'E'],
    [20, 'D'],
    [39.9999, 'D'],
    [40, 'C'],
    [59.9999, 'C'],
    [60, 'B'],
    [79.9999, 'B'],
    [80, 'A'],
    [89.9999, 'A'],
    [90, 'AA'],
    [93.9999, 'AA'],
    [94, 'AAA'],
    [96.9999, 'AAA'],
    [97, 'S'],
    [97.9999, 'S'],
    [98, 'S+'],
    [98.9999, 'S+'],
    [99, 'SS'],
    [99.4999, 'SS'],
    [99.5, 'SS+'],
    [99.9999, 'SS+'],
    [100, 'SSS'],
    [101.4999, 'SSS'],
    [101.5, 'SSS+'],
  ])('%d%% on a 101.5%% chart is %s', (percent, grade) => {
    const data = derive(gpt, input(percent, percent === 101.5 ? 'ALL PERFECT+' : 'CLEAR'), c);
    expect(data.grade).toBe(grade);
    expect(data.gradeIndex).toBe(gpt.grades.indexOf(grade));
  });

  it('gives SSS+ for exactly the chart maximum, whatever it is', () => {
    expect(derive(gpt, input(100.45, 'ALL PERFECT+'), withMax(100.45)).grade).toBe('SSS+');
    expect(derive(gpt, input(100.45, 'ALL PERFECT'), withMax(101)).grade).toBe('SSS');
  });
});

describe('maimai:Single derivation', () => {
  it('takes the score as the percent', () => {
    const data = derive(gpt, input(98.7654, 'FULL COMBO'), c);
    expect(data.percent).toBe(98.7654);
    expect(data.score).toBe(98.7654);
    expect(data.lampIndex).toBe(2);
  });

  it.each([
    [101.51, 'CLEAR', /out of range.*101.5/],
    [-0.01, 'FAILED', /out of range/],
    [99, 'HARD CLEAR', /Invalid lamp/],
    [101.5, 'ALL PERFECT', /must be an ALL PERFECT\+/],
    [101.49, 'ALL PERFECT+', /ALL PERFECT\+ must have.*101.5/],
  ])('refuses %d%% with lamp %s on a 101.5%% chart', (percent, lamp, message) => {
    expect(deriveError(gpt, input(percent, lamp), c)).toMatch(message);
  });

  it('refuses a chart without a usable maxPercent', () => {
    expect(deriveError(gpt, input(99, 'CLEAR'), chart())).toMatch(/maxPercent/);
    expect(deriveError(gpt, input(99, 'CLEAR'), withMax(105))).toMatch(/maxPercent/);
  });

  it('refuses judgements the lamp rules out', () => {
    expect(deriveError(gpt, input(100.5, 'ALL PERFECT', { judgements: { great: 1 } }), c)).toMatch(/great or good/);
    expect(deriveError(gpt, input(101.5, 'ALL PERFECT+', { judgements: { good: 1 } }), c)).toMatch(/great or good/);
    expect(deriveError(gpt, input(99, 'FULL COMBO', { judgements: { miss: 1 } }), c)).toMatch(/miss/);
    expect(derive(gpt, input(99, 'FULL COMBO', { judgements: { great: 5, good: 1 } }), c).lamp).toBe('FULL COMBO');
  });

  it('accepts only fast, slow and maxCombo as optional metrics', () => {
    expect(gpt.optionalMetrics.safeParse({ fast: 1, slow: null, maxCombo: 300 }).success).toBe(true);
    expect(gpt.optionalMetrics.safeParse({ gauge: 1 }).success).toBe(false);
  });
});

describe('maimai:Single rate (rg-stats MaimaiRate; level-13 curve F 0 E 0 D 130 C 260 B 520 A 1000 AA 1100 AAA 1150 S− 1250 S 1350 SS− 1475 SS 1500 SSS− 1575 SSS 1600 SSS+ 1700, in hundredths)', () => {
  it.each([
    // the chart maximum takes the top of the curve
    [101.5, 13, 17],
    // 100% is the SSS anchor: (10000 − 10000) / (10150 − 10000) rescales to 10000 → 16
    [100, 13, 16],
    // 100.75% rescales to floor(75 / 150 × 10000 + 10000) = 15000, halfway from SSS (10000) to SSS+ (20000): 1600 + 100 × 0.5
    [100.75, 13, 16.5],
    // 99.5%: SS at 9900 to SSS− at 9999: 1500 + 75 × 50 / 99 = 1537.88 → 15.37
    [99.5, 13, 15.37],
    // exactly S
    [97, 13, 13.5],
    // 95%: AAA at 9400 to S− at 9699: 1150 + 100 × 100 / 299 = 1183.44 → 11.83
    [95, 13, 11.83],
    // 85%: A at 8000 to AA at 9000: 1000 + 100 × 0.5
    [85, 13, 10.5],
    // 50%: C at 4000 to B at 6000: 260 + 260 × 0.5
    [50, 13, 3.9],
    // 10% or below is 0
    [10, 13, 0],
    // level 12.5 sits halfway between the 12 and 13 curves: S = (1200 + 1350) / 2
    [97, 12.5, 12.75],
    // above 15 it extends the 14 → 15 slope: S = 1500 + (1650 − 1500) × 1.5 = 1725
    [97, 15.5, 17.25],
  ])('%d%% at level %d is %d', (percent, level, expected) => {
    expect(rate(percent, level)).toBeCloseTo(expected, 10);
  });

  it('is null when the chart has no maxPercent', () => {
    const data = derive(gpt, input(99, 'CLEAR'), c);
    expect(gpt.scoreRatingAlgs.rate.calculate(data, chart({ levelNum: 13 }), song())).toBeNull();
  });
});

describe('maimai:Single session and profile ratings', () => {
  it('session rate is the mean of the best 10, null with fewer than 10', () => {
    // 14.0, 13.9, ..., 13.0 (11 values): best ten average 13.55
    const scores = Array.from({ length: 11 }, (_, i) => rated({ rate: 14 - i * 0.1 }));
    expect(gpt.sessionRatingAlgs.rate.calculate(scores)).toBeCloseTo(13.55, 10);
    expect(gpt.sessionRatingAlgs.rate.calculate([...scores.slice(0, 9), rated({ rate: null })])).toBeNull();
  });

  it('profile naiveRate is the sum of the best 30 over 30, even with fewer', () => {
    // 35 PBs of 14.2: the best 30 average 14.2
    expect(gpt.profileRatingAlgs.naiveRate.calculate(Array.from({ length: 35 }, () => rated({ rate: 14.2 })))).toBeCloseTo(14.2, 10);
    // 3 PBs: (15 + 14 + 13) / 30 = 1.4
    expect(gpt.profileRatingAlgs.naiveRate.calculate([rated({ rate: 15 }), rated({ rate: 14 }), rated({ rate: 13 })])).toBeCloseTo(1.4, 10);
    expect(gpt.profileRatingAlgs.naiveRate.calculate([])).toBeNull();
  });
});

describe('maimai:Single classes', () => {
  const colour = (naiveRate: number | null) => gpt.classes.colour.derive!({ naiveRate });
  it.each([
    [0, 'WHITE'],
    [1.99, 'WHITE'],
    [2, 'BLUE'],
    [3.99, 'BLUE'],
    [4, 'GREEN'],
    [6.99, 'GREEN'],
    [7, 'YELLOW'],
    [9.99, 'YELLOW'],
    [10, 'RED'],
    [11.99, 'RED'],
    [12, 'PURPLE'],
    [12.99, 'PURPLE'],
    [13, 'BRONZE'],
    [13.99, 'BRONZE'],
    [14, 'SILVER'],
    [14.49, 'SILVER'],
    [14.5, 'GOLD'],
    [14.99, 'GOLD'],
    [15, 'RAINBOW'],
    [17, 'RAINBOW'],
  ])('naiveRate %d is %s', (value, id) => {
    expect(colour(value)).toBe(id);
  });

  it('gives no colour without a naiveRate', () => {
    expect(colour(null)).toBeNull();
  });

  it('has 10 colours and a provided dan ladder of 22 ending in Shinkaiden', () => {
    expect(gpt.classes.colour.values).toHaveLength(10);
    expect(gpt.classes.dan).toMatchObject({ type: 'PROVIDED', downgradable: false });
    expect(gpt.classes.dan.values).toHaveLength(22);
    expect(gpt.classes.dan.values[10]).toEqual({ id: 'KAIDEN', display: '皆伝', hoverText: 'Kaiden' });
    expect(gpt.classes.dan.values[21].id).toBe('SHINKAIDEN');
  });
});

describe('maimai:Single PBs', () => {
  it('needs nothing beyond best percent and best lamp', () => {
    expect(gpt.pbMerge).toEqual([]);
    expect(gpt.identityMetrics).toEqual([]);
  });
});
