import { describe, expect, it } from '@jest/globals';
import { MAIMAIDX } from '../../../src/game-support/maimaidx/index.js';
import { chart, derive, deriveError, input, rated, song } from './fixtures.js';

const gpt = MAIMAIDX.gpts.Single;
const lampFor = (percent: number) => (percent === 101 ? 'ALL PERFECT+' : 'CLEAR');
const rate = (percent: number, levelNum: number) =>
  gpt.scoreRatingAlgs.rate.calculate(derive(gpt, input(percent, lampFor(percent))), chart({ levelNum }), song());

describe('maimaidx:Single grades (HEAD boundaries, by percent)', () => {
  it.each([
    [0, 'D'],
    [49.9999, 'D'],
    [50, 'C'],
    [59.9999, 'C'],
    [60, 'B'],
    [69.9999, 'B'],
    [70, 'BB'],
    [74.9999, 'BB'],
    [75, 'BBB'],
    [79.9999, 'BBB'],
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
    [100.4999, 'SSS'],
    [100.5, 'SSS+'],
    [101, 'SSS+'],
  ])('%d%% is %s', (percent, grade) => {
    const data = derive(gpt, input(percent, lampFor(percent)));
    expect(data.grade).toBe(grade);
    expect(data.gradeIndex).toBe(gpt.grades.indexOf(grade));
  });
});

describe('maimaidx:Single derivation', () => {
  it('takes the score as the percent', () => {
    const data = derive(gpt, input(100.1234, 'FULL COMBO+'));
    expect(data.percent).toBe(100.1234);
    expect(data.lampIndex).toBe(3);
    expect(gpt.percentMax).toBe(101);
  });

  it.each([
    [101.0001, 'ALL PERFECT+', /out of range/],
    [-0.5, 'FAILED', /out of range/],
    [99, 'FULL COMBO PLUS', /Invalid lamp/],
    [101, 'ALL PERFECT', /must be an ALL PERFECT\+/],
    [100.9999, 'ALL PERFECT+', /101%/],
    [100.4999, 'ALL PERFECT', /100.5%/],
  ])('refuses %d%% with lamp %s', (percent, lamp, message) => {
    expect(deriveError(gpt, input(percent, lamp))).toMatch(message);
  });

  it('accepts an ALL PERFECT from 100.5%', () => {
    expect(derive(gpt, input(100.5, 'ALL PERFECT')).lamp).toBe('ALL PERFECT');
  });

  it('validates the optional metrics strictly', () => {
    expect(gpt.optionalMetrics.safeParse({ percentGraph: [0, null, 101], lifeGraph: [999, 0], maxCombo: 10 }).success).toBe(true);
    expect(gpt.optionalMetrics.safeParse({ percentGraph: [101.5] }).success).toBe(false);
    expect(gpt.optionalMetrics.safeParse({ dxScore: 1 }).success).toBe(false);
  });
});

describe('maimaidx:Single rate (rg-stats MaimaiDXRate: floor(min(10000 × %, 1,005,000) × coef × round(10 × L) / 10^8), no lamp bonus)', () => {
  it.each([
    // 1,005,000 × 224 × 140 = 31,516,800,000 → 315
    [100.5, 14, 315],
    // capped at 100.5%, and the ALL PERFECT+ lamp is not passed, so no +1
    [101, 14, 315],
    // 1,004,999 × 222 × 140 = 31,235,368,920 → 312
    [100.4999, 14, 312],
    // 1,000,000 × 216 × 135 = 29,160,000,000 → 291
    [100, 13.5, 291],
    // 995,000 × 211 × 130 = 27,292,850,000 → 272
    [99.5, 13, 272],
    // 970,000 × 200 × 127 = 24,638,000,000 → 246
    [97, 12.7, 246],
    // 969,999 × 176 × 127 = 21,681,417,648 → 216
    [96.9999, 12.7, 216],
    // 800,000 × 136 × 100 = 10,880,000,000 → 108
    [80, 10, 108],
    // 500,000 × 80 × 100 = 4,000,000,000 → 40
    [50, 10, 40],
    [0, 10, 0],
  ])('%d%% at %d is %d', (percent, level, expected) => {
    expect(rate(percent, level)).toBe(expected);
  });
});

