import { describe, expect, it } from '@jest/globals';
import { ONGEKI } from '../../../src/game-support/ongeki/index.js';
import { platinumStars } from '../../../src/game-support/ongeki/ratings.js';
import type { ChartInfo, ScoreInput } from '../../../src/game-support/types.js';
import { mergePersonalBest } from '../../../src/scoring/pbs/pb-merge.js';
import { chart, derive, deriveError, input, rated, song, stored } from './fixtures.js';

const gpt = ONGEKI.gpts.Single;
const ranked = (levelNum: number, data: Record<string, unknown> = {}) => chart({ levelNum, data: { inGameID: 100, maxPlatScore: 1000, ...data } });
const calc = (alg: string, i: ScoreInput, c: ChartInfo) => gpt.scoreRatingAlgs[alg].calculate(derive(gpt, i, c), c, song());
const ab = (score: number, optional: Record<string, unknown> = {}) => input(score, score === 1_010_000 ? 'ALL BREAK+' : 'ALL BREAK', { optional });

describe('ongeki:Single grades (HEAD boundaries, by technical score)', () => {
  it.each([
    [0, 'D'],
    [499_999, 'D'],
    [500_000, 'C'],
    [699_999, 'C'],
    [700_000, 'B'],
    [749_999, 'B'],
    [750_000, 'BB'],
    [799_999, 'BB'],
    [800_000, 'BBB'],
    [849_999, 'BBB'],
    [850_000, 'A'],
    [899_999, 'A'],
    [900_000, 'AA'],
    [939_999, 'AA'],
    [940_000, 'AAA'],
    [969_999, 'AAA'],
    [970_000, 'S'],
    [989_999, 'S'],
    [990_000, 'SS'],
    [999_999, 'SS'],
    [1_000_000, 'SSS'],
    [1_007_499, 'SSS'],
    [1_007_500, 'SSS+'],
    [1_010_000, 'SSS+'],
  ])('score %d is %s', (score, grade) => {
    const data = derive(gpt, input(score, score === 1_010_000 ? 'ALL BREAK+' : 'CLEAR'));
    expect(data.grade).toBe(grade);
    expect(data.gradeIndex).toBe(gpt.grades.indexOf(grade));
  });
});

describe('ongeki:Single derivation', () => {
  it('derives percent as score / 10,000 (so at most 101) and indexes the note lamp', () => {
    const data = derive(gpt, input(1_003_456, 'FULL COMBO'));
    expect(data.percent).toBeCloseTo(100.3456, 10);
    expect(data.lampIndex).toBe(2);
    expect(derive(gpt, input(1_010_000, 'ALL BREAK+')).percent).toBe(101);
    expect(gpt.percentMax).toBe(101);
  });

  it.each([
    [1_010_001, 'CLEAR', /out of range/],
    [-1, 'LOSS', /out of range/],
    [900_000.5, 'CLEAR', /integer/],
    [900_000, 'FAILED', /Invalid lamp/],
    [1_010_000, 'ALL BREAK', /must be an ALL BREAK\+/],
    [1_009_999, 'ALL BREAK+', /1,010,000/],
  ])('refuses score %d with lamp %s', (score, lamp, message) => {
    expect(deriveError(gpt, input(score, lamp))).toMatch(message);
  });

  it('refuses judgements and bell lamps the note lamp rules out', () => {
    expect(deriveError(gpt, input(1_010_000, 'ALL BREAK+', { judgements: { break: 1 } }))).toMatch(/break/);
    expect(deriveError(gpt, input(1_005_000, 'ALL BREAK', { judgements: { hit: 1 } }))).toMatch(/hit/);
    expect(deriveError(gpt, input(990_000, 'FULL COMBO', { judgements: { miss: 1 } }))).toMatch(/miss/);
    expect(deriveError(gpt, input(1_010_000, 'ALL BREAK+', { optional: { bellLamp: 'NONE' } }))).toMatch(/FULL BELL/);
    expect(deriveError(gpt, input(700_000, 'LOSS', { optional: { bellLamp: 'FULL BELL' } }))).toMatch(/LOSS/);
    expect(derive(gpt, input(700_000, 'CLEAR', { judgements: { miss: 3 }, optional: { bellLamp: 'FULL BELL' } })).lamp).toBe('CLEAR');
  });

  it('bounds platinumScore by the chart maxPlatScore', () => {
    // 1000 of 1000 is 100%, capped at 99: 99 − 93 = 6 stars
    expect(derive(gpt, input(1_000_000, 'CLEAR', { optional: { platinumScore: 1000 } }), ranked(13)).optional).toEqual({
      platinumScore: 1000,
      platinumStars: 6,
    });
    expect(deriveError(gpt, input(1_000_000, 'CLEAR', { optional: { platinumScore: 1001 } }), ranked(13))).toMatch(/maximum is 1000/);
    expect(deriveError(gpt, input(1_000_000, 'CLEAR', { optional: { platinumScore: 10 } }), chart())).toMatch(/maxPlatScore/);
  });

  it('validates the optional metrics strictly', () => {
    expect(gpt.optionalMetrics.safeParse({ bellLamp: 'FULL BELL', platinumScore: 0, damage: 2, bellCount: 50, totalBellCount: 60 }).success).toBe(true);
    expect(gpt.optionalMetrics.safeParse({ platinumGraph: [-5, null, 0], bellGraph: [0, -10_000], lifeGraph: [100, 0] }).success).toBe(true);
    expect(gpt.optionalMetrics.safeParse({ bellLamp: 'HALF BELL' }).success).toBe(false);
    expect(gpt.optionalMetrics.safeParse({ platinumGraph: [1] }).success).toBe(false);
    expect(gpt.optionalMetrics.safeParse({ noteLamp: 'CLEAR' }).success).toBe(false);
  });
});

