import { describe, expect, it } from '@jest/globals';
import { CHUNITHM } from '../../../src/game-support/chunithm/index.js';
import { chart, derive, deriveError, input, rated, song } from './fixtures.js';

const gpt = CHUNITHM.gpts.Single;
const rating = (score: number, levelNum: number) => {
  const lamp = score === 1_010_000 ? 'ALL JUSTICE CRITICAL' : 'CLEAR';
  return gpt.scoreRatingAlgs.rating.calculate(derive(gpt, input(score, lamp)), chart({ levelNum }), song());
};

describe('chunithm:Single grades (HEAD boundaries, by score)', () => {
  it.each([
    [0, 'D'],
    [499_999, 'D'],
    [500_000, 'C'],
    [599_999, 'C'],
    [600_000, 'B'],
    [699_999, 'B'],
    [700_000, 'BB'],
    [799_999, 'BB'],
    [800_000, 'BBB'],
    [899_999, 'BBB'],
    [900_000, 'A'],
    [924_999, 'A'],
    [925_000, 'AA'],
    [949_999, 'AA'],
    [950_000, 'AAA'],
    [974_999, 'AAA'],
    [975_000, 'S'],
    [989_999, 'S'],
    [990_000, 'S+'],
    [999_999, 'S+'],
    [1_000_000, 'SS'],
    [1_004_999, 'SS'],
    [1_005_000, 'SS+'],
    [1_007_499, 'SS+'],
    [1_007_500, 'SSS'],
    [1_008_999, 'SSS'],
    [1_009_000, 'SSS+'],
    [1_010_000, 'SSS+'],
  ])('score %d is %s', (score, grade) => {
    const lamp = score === 1_010_000 ? 'ALL JUSTICE CRITICAL' : 'CLEAR';
    const data = derive(gpt, input(score, lamp));
    expect(data.grade).toBe(grade);
    expect(data.gradeIndex).toBe(gpt.grades.indexOf(grade));
  });
});

describe('chunithm:Single derivation', () => {
  it('derives percent as score / 10,000 (so at most 101) and indexes the lamp', () => {
    const data = derive(gpt, input(1_005_432, 'ALL JUSTICE'));
    expect(data.percent).toBeCloseTo(100.5432, 10);
    expect(data.lampIndex).toBe(3);
    expect(derive(gpt, input(1_010_000, 'ALL JUSTICE CRITICAL')).percent).toBe(101);
    expect(gpt.percentMax).toBe(101);
  });

  it.each([
    [1_010_001, 'CLEAR', /out of range/],
    [-1, 'CLEAR', /out of range/],
    [900_000.5, 'CLEAR', /integer/],
    [900_000, 'HARD', /Invalid lamp/],
    [1_010_000, 'ALL JUSTICE', /must be an ALL JUSTICE CRITICAL/],
    [1_009_999, 'ALL JUSTICE CRITICAL', /1,010,000/],
    [999_999, 'ALL JUSTICE', /1,000,000/],
    [499_999, 'FULL COMBO', /500,000/],
  ])('refuses score %d with lamp %s', (score, lamp, message) => {
    expect(deriveError(gpt, input(score, lamp))).toMatch(message);
  });

  it('refuses judgements a combo lamp rules out', () => {
    expect(deriveError(gpt, input(1_010_000, 'ALL JUSTICE CRITICAL', { judgements: { justice: 1 } }))).toMatch(/justice/);
    expect(deriveError(gpt, input(1_009_000, 'ALL JUSTICE', { judgements: { attack: 1 } }))).toMatch(/attack/);
    expect(deriveError(gpt, input(990_000, 'FULL COMBO', { judgements: { miss: 1 } }))).toMatch(/miss/);
    expect(derive(gpt, input(990_000, 'CLEAR', { judgements: { miss: 1 } })).lamp).toBe('CLEAR');
  });

  it('requires maxCombo to equal the judgement total on a combo lamp, when all are known', () => {
    const judgements = { jcrit: 900, justice: 90, attack: 10, miss: 0 };
    expect(deriveError(gpt, input(1_000_500, 'FULL COMBO', { judgements, optional: { maxCombo: 999 } }))).toMatch(/maxCombo.*1000/);
    expect(derive(gpt, input(1_000_500, 'FULL COMBO', { judgements, optional: { maxCombo: 1000 } })).lamp).toBe('FULL COMBO');
    expect(derive(gpt, input(1_000_500, 'FULL COMBO', { judgements: { jcrit: 900 }, optional: { maxCombo: 999 } })).lamp).toBe('FULL COMBO');
    expect(derive(gpt, input(990_000, 'CLEAR', { judgements: { ...judgements, miss: 5 }, optional: { maxCombo: 600 } })).lamp).toBe('CLEAR');
  });

  it('keeps the clear lamp consistent with the lamp', () => {
    expect(deriveError(gpt, input(400_000, 'FAILED', { optional: { clearLamp: 'CLEAR' } }))).toMatch(/FAILED/);
    expect(deriveError(gpt, input(900_000, 'CLEAR', { optional: { clearLamp: 'FAILED' } }))).toMatch(/CLEAR/);
    // A full combo that failed its gauge is a real combination.
    expect(derive(gpt, input(1_000_000, 'FULL COMBO', { optional: { clearLamp: 'FAILED' } })).lamp).toBe('FULL COMBO');
    expect(derive(gpt, input(900_000, 'CLEAR', { optional: { clearLamp: 'HARD' } })).optional).toEqual({ clearLamp: 'HARD' });
  });

  it.each([
    ['CATASTROPHY', 9, true],
    ['CATASTROPHY', 10, false],
    ['ABSOLUTE', 49, true],
    ['ABSOLUTE', 50, false],
    ['BRAVE', 149, true],
    ['BRAVE', 150, false],
  ])('a %s clear with %d judgements below JUSTICE CRITICAL is accepted: %s', (clearLamp, below, ok) => {
    // split across justice, attack and miss: all three count
    const judgements = { jcrit: 500, justice: below - 2, attack: 1, miss: 1 };
    const i = input(980_000, 'CLEAR', { judgements, optional: { clearLamp } });
    if (ok) expect(derive(gpt, i).lamp).toBe('CLEAR');
    else expect(deriveError(gpt, i)).toMatch(new RegExp(`${clearLamp}.*fewer than`));
  });

  it('refuses a HARD clear with both 300+ judgements below JUSTICE CRITICAL and 20+ misses', () => {
    const hard = (justice: number, miss: number) => input(900_000, 'CLEAR', { judgements: { justice, miss }, optional: { clearLamp: 'HARD' } });
    expect(deriveError(gpt, hard(280, 20))).toMatch(/HARD/);
    expect(derive(gpt, hard(281, 19)).lamp).toBe('CLEAR');
    expect(derive(gpt, hard(279, 20)).lamp).toBe('CLEAR');
  });

  it('rejects unknown optional metrics and clear lamps', () => {
    expect(gpt.optionalMetrics.safeParse({ clearLamp: 'EASY' }).success).toBe(false);
    expect(gpt.optionalMetrics.safeParse({ gauge: 50 }).success).toBe(false);
    expect(gpt.optionalMetrics.safeParse({ clearLamp: 'CATASTROPHY', scoreGraph: [0, 500_000], lifeGraph: [999, 0] }).success).toBe(true);
    expect(gpt.optionalMetrics.safeParse({ lifeGraph: [1000] }).success).toBe(false);
  });
});

