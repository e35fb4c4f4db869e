import { describe, expect, it } from '@jest/globals';
import { DDR } from '../../../src/game-support/ddr/index.js';
import { mergePersonalBest } from '../../../src/scoring/pbs/pb-merge.js';
import { chart, derive, deriveError, input, rated, song, stored } from './fixtures.js';

const gpt = DDR.gpts.SP;
const ddrChart = (levelNum: number, data: Record<string, unknown> = {}) =>
  chart({ playtype: 'SP', difficulty: 'EXPERT', level: String(levelNum), levelNum, data });
const flareSkill = (lamp: string, levelNum: number, flare?: string) =>
  gpt.scoreRatingAlgs.flareSkill.calculate(derive(gpt, input(900_000, lamp, { optional: flare === undefined ? {} : { flare } })), ddrChart(levelNum), song());

describe('ddr grades (HEAD boundaries, by score; E only for a fail)', () => {
  it.each([
    [0, 'D'],
    [549_999, 'D'],
    [550_000, 'D+'],
    [589_999, 'D+'],
    [590_000, 'C-'],
    [599_999, 'C-'],
    [600_000, 'C'],
    [649_999, 'C'],
    [650_000, 'C+'],
    [689_999, 'C+'],
    [690_000, 'B-'],
    [699_999, 'B-'],
    [700_000, 'B'],
    [749_999, 'B'],
    [750_000, 'B+'],
    [789_999, 'B+'],
    [790_000, 'A-'],
    [799_999, 'A-'],
    [800_000, 'A'],
    [849_999, 'A'],
    [850_000, 'A+'],
    [889_999, 'A+'],
    [890_000, 'AA-'],
    [899_999, 'AA-'],
    [900_000, 'AA'],
    [949_999, 'AA'],
    [950_000, 'AA+'],
    [989_999, 'AA+'],
    [990_000, 'AAA'],
    [1_000_000, 'AAA'],
  ])('score %d is %s', (score, grade) => {
    const data = derive(gpt, input(score, 'CLEAR'));
    expect(data.grade).toBe(grade);
    expect(data.gradeIndex).toBe(gpt.grades.indexOf(grade));
  });

  it.each([0, 500_000, 995_000])('a FAILED %d is graded E', (score) => {
    const data = derive(gpt, input(score, 'FAILED'));
    expect(data.grade).toBe('E');
    expect(data.gradeIndex).toBe(0);
  });

  it('grades an ASSIST clear by its score', () => {
    expect(derive(gpt, input(995_000, 'ASSIST')).grade).toBe('AAA');
  });
});

describe('ddr derivation', () => {
  it('derives percent as score / 10,000 and indexes the HEAD lamp order (LIFE4 last)', () => {
    const data = derive(gpt, input(987_650, 'LIFE4'));
    expect(data.percent).toBeCloseTo(98.765, 10);
    expect(data.lampIndex).toBe(7);
  });

  it.each([
    [1_000_001, 'CLEAR', /out of range/],
    [-1, 'CLEAR', /out of range/],
    [500_000.5, 'CLEAR', /integer/],
    [900_000, 'HARD CLEAR', /Invalid lamp/],
  ])('refuses score %d with lamp %s', (score, lamp, message) => {
    expect(deriveError(gpt, input(score, lamp))).toMatch(message);
  });

  it.each([
    ['FULL COMBO', { MISS: 1 }, /MISS/],
    ['GREAT FULL COMBO', { GOOD: 1 }, /GOOD/],
    ['PERFECT FULL COMBO', { GREAT: 2 }, /GREAT/],
    ['MARVELOUS FULL COMBO', { PERFECT: 1 }, /PERFECT/],
  ])('refuses a %s with %j', (lamp, judgements, message) => {
    expect(deriveError(gpt, input(990_000, lamp, { judgements }))).toMatch(message);
  });

  it('lets a FULL COMBO have GOODs and a MARVELOUS FULL COMBO have OKs', () => {
    expect(derive(gpt, input(990_000, 'FULL COMBO', { judgements: { GOOD: 3, MISS: 0 } })).lamp).toBe('FULL COMBO');
    expect(derive(gpt, input(1_000_000, 'MARVELOUS FULL COMBO', { judgements: { MARVELOUS: 100, OK: 20 } })).lamp).toBe('MARVELOUS FULL COMBO');
  });
});

