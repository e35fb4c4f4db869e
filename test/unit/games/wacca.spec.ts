import { describe, expect, it } from '@jest/globals';
import { WACCA } from '../../../src/game-support/wacca/index.js';
import { chart, derive, deriveError, input, rated, song } from './fixtures.js';

const gpt = WACCA.gpts.Single;
const rate = (score: number, levelNum: number) => {
  const lamp = score === 1_000_000 ? 'ALL MARVELOUS' : 'CLEAR';
  return gpt.scoreRatingAlgs.rate.calculate(derive(gpt, input(score, lamp)), chart({ difficulty: 'EXPERT', levelNum }), song());
};

describe('wacca grades (HEAD boundaries, by score)', () => {
  it.each([
    [0, 'D'],
    [1, 'C'],
    // B: HEAD's 300,100 (a listed quirk; 2.2.0's 3.0001% is 30,001 points, still a C here)
    [30_001, 'C'],
    [300_000, 'C'],
    [300_099, 'C'],
    [300_100, 'B'],
    [699_999, 'B'],
    [700_000, 'A'],
    [799_999, 'A'],
    [800_000, 'AA'],
    [849_999, 'AA'],
    [850_000, 'AAA'],
    [899_999, 'AAA'],
    [900_000, 'S'],
    [929_999, 'S'],
    [930_000, 'S+'],
    [949_999, 'S+'],
    [950_000, 'SS'],
    [969_999, 'SS'],
    [970_000, 'SS+'],
    [979_999, 'SS+'],
    [980_000, 'SSS'],
    [989_999, 'SSS'],
    [990_000, 'SSS+'],
    [999_999, 'SSS+'],
    [1_000_000, 'MASTER'],
  ])('score %d is %s', (score, grade) => {
    const data = derive(gpt, input(score, score === 1_000_000 ? 'ALL MARVELOUS' : 'CLEAR'));
    expect(data.grade).toBe(grade);
    expect(data.gradeIndex).toBe(gpt.grades.indexOf(grade));
  });
});

describe('wacca derivation', () => {
  it('derives percent as score / 10,000', () => {
    const data = derive(gpt, input(987_654, 'MISSLESS'));
    expect(data.percent).toBeCloseTo(98.7654, 10);
    expect(data.lampIndex).toBe(2);
  });

  it.each([
    [1_000_001, 'ALL MARVELOUS', {}, /out of range/],
    [-1, 'FAILED', {}, /out of range/],
    [900_000.5, 'CLEAR', {}, /integer/],
    [900_000, 'HARD CLEAR', {}, /Invalid lamp/],
    [999_999, 'ALL MARVELOUS', {}, /1,000,000/],
    [1_000_000, 'FULL COMBO', {}, /ALL MARVELOUS/],
    [1_000_000, 'ALL MARVELOUS', { great: 1 }, /great/],
    [1_000_000, 'ALL MARVELOUS', { good: 1 }, /good/],
    [990_000, 'FULL COMBO', { miss: 1 }, /miss/],
    [970_000, 'MISSLESS', { miss: 6 }, /at most 5/],
  ])('refuses %d %s with %j', (score, lamp, judgements, message) => {
    expect(deriveError(gpt, input(score, lamp, { judgements }))).toMatch(message);
  });

  it('lets a MISSLESS have up to 5 misses and a FULL COMBO have goods', () => {
    expect(derive(gpt, input(970_000, 'MISSLESS', { judgements: { miss: 5 } })).lamp).toBe('MISSLESS');
    expect(derive(gpt, input(990_000, 'FULL COMBO', { judgements: { good: 4, miss: 0 } })).lamp).toBe('FULL COMBO');
  });
});

describe('wacca rate = score coefficient (REVERSE) × internal level, to 3 decimals', () => {
  it.each([
    [1_000_000, 13.7, 54.8, '4 × 13.7'],
    [990_000, 12, 48, '4 × 12'],
    [989_999, 12, 45, '3.75 × 12'],
    [985_000, 12.6, 47.25, '3.75 × 12.6'],
    [975_000, 13, 45.5, '3.5 × 13'],
    [960_000, 12, 39, '3.25 × 12'],
    [950_000, 11, 33, '3 × 11'],
    [945_000, 12.3, 33.825, '2.75 × 12.3'],
    [930_000, 11, 27.5, '2.5 × 11'],
    [910_000, 10, 20, '2 × 10'],
    [860_000, 10.5, 15.75, '1.5 × 10.5'],
    [849_999, 10, 10, '1 × 10'],
  ])('%d on a %d: %d (%s)', (score, level, expected) => {
    expect(rate(score, level)).toBeCloseTo(expected, 10);
  });

  it('is null on a negative level', () => {
    expect(rate(950_000, -1)).toBeNull();
  });
});