describe('chunithm:Single rating (rg-stats CHUNITHMRating, floored to 0.01)', () => {
  it.each([
    // ≥ 1,009,000: L + 2.15
    [1_010_000, 14.5, 16.65],
    // ≥ 1,007,500: L + 2.00 + (s − 1,007,500) / 10,000 → 14 + 2 + 0.05
    [1_008_000, 14, 16.05],
    // ≥ 1,005,000: L + 1.50 + (s − 1,005,000) / 5,000 → 13.5 + 1.5 + 0.2
    [1_006_000, 13.5, 15.2],
    // ≥ 1,000,000: L + 1.00 + (s − 1,000,000) / 10,000 → 14.5 + 1 + 0.25
    [1_002_500, 14.5, 15.75],
    // ≥ 975,000: L + (s − 975,000) / 25,000 → 13.5 + 0.6
    [990_000, 13.5, 14.1],
    // ≥ 900,000: L − 5 + (s − 900,000) / 15,000 → 8.5 + 3.3333 → 11.83
    [950_000, 13.5, 11.83],
    // ≥ 800,000: ((L − 5) / 2) × (1 + (s − 800,000) / 100,000) → 4.25 × 1.5 = 6.375 → 6.37
    [850_000, 13.5, 6.37],
    // ≥ 500,000: ((L − 5) / 2) × (s − 500,000) / 300,000 → 4.25 × 0.5 = 2.125 → 2.12
    [650_000, 13.5, 2.12],
    [499_999, 13.5, 0],
    // never negative: 3 − 5 + 0 → 0
    [900_000, 3, 0],
  ])('score %d at %d is %d', (score, level, expected) => {
    expect(rating(score, level)).toBeCloseTo(expected, 10);
  });
});

