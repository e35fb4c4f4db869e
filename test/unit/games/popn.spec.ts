import { describe, expect, it } from '@jest/globals';
import { POPN } from '../../../src/game-support/popn/index.js';
import { mergePersonalBest } from '../../../src/scoring/pbs/pb-merge.js';
import { chart, derive, deriveError, input, rated, song, stored } from './fixtures.js';

const gpt = POPN.gpts['9B'];
const popnChart = (levelNum: number) => chart({ playtype: '9B', difficulty: 'EX', level: String(levelNum), levelNum });
const classPoints = (score: number, lamp: string, levelNum: number) =>
  gpt.scoreRatingAlgs.classPoints.calculate(derive(gpt, input(score, lamp)), popnChart(levelNum), song());

describe('popn grades (HEAD boundaries, by score)', () => {
  it.each([
    [0, 'E'],
    [49_999, 'E'],
    [50_000, 'D'],
    [61_999, 'D'],
    [62_000, 'C'],
    [71_999, 'C'],
    [72_000, 'B'],
    [81_999, 'B'],
    [82_000, 'A'],
    [89_999, 'A'],
    [90_000, 'AA'],
    [94_999, 'AA'],
    [95_000, 'AAA'],
    [97_999, 'AAA'],
    [98_000, 'S'],
    [100_000, 'S'],
  ])('score %d is %s', (score, grade) => {
    const data = derive(gpt, input(score, 'CLEAR'));
    expect(data.grade).toBe(grade);
    expect(data.gradeIndex).toBe(gpt.grades.indexOf(grade));
  });

  it.each([
    [99_000, 'A'],
    [90_000, 'A'],
    [89_999, 'A'],
    [70_000, 'C'],
  ])('a FAILED %d is capped at A (never raised): %s', (score, grade) => {
    const data = derive(gpt, input(score, 'FAILED'));
    expect(data.grade).toBe(grade);
    expect(data.gradeIndex).toBe(gpt.grades.indexOf(grade));
  });

  it('does not cap an EASY CLEAR', () => {
    expect(derive(gpt, input(99_000, 'EASY CLEAR')).grade).toBe('S');
  });
});

describe('popn derivation', () => {
  it('derives percent as score / 1,000', () => {
    const data = derive(gpt, input(98_765, 'FULL COMBO'));
    expect(data.percent).toBeCloseTo(98.765, 10);
    expect(data.lampIndex).toBe(3);
  });

  it.each([
    [100_001, 'CLEAR', /out of range/],
    [-1, 'CLEAR', /out of range/],
    [90_000.5, 'CLEAR', /integer/],
    [90_000, 'HARD CLEAR', /Invalid lamp/],
  ])('refuses score %d with lamp %s', (score, lamp, message) => {
    expect(deriveError(gpt, input(score, lamp))).toMatch(message);
  });

  it('refuses a PERFECT with goods or bads and a FULL COMBO with bads', () => {
    expect(deriveError(gpt, input(100_000, 'PERFECT', { judgements: { good: 1 } }))).toMatch(/good/);
    expect(deriveError(gpt, input(100_000, 'PERFECT', { judgements: { bad: 1 } }))).toMatch(/bad/);
    expect(deriveError(gpt, input(98_000, 'FULL COMBO', { judgements: { bad: 1 } }))).toMatch(/bad/);
    expect(derive(gpt, input(98_000, 'FULL COMBO', { judgements: { good: 3, bad: 0 } })).lamp).toBe('FULL COMBO');
  });
});