describe('ddr money score from judgements (chart stepCount)', () => {
  // stepCount 200, 170 MARV + 6 PERF + 2 GREAT + 1 GOOD + 1 MISS + 20 OK:
  // floor((5×(170+6+20) + 3×2 + 1) × 100000 / (5×200) − (6+2+1)) × 10 = floor(98700 − 9) × 10 = 986,910
  const judgements = { MARVELOUS: 170, PERFECT: 6, GREAT: 2, GOOD: 1, MISS: 1, OK: 20 };
  const stepChart = ddrChart(14, { inGameID: 1, stepCount: 200 });

  it('accepts the score the judgements give (986,910) and refuses 986,920', () => {
    expect(derive(gpt, input(986_910, 'CLEAR', { judgements }), stepChart).score).toBe(986_910);
    expect(deriveError(gpt, input(986_920, 'CLEAR', { judgements }), stepChart)).toMatch(/986910/);
  });

  it('floors to 10: stepCount 300, 298 MARV + 1 PERF + 1 GREAT → floor(1498 × 100000 / 1500 − 2) × 10 = floor(99864.67) × 10 = 998,640', () => {
    const j = { MARVELOUS: 298, PERFECT: 1, GREAT: 1, GOOD: 0, MISS: 0, OK: 0 };
    const c = ddrChart(15, { inGameID: 1, stepCount: 300 });
    expect(derive(gpt, input(998_640, 'GREAT FULL COMBO', { judgements: j }), c).score).toBe(998_640);
    expect(deriveError(gpt, input(998_650, 'GREAT FULL COMBO', { judgements: j }), c)).toMatch(/998640/);
  });

  it('is not checked on a fail, without a stepCount, or with a judgement missing', () => {
    expect(derive(gpt, input(500_000, 'FAILED', { judgements }), stepChart).grade).toBe('E');
    expect(derive(gpt, input(986_920, 'CLEAR', { judgements }), ddrChart(14, { inGameID: 1 })).score).toBe(986_920);
    const { OK: _ok, ...withoutOk } = judgements;
    expect(derive(gpt, input(986_920, 'CLEAR', { judgements: withoutOk }), stepChart).score).toBe(986_920);
  });
});

describe('ddr EX score = 3 × (MARVELOUS + OK) + 2 × PERFECT + GREAT', () => {
  const judgements = { MARVELOUS: 298, PERFECT: 1, GREAT: 1, OK: 0 };
  it('accepts 3×298 + 2×1 + 1 = 897 and refuses 898', () => {
    expect(derive(gpt, input(998_640, 'CLEAR', { judgements, optional: { exScore: 897 } })).optional.exScore).toBe(897);
    expect(deriveError(gpt, input(998_640, 'CLEAR', { judgements, optional: { exScore: 898 } }))).toMatch(/897/);
  });
});

describe('ddr flareSkill = 0 if FAILED, else floor(base(level) × (100 + 6 × flare) / 100)', () => {
  it('level 14 (base 575) at flare EX (10): 575 × 160 / 100 = 920', () => {
    expect(flareSkill('CLEAR', 14, 'EX')).toBe(920);
  });
  it('level 19 (base 665) at flare EX: 665 × 160 / 100 = 1064', () => {
    expect(flareSkill('FULL COMBO', 19, 'EX')).toBe(1064);
  });
  it('level 10 (base 400) at flare III: 400 × 118 / 100 = 472', () => {
    expect(flareSkill('CLEAR', 10, 'III')).toBe(472);
  });
  it('level 1 (base 145) at flare I: 145 × 106 / 100 = 153.7 → 153', () => {
    expect(flareSkill('CLEAR', 1, 'I')).toBe(153);
  });
  it('level 17 (base 635) without a flare rank counts as flare 0: 635', () => {
    expect(flareSkill('ASSIST', 17)).toBe(635);
  });
  it('a FAILED score is worth 0 whatever its flare', () => {
    expect(flareSkill('FAILED', 19, 'EX')).toBe(0);
  });
  it('is null on a level outside 1..19 or a non-integer level', () => {
    expect(flareSkill('CLEAR', 20, 'EX')).toBeNull();
    expect(flareSkill('CLEAR', 13.5, 'EX')).toBeNull();
  });
});

describe('ddr session and profile flareSkill', () => {
  it('session: mean of the best 10, null with fewer than 10', () => {
    // 1000, 990, ..., 890 plus a null: best ten 1000..910 average 955
    const scores = [...Array.from({ length: 12 }, (_, i) => rated({ flareSkill: 1000 - i * 10 })), rated({ flareSkill: null })];
    expect(gpt.sessionRatingAlgs.flareSkill.calculate(scores)).toBe(955);
    expect(gpt.sessionRatingAlgs.flareSkill.calculate(scores.slice(0, 9))).toBeNull();
  });

  const inCategory = (flareCategory: string, value: number | null) => rated({ flareSkill: value }, { song: song({ data: { flareCategory } }) });

  it('profile: best 30 per CLASSIC / WHITE / GOLD, summed; NONE songs left out', () => {
    const scores = [
      ...Array.from({ length: 35 }, () => inCategory('CLASSIC', 500)), // best 30: 15,000
      inCategory('WHITE', 800),
      inCategory('WHITE', 700), // 1,500
      inCategory('GOLD', 900),
      inCategory('GOLD', null), // 900
      ...Array.from({ length: 5 }, () => inCategory('NONE', 1000)),
    ];
    expect(gpt.profileRatingAlgs.flareSkill.calculate(scores)).toBe(17_400);
  });

  it('profile: null with no PB in a counted category', () => {
    expect(gpt.profileRatingAlgs.flareSkill.calculate([inCategory('NONE', 1000)])).toBeNull();
    expect(gpt.profileRatingAlgs.flareSkill.calculate([])).toBeNull();
  });
});