describe('wacca session and profile ratings', () => {
  it('session rate: mean of the best 10, null with fewer than 10', () => {
    // 50, 49, ..., 39 plus a null: best ten 50..41 average 45.5
    const scores = [...Array.from({ length: 12 }, (_, i) => rated({ rate: 50 - i })), rated({ rate: null })];
    expect(gpt.sessionRatingAlgs.rate.calculate(scores)).toBeCloseTo(45.5, 10);
    expect(gpt.sessionRatingAlgs.rate.calculate(scores.slice(0, 9))).toBeNull();
  });

  it('naiveRate: sum of the best 50', () => {
    expect(gpt.profileRatingAlgs.naiveRate.calculate(Array.from({ length: 55 }, () => rated({ rate: 40 })))).toBeCloseTo(2000, 10);
    // 54.8 + 47.25 + 33.825 = 135.875
    expect(gpt.profileRatingAlgs.naiveRate.calculate([rated({ rate: 54.8 }), rated({ rate: 47.25 }), rated({ rate: 33.825 })])).toBeCloseTo(135.875, 10);
    expect(gpt.profileRatingAlgs.naiveRate.calculate([])).toBeNull();
  });

  it('naiveRate is summed in thousandths, so an exact 300 is NAVY', () => {
    // 5 × 30.002 + 5 × 29.998 = 150.010 + 149.990 = 300.000; float additions give 299.99999999999994
    const rate = gpt.profileRatingAlgs.naiveRate.calculate([
      ...Array.from({ length: 5 }, () => rated({ rate: 30.002 })),
      ...Array.from({ length: 5 }, () => rated({ rate: 29.998 })),
    ]);
    expect(rate).toBe(300);
    expect(gpt.classes.colour.derive!({ naiveRate: rate })).toBe('NAVY');
  });
});

describe('wacca rate profile: best 15 on HOT charts + best 35 on charts not HOT (chart data.isHot)', () => {
  const pb = (value: number | null, isHot?: boolean) =>
    rated({ rate: value }, { chart: chart({ difficulty: 'EXPERT', data: isHot === undefined ? {} : { isHot } }) });
  const profile = (scores: ReturnType<typeof pb>[]) => gpt.profileRatingAlgs.rate.calculate(scores);

  it('is a second profile algorithm; naiveRate stays the default', () => {
    expect(Object.keys(gpt.profileRatingAlgs)).toEqual(['naiveRate', 'rate']);
    expect(gpt.defaultProfileRatingAlg).toBe('naiveRate');
  });

  it('adds the best 15 HOT and the best 35 with isHot false; a chart that does not say counts in neither', () => {
    // HOT: 20 at 50 → 15 × 50 = 750. Not HOT: 40 at 40 → 35 × 40 = 1400. Unmarked 60s: left out. 750 + 1400 = 2150
    const scores = [
      ...Array.from({ length: 20 }, () => pb(50, true)),
      ...Array.from({ length: 40 }, () => pb(40, false)),
      ...Array.from({ length: 5 }, () => pb(60)),
    ];
    expect(profile(scores)).toBe(2150);
  });

  it('takes the best of each side: 54.8 + 47.25 HOT, 33.825 + 12.5 not HOT = 148.375', () => {
    expect(profile([pb(47.25, true), pb(54.8, true), pb(12.5, false), pb(33.825, false), pb(null, false)])).toBe(148.375);
  });

  it('is null with no HOT or not-HOT rate', () => {
    expect(profile([])).toBeNull();
    expect(profile([pb(50)])).toBeNull();
  });
});

describe('wacca classes', () => {
  const derived = (v: number | null) => gpt.classes.colour.derive!({ naiveRate: v });
  it.each([
    [0, 'ASH'],
    [299.999, 'ASH'],
    [300, 'NAVY'],
    [599.999, 'NAVY'],
    [600, 'YELLOW'],
    [1000, 'RED'],
    [1300, 'PURPLE'],
    [1600, 'BLUE'],
    [1900, 'SILVER'],
    [2200, 'GOLD'],
    [2499.999, 'GOLD'],
    [2500, 'RAINBOW'],
  ])('colour at naiveRate %d is %s', (v, cls) => {
    expect(derived(v)).toBe(cls);
  });

  it('gives no colour without a naiveRate', () => {
    expect(derived(null)).toBeNull();
  });

  it('stageUp is provided, never lowered, I to XIV', () => {
    const stageUp = gpt.classes.stageUp;
    expect(stageUp.type).toBe('PROVIDED');
    expect(stageUp.downgradable).toBe(false);
    expect(stageUp.derive).toBeUndefined();
    expect(stageUp.values.map((v) => v.id)).toEqual(['I', 'II', 'III', 'IV', 'V', 'VI', 'VII', 'VIII', 'IX', 'X', 'XI', 'XII', 'XIII', 'XIV']);
  });
});

describe('wacca scoreMeta', () => {
  it('takes mirror as a boolean only', () => {
    expect(gpt.scoreMeta.safeParse({ mirror: true }).success).toBe(true);
    expect(gpt.scoreMeta.safeParse({ mirror: 'yes' }).success).toBe(false);
    expect(gpt.scoreMeta.safeParse({ random: true }).success).toBe(false);
  });
});