describe('popn clearMedal (optional) must agree with the lamp', () => {
  const medal = (lamp: string, clearMedal: string, judgements: Record<string, number> = {}) => input(90_000, lamp, { optional: { clearMedal }, judgements });

  it.each([
    ['FAILED', 'failedCircle'],
    ['FAILED', 'failedDiamond'],
    ['FAILED', 'failedStar'],
    ['EASY CLEAR', 'easyClear'],
    ['CLEAR', 'clearCircle'],
    ['CLEAR', 'clearDiamond'],
    ['CLEAR', 'clearStar'],
    ['FULL COMBO', 'fullComboCircle'],
    ['FULL COMBO', 'fullComboDiamond'],
    ['FULL COMBO', 'fullComboStar'],
    ['PERFECT', 'perfect'],
  ])('accepts lamp %s with medal %s', (lamp, clearMedal) => {
    expect(derive(gpt, medal(lamp, clearMedal)).optional.clearMedal).toBe(clearMedal);
  });

  it.each([
    ['FULL COMBO', 'clearStar'],
    ['CLEAR', 'easyClear'],
    ['EASY CLEAR', 'failedStar'],
    ['PERFECT', 'fullComboStar'],
    ['FAILED', 'clearCircle'],
  ])('refuses lamp %s with medal %s', (lamp, clearMedal) => {
    expect(deriveError(gpt, medal(lamp, clearMedal))).toMatch(/clear medal/);
  });

  it.each([
    ['FULL COMBO', 'fullComboStar', 'good', 1, true],
    ['FULL COMBO', 'fullComboStar', 'good', 5, true],
    ['FULL COMBO', 'fullComboStar', 'good', 6, false],
    ['FULL COMBO', 'fullComboDiamond', 'good', 5, false],
    ['FULL COMBO', 'fullComboDiamond', 'good', 6, true],
    ['FULL COMBO', 'fullComboDiamond', 'good', 20, true],
    ['FULL COMBO', 'fullComboDiamond', 'good', 21, false],
    ['FULL COMBO', 'fullComboCircle', 'good', 20, false],
    ['FULL COMBO', 'fullComboCircle', 'good', 21, true],
    ['CLEAR', 'clearStar', 'bad', 0, false],
    ['CLEAR', 'clearStar', 'bad', 5, true],
    ['CLEAR', 'clearDiamond', 'bad', 6, true],
    ['CLEAR', 'clearDiamond', 'bad', 21, false],
    ['CLEAR', 'clearCircle', 'bad', 20, false],
    ['CLEAR', 'clearCircle', 'bad', 40, true],
  ])('%s %s with %d %s: accepted %s', (lamp, clearMedal, judgement, count, ok) => {
    const i = medal(lamp as string, clearMedal as string, { [judgement as string]: count as number });
    if (ok) expect(derive(gpt, i).lamp).toBe(lamp);
    else expect(deriveError(gpt, i)).toMatch(/medal needs/);
  });

  it('refuses a medal HEAD does not list', () => {
    expect(gpt.optionalMetrics.safeParse({ clearMedal: 'failedUnknown' }).success).toBe(false);
    expect(gpt.optionalMetrics.safeParse({ clearMedal: 'clearStar', gauge: 100 }).success).toBe(true);
  });

  it('tells plays apart by clearMedal', () => {
    expect(gpt.identityMetrics).toEqual(['clearMedal']);
  });
});