describe('chunithm:Single session and profile ratings', () => {
  it('session naiveRating is the mean of the best 10 ratings, null with fewer than 10', () => {
    // 16.0, 15.9, ..., 15.0 (11 values) plus a null: best ten are 16.0 .. 15.1, mean 15.55
    const scores = [...Array.from({ length: 11 }, (_, i) => rated({ rating: 16 - i * 0.1 })), rated({ rating: null })];
    expect(gpt.sessionRatingAlgs.naiveRating.calculate(scores)).toBeCloseTo(15.55, 10);
    expect(gpt.sessionRatingAlgs.naiveRating.calculate(scores.slice(0, 9))).toBeNull();
  });

  it('profile naiveRating averages the best 50 in hundredths, floored, dividing by 50 even with fewer', () => {
    const profile = gpt.profileRatingAlgs.naiveRating;
    // 25 × 16.01 + 25 × 16.02 (+ 5 lower ones left out) = (40025 + 40050) / 50 = 1601.5 hundredths → 16.01
    const fifty = [...Array.from({ length: 25 }, () => rated({ rating: 16.01 })), ...Array.from({ length: 25 }, () => rated({ rating: 16.02 }))];
    expect(profile.calculate([...fifty, ...Array.from({ length: 5 }, () => rated({ rating: 1 }))])).toBeCloseTo(16.01, 10);
    // 3 PBs: (1665 + 1605 + 1575) / 50 = 96.9 → 96 hundredths → 0.96
    expect(profile.calculate([rated({ rating: 16.65 }), rated({ rating: 16.05 }), rated({ rating: 15.75 })])).toBeCloseTo(0.96, 10);
    expect(profile.calculate([])).toBeNull();
  });
});

describe('chunithm:Single classes', () => {
  const colour = (naiveRating: number | null) => gpt.classes.colour.derive!({ naiveRating });
  it.each([
    [0, 'BLUE'],
    [1.99, 'BLUE'],
    [2, 'GREEN'],
    [3.99, 'GREEN'],
    [4, 'ORANGE'],
    [6.99, 'ORANGE'],
    [7, 'RED'],
    [9.99, 'RED'],
    [10, 'PURPLE'],
    [11.99, 'PURPLE'],
    [12, 'COPPER'],
    [13.24, 'COPPER'],
    [13.25, 'SILVER'],
    [14.49, 'SILVER'],
    [14.5, 'GOLD'],
    [15.24, 'GOLD'],
    [15.25, 'PLATINUM'],
    [15.99, 'PLATINUM'],
    [16, 'RAINBOW'],
    [16.24, 'RAINBOW'],
    [16.25, 'RAINBOW_II'],
    [16.49, 'RAINBOW_II'],
    [16.5, 'RAINBOW_III'],
    [16.74, 'RAINBOW_III'],
    [16.75, 'RAINBOW_IV'],
    [16.99, 'RAINBOW_IV'],
    [17, 'RAINBOW_EX_I'],
    [17.24, 'RAINBOW_EX_I'],
    [17.25, 'RAINBOW_EX_II'],
    [17.49, 'RAINBOW_EX_II'],
    [17.5, 'RAINBOW_EX_III'],
    [18.5, 'RAINBOW_EX_III'],
  ])('naiveRating %d is %s', (value, id) => {
    expect(colour(value)).toBe(id);
  });

  it('gives no colour without a profile naiveRating', () => {
    expect(colour(null)).toBeNull();
  });

  it('has 16 colours and provided, non-downgradable dan and emblem ladders of 6', () => {
    expect(gpt.classes.colour.values).toHaveLength(16);
    expect(gpt.classes.colour.values[5]).toEqual({ id: 'COPPER', display: '銅', hoverText: 'Copper: 12 - 13.24 Rating' });
    for (const set of [gpt.classes.dan, gpt.classes.emblem]) {
      expect(set).toMatchObject({ type: 'PROVIDED', downgradable: false });
      expect(set.values.map((v) => v.id)).toEqual(['DAN_I', 'DAN_II', 'DAN_III', 'DAN_IV', 'DAN_V', 'DAN_INFINITE']);
    }
  });
});

describe('chunithm:Single PBs', () => {
  it('takes the best clear lamp in HEAD order on top of best score and lamp', () => {
    expect(gpt.pbMerge).toEqual([
      {
        kind: 'best',
        optional: 'clearLamp',
        direction: 'max',
        name: 'Best Clear Lamp',
        order: ['FAILED', 'CLEAR', 'HARD', 'BRAVE', 'ABSOLUTE', 'CATASTROPHY'],
      },
      // The combo of a failed play (HEAD's noteLamp with a FAILED clearLamp), read only while the PB's lamp is FAILED.
      { kind: 'best', optional: 'noteLamp', direction: 'max', name: 'Best Note Lamp', order: ['NONE', 'FULL COMBO', 'ALL JUSTICE', 'ALL JUSTICE CRITICAL'] },
    ]);
    expect(gpt.identityMetrics).toEqual([]);
  });
});