describe('ongeki:Single rating (bright MEMORY, rg-stats ONGEKIRating.calculate, hundredths)', () => {
  it.each([
    // ≥ 1,007,500: L + 2
    [1_007_500, 14.5, 16.5],
    // ≥ 1,000,000: L + 1.5 + floor((s − 1e6) / 150) / 100 → 14 + 1.5 + 0.20
    [1_003_000, 14, 15.7],
    // ≥ 970,000: L + floor((s − 970k) / 200) / 100 → 13.5 + 0.75
    [985_000, 13.5, 14.25],
    // ≥ 900,000: L − ceil((970k − s) / 175) / 100 → 13.5 − ceil(114.29) / 100 = 13.5 − 1.15
    [950_000, 13.5, 12.35],
    // ≥ 800,000: L − 4 − ceil((900k − s) / 500) / 100 → 13.5 − 4 − 1
    [850_000, 13.5, 8.5],
    [799_999, 13.5, 0],
  ])('score %d at %d is %d', (score, level, expected) => {
    expect(calc('rating', input(score, score === 1_010_000 ? 'ALL BREAK+' : 'CLEAR'), ranked(level))).toBeCloseTo(expected, 10);
  });

  it('is 0 on unranked charts (in-game id 7000–7999, or level 0)', () => {
    expect(calc('rating', input(1_007_500, 'CLEAR'), ranked(14, { inGameID: 7000 }))).toBe(0);
    expect(calc('rating', input(1_007_500, 'CLEAR'), ranked(14, { inGameID: 7999 }))).toBe(0);
    expect(calc('rating', input(1_007_500, 'CLEAR'), ranked(14, { inGameID: 8000 }))).toBeCloseTo(16, 10);
    expect(calc('rating', input(1_007_500, 'CLEAR'), ranked(0))).toBe(0);
  });
});

describe('ongeki:Single scoreRating (Re:Fresh, rg-stats calculateRefresh, thousandths from 1000 × L)', () => {
  it.each<[string, ScoreInput, number, number]>([
    // 14500 + 1750 + trunc(250 × 2500 / 2500) + 300 + 50 (full bell, implied at 1,010,000) + 350 (AB+) = 17200
    ['1,010,000 AB+ at 14.5', ab(1_010_000), 14.5, 17.2],
    // 14000 + 1750 + trunc(250 × 1250 / 2500) + 300 + 50 (FULL BELL) + 300 (AB) = 16525
    ['1,008,750 AB FULL BELL at 14', ab(1_008_750, { bellLamp: 'FULL BELL' }), 14, 16.525],
    // 14000 + 1250 + trunc(500 × 3000 / 7500) + 200 + 100 (FC) = 15750
    ['1,003,000 FC at 14', input(1_003_000, 'FULL COMBO'), 14, 15.75],
    // 13500 + 750 + trunc(500 × 5000 / 10000) + 100 = 14600
    ['995,000 CLEAR at 13.5', input(995_000, 'CLEAR'), 13.5, 14.6],
    // 13500 + floor(750 × 10000 / 20000) + 50 (FULL BELL) + 100 (FC) = 14025
    ['980,000 FC FULL BELL at 13.5', input(980_000, 'FULL COMBO', { optional: { bellLamp: 'FULL BELL' } }), 13.5, 14.025],
    // 13500 − ceil(4000 × 35000 / 70000) = 11500
    ['935,000 CLEAR at 13.5', input(935_000, 'CLEAR'), 13.5, 11.5],
    // 13500 − 4000 − ceil(2000 × 50000 / 100000) = 8500
    ['850,000 LOSS at 13.5', input(850_000, 'LOSS'), 13.5, 8.5],
    // below 800,000 there is no rating, bonuses included
    ['799,999 FC at 13.5', input(799_999, 'FULL COMBO'), 13.5, 0],
  ])('%s is %d', (_, i, level, expected) => {
    expect(calc('scoreRating', i, ranked(level))).toBeCloseTo(expected, 10);
  });

  it('is 0 on unranked charts', () => {
    expect(calc('scoreRating', ab(1_010_000), ranked(14, { inGameID: 7500 }))).toBe(0);
  });
});