describe('maimaidx:Single session and profile ratings', () => {
  it('session rate is the mean of the best 10, null with fewer than 10', () => {
    // 300, 299, ..., 290 (11 values): best ten average 295.5
    const scores = Array.from({ length: 11 }, (_, i) => rated({ rate: 300 - i }));
    expect(gpt.sessionRatingAlgs.rate.calculate(scores)).toBeCloseTo(295.5, 10);
    expect(gpt.sessionRatingAlgs.rate.calculate([...scores.slice(0, 9), rated({ rate: null })])).toBeNull();
  });

  it('profile naiveRate is the sum of the best 50', () => {
    // 55 PBs of 300: the best 50 sum to 15000
    expect(gpt.profileRatingAlgs.naiveRate.calculate(Array.from({ length: 55 }, () => rated({ rate: 300 })))).toBe(15_000);
    // 3 PBs: 315 + 312 + 291 = 918
    expect(gpt.profileRatingAlgs.naiveRate.calculate([rated({ rate: 315 }), rated({ rate: 312 }), rated({ rate: 291 })])).toBe(918);
    expect(gpt.profileRatingAlgs.naiveRate.calculate([])).toBeNull();
  });

  it('profile naiveRate is an integer sum: 25 × 301 + 25 × 299 = 7525 + 7475 = 15000 is RAINBOW, 14999 is PLATINUM', () => {
    const rate = gpt.profileRatingAlgs.naiveRate.calculate([
      ...Array.from({ length: 25 }, () => rated({ rate: 301 })),
      ...Array.from({ length: 25 }, () => rated({ rate: 299 })),
    ]);
    expect(rate).toBe(15_000);
    expect(gpt.classes.colour.derive!({ naiveRate: rate })).toBe('RAINBOW');
    // 49 × 300 + 299 = 14999
    const below = gpt.profileRatingAlgs.naiveRate.calculate([...Array.from({ length: 49 }, () => rated({ rate: 300 })), rated({ rate: 299 })]);
    expect(below).toBe(14_999);
    expect(gpt.classes.colour.derive!({ naiveRate: below })).toBe('PLATINUM');
  });
});

describe('maimaidx:Single classes', () => {
  const colour = (naiveRate: number | null) => gpt.classes.colour.derive!({ naiveRate });
  it.each([
    [0, 'WHITE'],
    [999, 'WHITE'],
    [1000, 'BLUE'],
    [1999, 'BLUE'],
    [2000, 'GREEN'],
    [3999, 'GREEN'],
    [4000, 'YELLOW'],
    [6999, 'YELLOW'],
    [7000, 'RED'],
    [9999, 'RED'],
    [10_000, 'PURPLE'],
    [11_999, 'PURPLE'],
    [12_000, 'BRONZE'],
    [12_999, 'BRONZE'],
    [13_000, 'SILVER'],
    [13_999, 'SILVER'],
    [14_000, 'GOLD'],
    [14_499, 'GOLD'],
    [14_500, 'PLATINUM'],
    [14_999, 'PLATINUM'],
    [15_000, 'RAINBOW'],
    [16_500, 'RAINBOW'],
  ])('naiveRate %d is %s', (value, id) => {
    expect(colour(value)).toBe(id);
  });

  it('gives no colour without a naiveRate', () => {
    expect(colour(null)).toBeNull();
  });

  it('has provided dan (22) and matching classes with unique ids (HEAD repeats A5)', () => {
    expect(gpt.classes.colour.values).toHaveLength(11);
    expect(gpt.classes.dan.values).toHaveLength(22);
    expect(gpt.classes.dan.values[21]).toEqual({ id: 'URAKAIDEN', display: '裏皆伝', hoverText: 'Urakaiden' });
    const matching = gpt.classes.matchingClass;
    expect(matching).toMatchObject({ type: 'PROVIDED', downgradable: false });
    const ids = matching.values.map((v) => v.id);
    expect(ids).toHaveLength(26);
    expect(new Set(ids).size).toBe(26);
    expect(ids.slice(0, 25).join(' ')).toBe('B5 B4 B3 B2 B1 A5 A4 A3 A2 A1 S5 S4 S3 S2 S1 SS5 SS4 SS3 SS2 SS1 SSS5 SSS4 SSS3 SSS2 SSS1');
    expect(matching.values[25]).toEqual({ id: 'LEGEND', display: 'Legend' });
  });
});

describe('maimaidx:Single PBs', () => {
  it('needs nothing beyond best percent and best lamp', () => {
    expect(gpt.pbMerge).toEqual([]);
    expect(gpt.identityMetrics).toEqual([]);
  });
});