describe('popn PBs: best score, best lamp, best clear medal; the grade follows the merged lamp', () => {
  const T = 1_700_000_000_000;
  const c = popnChart(40);
  const medal = (clearMedal: string) => ({ optional: { clearMedal } });

  it('a FAILED 95,000 (capped at A) and a CLEAR 85,000 make a CLEAR 95,000 PB graded by its score: AAA', () => {
    const failed = stored(gpt, 'failed', input(95_000, 'FAILED'), T, c);
    const cleared = stored(gpt, 'clear', input(85_000, 'CLEAR'), T + 1000, c);
    expect(failed.scoreData.grade).toBe('A');
    const pb = mergePersonalBest(gpt, c, song(), [failed, cleared]);
    expect(pb.scoreData).toMatchObject({ score: 95_000, percent: 95, lamp: 'CLEAR', lampIndex: 2, grade: 'AAA', gradeIndex: 6 });
    // classPoints on the merged PB: (10000 × 40 + 95,000 − 50,000 + 3000) / 5440 = 448,000 / 5440 = 82.3529411…
    expect(pb.calculatedData.classPoints).toBeCloseTo(82.352941176, 8);
  });

  it('keeps the A cap when no play cleared', () => {
    const pb = mergePersonalBest(gpt, c, song(), [stored(gpt, 'a', input(96_000, 'FAILED'), T, c), stored(gpt, 'b', input(91_000, 'FAILED'), T + 1, c)]);
    expect(pb.scoreData).toMatchObject({ score: 96_000, lamp: 'FAILED', grade: 'A' });
  });

  it('takes the best clear medal in medal order among the best-lamp plays, not the earliest best-lamp play’s', () => {
    const circle = stored(gpt, 'circle', input(90_000, 'CLEAR', medal('clearCircle')), T, c);
    const star = stored(gpt, 'star', input(88_000, 'CLEAR', medal('clearStar')), T + 1000, c);
    const diamond = stored(gpt, 'diamond', input(89_000, 'CLEAR', medal('clearDiamond')), T + 2000, c);
    const easy = stored(gpt, 'easy', input(97_000, 'EASY CLEAR', medal('easyClear')), T + 3000, c);
    const pb = mergePersonalBest(gpt, c, song(), [circle, star, diamond, easy]);
    expect(pb.scoreData).toMatchObject({ score: 97_000, lamp: 'CLEAR', grade: 'AAA' });
    expect(pb.scoreData.optional.clearMedal).toBe('clearStar');
    expect(pb.composedFrom).toEqual([
      { name: 'Best Score', scoreID: 'easy' },
      { name: 'Best Lamp', scoreID: 'circle' },
      { name: 'Best Clear Medal', scoreID: 'star' },
    ]);
  });

  it('keeps no medal that disagrees with the PB lamp: the FULL COMBO play sent none', () => {
    const fc = stored(gpt, 'fc', input(96_000, 'FULL COMBO'), T, c);
    const clear = stored(gpt, 'clear', input(99_000, 'CLEAR', medal('clearStar')), T + 1000, c);
    const pb = mergePersonalBest(gpt, c, song(), [fc, clear]);
    // 99,000 ≥ 98,000: S
    expect(pb.scoreData).toMatchObject({ score: 99_000, lamp: 'FULL COMBO', grade: 'S' });
    expect(pb.scoreData.optional).not.toHaveProperty('clearMedal');
  });
});

describe('popn classPoints = 0 at or below 50,000, else (10000 × level + score − 50000 + bonus) / 5440', () => {
  it('level 40, 98,000 FULL COMBO (bonus 5000): 453,000 / 5440 = 83.2720588…', () => {
    expect(classPoints(98_000, 'FULL COMBO', 40)).toBeCloseTo(83.2720588235, 9);
  });
  it('level 45, 100,000 PERFECT (bonus 5000): 505,000 / 5440 = 92.8308823…', () => {
    expect(classPoints(100_000, 'PERFECT', 45)).toBeCloseTo(92.8308823529, 9);
  });
  it('level 30, 90,000 CLEAR or EASY CLEAR (bonus 3000): 343,000 / 5440 = 63.0514705…', () => {
    expect(classPoints(90_000, 'CLEAR', 30)).toBeCloseTo(63.0514705882, 9);
    expect(classPoints(90_000, 'EASY CLEAR', 30)).toBeCloseTo(63.0514705882, 9);
  });
  it('level 30, 90,000 FAILED (no bonus): 340,000 / 5440 = 62.5', () => {
    expect(classPoints(90_000, 'FAILED', 30)).toBe(62.5);
  });
  it('50,000 points is worth 0; 50,001 FAILED at level 1 is 10,001 / 5440 = 1.8384191…', () => {
    expect(classPoints(50_000, 'CLEAR', 45)).toBe(0);
    expect(classPoints(50_001, 'FAILED', 1)).toBeCloseTo(1.8384191176, 9);
  });
});