describe('ongeki:Single platinum stars and starRating (floor(stars × L²) / 1000, rainbow counts as 5)', () => {
  it.each([
    [939, 1000, 0], // 93% → 0
    [940, 1000, 1], // 94% → 1
    [975, 1000, 4], // floor(97.5) = 97% → 4
    [989, 1000, 5], // 98% → 5
    [990, 1000, 6], // 99% → 6 (rainbow)
    [1000, 1000, 6], // 100% is capped at 99% → 6
    [0, 1000, 0],
  ])('platinum %d of %d gives %d stars', (platinum, max, stars) => {
    expect(platinumStars(platinum, max)).toBe(stars);
  });

  it.each([
    // 6 stars count as 5: floor(5 × 196) / 1000
    [1000, 14, 0.98],
    // 4 stars: floor(4 × 210.25) = 841
    [975, 14.5, 0.841],
    // 1 star: floor(1 × 169) = 169
    [940, 13, 0.169],
    [939, 13, 0],
  ])('platinumScore %d of 1000 at %d is %d', (platinumScore, level, expected) => {
    expect(calc('starRating', input(1_000_000, 'CLEAR', { optional: { platinumScore } }), ranked(level))).toBeCloseTo(expected, 10);
  });

  it.each([
    // floor(100 × 2849 / 3000) = floor(94.97) = 94 → 94 − 93 = 1
    [2849, 3000, 1],
    // floor(100 × 2850 / 3000) = 95 → 2
    [2850, 3000, 2],
    // floor(100 × 2999 / 3000) = floor(99.97) = 99 → 6 (rainbow)
    [2999, 3000, 6],
    // floor(100 × 1234 / 1300) = floor(94.92) = 94 → 1
    [1234, 1300, 1],
    // floor(100 × 2000 / 3000) = 66 → max(0, 66 − 93) = 0
    [2000, 3000, 0],
  ])('a play with platinumScore %d on a chart of maxPlatScore %d derives platinumStars %d (HEAD: a derived metric)', (platinumScore, maxPlatScore, stars) => {
    const c = ranked(13, { maxPlatScore });
    expect(derive(gpt, input(1_000_000, 'CLEAR', { optional: { platinumScore } }), c).optional).toEqual({ platinumScore, platinumStars: stars });
  });

  it('derives no platinumStars without a platinumScore, and never keeps one that was sent', () => {
    expect(derive(gpt, input(1_000_000, 'CLEAR'), ranked(13)).optional).toEqual({});
    expect(derive(gpt, input(1_000_000, 'CLEAR', { optional: { platinumStars: 5 } }), ranked(13)).optional).toEqual({});
    expect(gpt.optionalMetrics.safeParse({ platinumStars: 5 }).success).toBe(false);
  });

  it("a PB's platinumStars follow its best platinumScore, whichever play it came from", () => {
    const c = ranked(13, { maxPlatScore: 3000 });
    const T = 1_700_000_000_000;
    const best = stored(gpt, 'score', input(1_005_000, 'ALL BREAK', { optional: { platinumScore: 2700 } }), T, c);
    const plat = stored(gpt, 'plat', input(990_000, 'CLEAR', { optional: { platinumScore: 2960 } }), T + 1000, c);
    const pb = mergePersonalBest(gpt, c, song(), [best, plat]);
    // 2960 / 3000 = 98.67% → 98 → 5 stars; the best-score play alone had 2700 (90%) → 0
    expect(best.scoreData.optional.platinumStars).toBe(0);
    expect(pb.scoreData.optional).toMatchObject({ platinumScore: 2960, platinumStars: 5 });
    expect(pb.scoreData.score).toBe(1_005_000);
  });

  it('is null without a platinumScore and 0 on unranked charts', () => {
    expect(calc('starRating', input(1_000_000, 'CLEAR'), ranked(14))).toBeNull();
    expect(calc('starRating', input(1_000_000, 'CLEAR', { optional: { platinumScore: 1000 } }), ranked(14, { inGameID: 7001 }))).toBe(0);
  });
});

describe('ongeki:Single session ratings (each the mean of the best 10, null with fewer)', () => {
  it.each(['naiveRating:rating', 'naiveScoreRating:scoreRating', 'starRating:starRating'])('%s', (pair) => {
    const [session, alg] = pair.split(':');
    // 15.0, 14.9, ..., 14.0 (11 values): the best ten average 14.55
    const scores = Array.from({ length: 11 }, (_, i) => rated({ [alg]: 15 - i * 0.1 }));
    expect(gpt.sessionRatingAlgs[session].calculate(scores)).toBeCloseTo(14.55, 10);
    expect(gpt.sessionRatingAlgs[session].calculate([...scores.slice(0, 9), rated({ [alg]: null })])).toBeNull();
  });
});