describe('ddr flare class (derived from profile flareSkill)', () => {
  const derived = (v: number | null) => gpt.classes.flare.derive!({ flareSkill: v });
  it.each([
    [0, 'NONE'],
    [499, 'NONE'],
    [500, 'NONE+'],
    [1999, 'NONE+++'],
    [2000, 'MERCURY'],
    [5999, 'MERCURY+++'],
    [6000, 'VENUS'],
    [9999, 'VENUS+++'],
    [10000, 'EARTH'],
    [11499, 'EARTH'],
    [11500, 'EARTH+'],
    [16000, 'MARS'],
    [23999, 'MARS+++'],
    [24000, 'JUPITER'],
    [34000, 'SATURN'],
    [36749, 'SATURN'],
    [36750, 'SATURN+'],
    [45000, 'URANUS'],
    [56250, 'URANUS+++'],
    [60000, 'NEPTUNE'],
    [71250, 'NEPTUNE+++'],
    [75000, 'SUN'],
    [89999, 'SUN+++'],
    [90000, 'WORLD'],
    [150000, 'WORLD'],
  ])('flareSkill %d is %s', (v, cls) => {
    expect(derived(v)).toBe(cls);
  });

  it('gives no class without a profile flareSkill', () => {
    expect(derived(null)).toBeNull();
  });

  it('has HEAD’s 41 values and displays', () => {
    const values = gpt.classes.flare.values;
    expect(values).toHaveLength(41);
    expect(values[4]).toEqual({ id: 'MERCURY', display: '水星 / MERCURY' });
    expect(values[31]).toEqual({ id: 'URANUS+++', display: '天王星 / URANUS+++' });
    expect(values[40]).toEqual({ id: 'WORLD', display: '世界 / WORLD' });
  });
});

describe('ddr schemas and PB rules', () => {
  it('accepts HEAD flare ranks only', () => {
    expect(gpt.optionalMetrics.safeParse({ flare: 'EX', exScore: 100 }).success).toBe(true);
    expect(gpt.optionalMetrics.safeParse({ flare: 'X' }).success).toBe(false);
    expect(gpt.optionalMetrics.safeParse({ gauge: 50 }).success).toBe(false);
  });

  it('requires a song flareCategory of CLASSIC, WHITE, GOLD or NONE', () => {
    expect(DDR.songData.safeParse({ inGameID: 1, flareCategory: 'GOLD', ddrSongHash: 'abc' }).success).toBe(true);
    expect(DDR.songData.safeParse({ inGameID: 1, flareCategory: 'RED' }).success).toBe(false);
  });

  it('keeps the best EX score, which is part of the score identity, on both playtypes', () => {
    for (const p of [DDR.gpts.SP, DDR.gpts.DP]) {
      expect(p.pbMerge).toEqual([{ kind: 'best', optional: 'exScore', direction: 'max', name: 'Best EX Score' }]);
      expect(p.identityMetrics).toEqual(['exScore']);
    }
  });

  it('re-derives the PB grade from the merged lamp: a FAILED 900,000 (E) and a CLEAR 800,000 make a CLEAR 900,000 graded AA', () => {
    const T = 1_700_000_000_000;
    const c = ddrChart(14);
    const failed = stored(gpt, 'failed', input(900_000, 'FAILED', { optional: { flare: 'EX' } }), T, c);
    const cleared = stored(gpt, 'clear', input(800_000, 'CLEAR'), T + 1000, c);
    expect(failed.scoreData.grade).toBe('E');
    const pb = mergePersonalBest(gpt, c, song(), [failed, cleared]);
    expect(pb.scoreData).toMatchObject({ score: 900_000, lamp: 'CLEAR', grade: 'AA', gradeIndex: 13 });
    // flareSkill of the merged CLEAR with the fail's flare EX, level 14 (base 575): 575 × 160 / 100 = 920
    expect(pb.calculatedData).toEqual({ flareSkill: 920 });
    // all fails stay E
    expect(mergePersonalBest(gpt, c, song(), [failed]).scoreData.grade).toBe('E');
  });
});
