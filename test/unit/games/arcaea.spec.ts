import { describe, expect, it } from '@jest/globals';
import { ARCAEA } from '../../../src/game-support/arcaea/index.js';
import { chart, derive, deriveError, input, rated, song } from './fixtures.js';

const gpt = ARCAEA.gpts.Touch;
const c = chart({ playtype: 'Touch', difficulty: 'Future', levelNum: 10, data: { inGameStrID: 'song', notecount: 1000 } });
const potential = (score: number, levelNum: number) => {
  const ch = { ...c, levelNum };
  return gpt.scoreRatingAlgs.potential.calculate(derive(gpt, input(score, 'CLEAR'), ch), ch, song());
};

describe('arcaea:Touch grades (HEAD boundaries, by score)', () => {
  it.each([
    [0, 'D'],
    [8_599_999, 'D'],
    [8_600_000, 'C'],
    [8_899_999, 'C'],
    [8_900_000, 'B'],
    [9_199_999, 'B'],
    [9_200_000, 'A'],
    [9_499_999, 'A'],
    [9_500_000, 'AA'],
    [9_799_999, 'AA'],
    [9_800_000, 'EX'],
    [9_899_999, 'EX'],
    [9_900_000, 'EX+'],
    [10_001_000, 'EX+'],
  ])('score %d is %s', (score, grade) => {
    const data = derive(gpt, input(score, 'CLEAR'), c);
    expect(data.grade).toBe(grade);
    expect(data.gradeIndex).toBe(gpt.grades.indexOf(grade));
  });
});

describe('arcaea:Touch derivation', () => {
  it('derives percent as score / 100,000, so the shiny-PURE bonus goes just past 100', () => {
    expect(derive(gpt, input(9_876_543, 'HARD CLEAR'), c).percent).toBeCloseTo(98.76543, 10);
    // 10,000,000 + 1000 bonus points on a 1000-note chart
    const max = derive(gpt, input(10_001_000, 'PURE MEMORY'), c);
    expect(max.percent).toBeCloseTo(100.01, 10);
    expect(max.lampIndex).toBe(5);
    expect(max.percent).toBeLessThanOrEqual(gpt.percentMax);
  });

  it.each([
    [10_001_001, 'PURE MEMORY', /out of range.*10001000/],
    [-1, 'LOST', /out of range/],
    [9_000_000.5, 'CLEAR', /integer/],
    [9_000_000, 'TRACK COMPLETE', /Invalid lamp/],
    [9_999_999, 'PURE MEMORY', /10,000,000/],
    [4_999_999, 'FULL RECALL', /5,000,000/],
  ])('refuses score %d with lamp %s on a 1000-note chart', (score, lamp, message) => {
    expect(deriveError(gpt, input(score, lamp), c)).toMatch(message);
  });

  it('refuses a chart without a notecount', () => {
    expect(deriveError(gpt, input(9_000_000, 'CLEAR'), chart())).toMatch(/notecount/);
  });

  it('refuses judgements the lamp rules out, and allows 10,000,000 without PURE MEMORY', () => {
    expect(deriveError(gpt, input(10_000_000, 'PURE MEMORY', { judgements: { far: 1 } }), c)).toMatch(/far/);
    expect(deriveError(gpt, input(10_000_000, 'PURE MEMORY', { judgements: { lost: 1 } }), c)).toMatch(/lost/);
    expect(deriveError(gpt, input(9_900_000, 'FULL RECALL', { judgements: { lost: 1 } }), c)).toMatch(/lost/);
    expect(derive(gpt, input(9_900_000, 'FULL RECALL', { judgements: { far: 4 } }), c).lamp).toBe('FULL RECALL');
    expect(derive(gpt, input(10_000_000, 'HARD CLEAR'), c).lamp).toBe('HARD CLEAR');
  });

  it('accepts only fast, slow and maxCombo as optional metrics', () => {
    expect(gpt.optionalMetrics.safeParse({ fast: 3, slow: 4, maxCombo: 1000 }).success).toBe(true);
    expect(gpt.optionalMetrics.safeParse({ shinyPure: 900 }).success).toBe(false);
  });
});