describe('popn session and profile ratings', () => {
  it('session classPoints: mean of the best 10, null with fewer than 10', () => {
    // 80, 79, ..., 69 plus a null: best ten 80..71 average 75.5
    const scores = [...Array.from({ length: 12 }, (_, i) => rated({ classPoints: 80 - i })), rated({ classPoints: null })];
    expect(gpt.sessionRatingAlgs.classPoints.calculate(scores)).toBeCloseTo(75.5, 10);
    expect(gpt.sessionRatingAlgs.classPoints.calculate(scores.slice(0, 9))).toBeNull();
  });

  it('naiveClassPoints: sum of the best 20 / 20, even with fewer', () => {
    expect(gpt.profileRatingAlgs.naiveClassPoints.calculate(Array.from({ length: 25 }, () => rated({ classPoints: 50 })))).toBeCloseTo(50, 10);
    // (60 + 50 + 40 + 30) / 20 = 9
    const four = [60, 50, 40, 30].map((v) => rated({ classPoints: v }));
    expect(gpt.profileRatingAlgs.naiveClassPoints.calculate(four)).toBeCloseTo(9, 10);
    expect(gpt.profileRatingAlgs.naiveClassPoints.calculate([])).toBeNull();
  });
});

describe('popn class (derived from naiveClassPoints)', () => {
  const derived = (v: number | null) => gpt.classes.class.derive!({ naiveClassPoints: v });
  it.each([
    [0, 'KITTY'],
    [20.99, 'KITTY'],
    [21, 'STUDENT'],
    [33.99, 'STUDENT'],
    [34, 'DELINQUENT'],
    [45.99, 'DELINQUENT'],
    [46, 'DETECTIVE'],
    [58.99, 'DETECTIVE'],
    [59, 'IDOL'],
    [67.99, 'IDOL'],
    [68, 'GENERAL'],
    [78.99, 'GENERAL'],
    [79, 'HERMIT'],
    [90.99, 'HERMIT'],
    [91, 'GOD'],
    [100, 'GOD'],
  ])('naiveClassPoints %d is %s', (v, cls) => {
    expect(derived(v)).toBe(cls);
  });

  it('gives no class without naiveClassPoints', () => {
    expect(derived(null)).toBeNull();
  });

  it('has HEAD’s values with hover text', () => {
    expect(gpt.classes.class.values.map((v) => v.id)).toEqual(['KITTY', 'STUDENT', 'DELINQUENT', 'DETECTIVE', 'IDOL', 'GENERAL', 'HERMIT', 'GOD']);
    expect(gpt.classes.class.values[1]).toEqual({ id: 'STUDENT', display: '小学生', hoverText: 'Grade School Student' });
  });
});

describe('popn scoreMeta and chart data', () => {
  it('accepts HEAD scoreMeta and nothing else', () => {
    expect(gpt.scoreMeta.safeParse({ hiSpeed: 3.5, hidden: null, sudden: 120, random: 'S-RANDOM', gauge: 'DANGER' }).success).toBe(true);
    expect(gpt.scoreMeta.safeParse({ random: 'R-RANDOM' }).success).toBe(false);
    expect(gpt.scoreMeta.safeParse({ speed: 1 }).success).toBe(false);
  });

  it('takes one or several SHA-256 hashes, or null', () => {
    expect(gpt.chartData.safeParse({ hashSHA256: ['a', 'b'], inGameID: 3 }).success).toBe(true);
    expect(gpt.chartData.safeParse({ hashSHA256: null, inGameID: 3 }).success).toBe(true);
    expect(gpt.chartData.safeParse({ hashSHA256: 5, inGameID: 3 }).success).toBe(false);
  });
});