describe('ongeki:Single profile ratings', () => {
  it('naiveRating averages the best 45 ratings in hundredths, dividing by 45 even with fewer', () => {
    const profile = gpt.profileRatingAlgs.naiveRating;
    // 45 × 15.5 (+ 5 lower ones left out) → 15.5
    expect(
      profile.calculate([...Array.from({ length: 45 }, () => rated({ rating: 15.5 })), ...Array.from({ length: 5 }, () => rated({ rating: 1 }))]),
    ).toBeCloseTo(15.5, 10);
    // (1650 + 1570) / 45 = 71.56 → 71 hundredths
    expect(profile.calculate([rated({ rating: 16.5 }), rated({ rating: 15.7 })])).toBeCloseTo(0.71, 10);
    expect(profile.calculate([])).toBeNull();
  });

  it('naiveRatingRefresh = floor(1.2 × avg60 scoreRating) + avg50 starRating, in thousandths', () => {
    const profile = gpt.profileRatingAlgs.naiveRatingRefresh;
    // A = 16525 (60 × 16.525, the 61st left out), B = 980 (50 × 0.98): floor(1.2 × 16525) + 980 = 19830 + 980 = 20810
    const full = [
      ...Array.from({ length: 60 }, () => rated({ scoreRating: 16.525, starRating: null })),
      rated({ scoreRating: 1, starRating: null }),
      ...Array.from({ length: 50 }, () => rated({ scoreRating: null, starRating: 0.98 })),
    ];
    expect(profile.calculate(full)).toBeCloseTo(20.81, 10);
    // A = floor((17200 + 16525 + 15750) / 60) = floor(824.58) = 824, floor(1.2 × 824) = 988; B = floor(841 / 50) = 16 → 1004
    const few = [
      rated({ scoreRating: 17.2, starRating: 0.841 }),
      rated({ scoreRating: 16.525, starRating: null }),
      rated({ scoreRating: 15.75, starRating: null }),
    ];
    expect(profile.calculate(few)).toBeCloseTo(1.004, 10);
    // without any starRating, that part is 0: floor(1.2 × 824) = 988
    expect(profile.calculate(few.map((s) => ({ ...s, calculatedData: { scoreRating: s.calculatedData.scoreRating } })))).toBeCloseTo(0.988, 10);
    expect(profile.calculate([rated({ scoreRating: null, starRating: null })])).toBeNull();
  });
});

describe('ongeki:Single colour (from naiveRatingRefresh)', () => {
  const colour = (naiveRatingRefresh: number | null) => gpt.classes.colour.derive!({ naiveRatingRefresh });
  it.each([
    [0, 'BLUE'],
    [3.999, 'BLUE'],
    [4, 'GREEN'],
    [6.999, 'GREEN'],
    [7, 'ORANGE'],
    [8.999, 'ORANGE'],
    [9, 'RED'],
    [10.999, 'RED'],
    [11, 'PURPLE'],
    [12.999, 'PURPLE'],
    [13, 'COPPER'],
    [14.999, 'COPPER'],
    [15, 'SILVER'],
    [16.999, 'SILVER'],
    [17, 'GOLD'],
    [17.999, 'GOLD'],
    [18, 'PLATINUM'],
    [18.999, 'PLATINUM'],
    [19, 'RAINBOW'],
    [19.999, 'RAINBOW'],
    [20, 'RAINBOW_SHINY'],
    [20.999, 'RAINBOW_SHINY'],
    [21, 'RAINBOW_EX'],
    [23, 'RAINBOW_EX'],
  ])('%d is %s', (value, id) => {
    expect(colour(value)).toBe(id);
  });

  it('gives no colour without the rating, and has 12 values', () => {
    expect(colour(null)).toBeNull();
    expect(gpt.classes.colour.values).toHaveLength(12);
    expect(gpt.classes.colour.values[0]).toEqual({ id: 'BLUE', display: '水', hoverText: 'Blue: 0.000~3.999 Rating' });
  });
});

describe('ongeki:Single PBs', () => {
  it('takes the best platinum score and bell lamp on top of best score and note lamp, and identifies plays by damage and bells', () => {
    expect(gpt.pbMerge).toEqual([
      { kind: 'best', optional: 'platinumScore', direction: 'max', name: 'Best Platinum Score' },
      { kind: 'best', optional: 'bellLamp', direction: 'max', name: 'Best Bell Lamp', order: ['NONE', 'FULL BELL'] },
    ]);
    expect(gpt.identityMetrics).toEqual(['damage', 'bellCount']);
  });
});