describe('arcaea:Touch potential (rg-stats Potential, hundredths)', () => {
  it.each([
    // ≥ 10,000,000: L + 2
    [10_000_000, 10.5, 12.5],
    [10_000_500, 9.8, 11.8],
    // ≥ 9,800,000: L + 1 + floor((s − 9.8M) / 2000) / 100 → 10 + 1 + 0.50
    [9_900_000, 10, 11.5],
    // floor(50,999 / 2000) = 25 → 11.25
    [9_850_999, 10, 11.25],
    // otherwise L + floor((s − 9.5M) / 3000) / 100 → 10 + 0.50
    [9_650_000, 10, 10.5],
    [9_500_000, 10.7, 10.7],
    // floor(−500,000 / 3000) = floor(−166.67) = −167 → 10 − 1.67
    [9_000_000, 10, 8.33],
    // never below 0: 3 + floor(−4,500,000 / 3000) / 100 = 3 − 15
    [5_000_000, 3, 0],
  ])('score %d at %d is %d', (score, level, expected) => {
    expect(potential(score, level)).toBeCloseTo(expected, 10);
  });
});

describe('arcaea:Touch session and profile ratings', () => {
  it('session naivePotential is the mean of the best 10, null with fewer than 10', () => {
    // 12.0, 11.9, ..., 11.0 (11 values): best ten average 11.55
    const scores = Array.from({ length: 11 }, (_, i) => rated({ potential: 12 - i * 0.1 }));
    expect(gpt.sessionRatingAlgs.naivePotential.calculate(scores)).toBeCloseTo(11.55, 10);
    expect(gpt.sessionRatingAlgs.naivePotential.calculate([...scores.slice(0, 9), rated({ potential: null })])).toBeNull();
  });

  it('profile naivePotential is the sum of the best 30 over 30, even with fewer', () => {
    // 40 PBs of 11.25: the best 30 average 11.25
    expect(gpt.profileRatingAlgs.naivePotential.calculate(Array.from({ length: 40 }, () => rated({ potential: 11.25 })))).toBeCloseTo(11.25, 10);
    // 3 PBs: (12.5 + 11.5 + 10) / 30 = 34 / 30
    expect(gpt.profileRatingAlgs.naivePotential.calculate([rated({ potential: 12.5 }), rated({ potential: 11.5 }), rated({ potential: 10 })])).toBeCloseTo(
      34 / 30,
      10,
    );
    expect(gpt.profileRatingAlgs.naivePotential.calculate([])).toBeNull();
  });
});

describe('arcaea:Touch classes', () => {
  const badge = (naivePotential: number | null) => gpt.classes.badge.derive!({ naivePotential });
  it.each([
    [0, 'BLUE'],
    [3.49, 'BLUE'],
    [3.5, 'GREEN'],
    [6.99, 'GREEN'],
    [7, 'ASH_PURPLE'],
    [9.99, 'ASH_PURPLE'],
    [10, 'PURPLE'],
    [10.99, 'PURPLE'],
    [11, 'RED'],
    [11.99, 'RED'],
    [12, 'ONE_STAR'],
    [12.49, 'ONE_STAR'],
    [12.5, 'TWO_STARS'],
    [12.99, 'TWO_STARS'],
    [13, 'THREE_STARS'],
    [13.5, 'THREE_STARS'],
  ])('naivePotential %d is %s', (value, id) => {
    expect(badge(value)).toBe(id);
  });

  it('gives no badge without a naivePotential', () => {
    expect(badge(null)).toBeNull();
  });

  it('has 8 badges and a provided course banner ladder of 11 phases', () => {
    expect(gpt.classes.badge.values).toHaveLength(8);
    expect(gpt.classes.courseBanner).toMatchObject({ type: 'PROVIDED', downgradable: false });
    expect(gpt.classes.courseBanner.values).toHaveLength(11);
    expect(gpt.classes.courseBanner.values[10]).toEqual({ id: 'PHASE_11', display: 'Phase 11', hoverText: 'Radiant Genesis' });
  });
});

describe('arcaea:Touch PBs', () => {
  it('needs nothing beyond best score and best lamp', () => {
    expect(gpt.pbMerge).toEqual([]);
    expect(gpt.identityMetrics).toEqual([]);
  });
});
