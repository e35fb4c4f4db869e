import { describe, expect, it } from '@jest/globals';
import { JUBEAT } from '../../../src/game-support/jubeat/index.js';
import { mergePersonalBest } from '../../../src/scoring/pbs/pb-merge.js';
import { chart, derive, deriveError, input, rated, song, stored } from './fixtures.js';

const gpt = JUBEAT.gpts.Single;
const ext = chart({ difficulty: 'EXT', level: '10', levelNum: 10 });
const hardExt = chart({ difficulty: 'HARD EXT', level: '10', levelNum: 10 });
const play = (score: number, lamp: string, percent: number, overrides = {}) => input(score, lamp, { percent, ...overrides });
const jubility = (score: number, lamp: string, rate: number, levelNum: number, difficulty = 'EXT') => {
  const c = chart({ difficulty, levelNum });
  return gpt.scoreRatingAlgs.jubility.calculate(derive(gpt, play(score, lamp, rate), c), c, song());
};

describe('jubeat grades (HEAD boundaries, by score)', () => {
  it.each([
    [0, 'E'],
    [499_999, 'E'],
    [500_000, 'D'],
    [699_999, 'D'],
    [700_000, 'C'],
    [799_999, 'C'],
    [800_000, 'B'],
    [849_999, 'B'],
    [850_000, 'A'],
    [899_999, 'A'],
    [900_000, 'S'],
    [949_999, 'S'],
    [950_000, 'SS'],
    [979_999, 'SS'],
    [980_000, 'SSS'],
    [999_999, 'SSS'],
    [1_000_000, 'EXC'],
  ])('score %d is %s', (score, grade) => {
    const lamp = score === 1_000_000 ? 'EXCELLENT' : score < 700_000 ? 'FAILED' : 'CLEAR';
    const data = derive(gpt, play(score, lamp, 50), ext);
    expect(data.grade).toBe(grade);
    expect(data.gradeIndex).toBe(gpt.grades.indexOf(grade));
  });
});

describe('jubeat percent is the music rate', () => {
  it('takes the music rate as the percent, up to 100 on normal charts and 120 on HARD charts', () => {
    expect(gpt.percentInput).toBe('required');
    expect(derive(gpt, play(950_000, 'CLEAR', 87.5), ext).percent).toBe(87.5);
    expect(derive(gpt, play(950_000, 'CLEAR', 100), ext).percent).toBe(100);
    expect(derive(gpt, play(950_000, 'CLEAR', 115.3), hardExt).percent).toBe(115.3);
    expect(derive(gpt, play(950_000, 'CLEAR', 120), hardExt).percent).toBe(120);
  });

  it.each([
    [100.1, ext],
    [120.1, hardExt],
    [-0.1, ext],
  ])('refuses a music rate of %d', (rate, c) => {
    expect(deriveError(gpt, play(950_000, 'CLEAR', rate), c)).toMatch(/out of range/);
  });

  it('refuses a score without a music rate', () => {
    expect(deriveError(gpt, input(950_000, 'CLEAR'), ext)).toMatch(/music rate/);
  });

  it('refuses a rate of at most 1 (1.2 on HARD) with 100,000 points or more as a fraction', () => {
    expect(deriveError(gpt, play(950_000, 'CLEAR', 0.95), ext)).toMatch(/fraction/);
    expect(deriveError(gpt, play(100_000, 'FAILED', 1), ext)).toMatch(/fraction/);
    expect(deriveError(gpt, play(100_000, 'FAILED', 1.2), hardExt)).toMatch(/fraction/);
    expect(derive(gpt, play(100_000, 'FAILED', 1.2), ext).percent).toBe(1.2);
    expect(derive(gpt, play(99_999, 'FAILED', 1), ext).percent).toBe(1);
  });
});

describe('jubeat lamp consistency', () => {
  it.each([
    [999_999, 'EXCELLENT', {}, /1,000,000/],
    [1_000_000, 'FULL COMBO', {}, /EXCELLENT/],
    [1_000_000, 'EXCELLENT', { great: 1 }, /great/],
    [980_000, 'FULL COMBO', { miss: 1 }, /miss/],
    [700_000, 'FAILED', {}, /cannot be FAILED/],
    [699_999, 'CLEAR', {}, /must be FAILED/],
  ])('refuses %d %s with %j', (score, lamp, judgements, message) => {
    expect(deriveError(gpt, play(score, lamp, 80, { judgements }), ext)).toMatch(message);
  });

  it('lets a FULL COMBO have poors and a CLEAR sit at exactly 700,000', () => {
    expect(derive(gpt, play(980_000, 'FULL COMBO', 90, { judgements: { poor: 2, miss: 0 } }), ext).lamp).toBe('FULL COMBO');
    expect(derive(gpt, play(700_000, 'CLEAR', 60), ext).lamp).toBe('CLEAR');
  });

  it('refuses a score out of range', () => {
    expect(deriveError(gpt, play(1_000_001, 'EXCELLENT', 100), ext)).toMatch(/out of range/);
    expect(deriveError(gpt, play(900_000.5, 'CLEAR', 80), ext)).toMatch(/integer/);
  });
});

describe('jubeat jubility = floor(round(10L) × 125 × floor(10 × rate) / 99 / 100) / 10, 0 below 700,000', () => {
  it('1,000,000 at rate 120 on a 10.9: 109 × 125 × 1200 / 99 / 100 = 1651.5 → 165.1', () => {
    expect(jubility(1_000_000, 'EXCELLENT', 120, 10.9, 'HARD EXT')).toBe(165.1);
  });
  it('950,000 at rate 95.5 on a 9.5: 95 × 125 × 955 / 99 / 100 = 1145.5 → 114.5', () => {
    expect(jubility(950_000, 'CLEAR', 95.5, 9.5)).toBe(114.5);
  });
  it('800,000 at rate 80.05 on a 7.0: 70 × 125 × 800 / 99 / 100 = 707.07 → 70.7', () => {
    expect(jubility(800_000, 'CLEAR', 80.05, 7)).toBe(70.7);
  });
  it('699,999 is worth 0 whatever the rate', () => {
    expect(jubility(699_999, 'FAILED', 90, 10)).toBe(0);
  });
});

describe('jubeat session and profile ratings', () => {
  it('session jubility: mean of the best 10, null with fewer than 10', () => {
    // 150, 149, ..., 139 plus a null: best ten 150..141 average 145.5
    const scores = [...Array.from({ length: 12 }, (_, i) => rated({ jubility: 150 - i })), rated({ jubility: null })];
    expect(gpt.sessionRatingAlgs.jubility.calculate(scores)).toBeCloseTo(145.5, 10);
    expect(gpt.sessionRatingAlgs.jubility.calculate(scores.slice(0, 9))).toBeNull();
  });

  const pb = (songID: number, displayVersion: string, difficulty: string, value: number | null) =>
    rated({ jubility: value }, { chart: chart({ songID, difficulty }), song: song({ id: songID, data: { displayVersion } }) });

  it('profile jubility: best 30 on PICK UP (ave) songs plus best 30 on the others', () => {
    const scores = [
      ...Array.from({ length: 32 }, (_, i) => pb(100 + i, 'ave', 'EXT', 50)), // best 30: 1,500
      ...Array.from({ length: 31 }, (_, i) => pb(200 + i, 'festo', 'EXT', 40)), // best 30: 1,200
    ];
    expect(gpt.profileRatingAlgs.jubility.calculate(scores)).toBeCloseTo(2700, 10);
  });

  it('profile jubility: one PB per song and difficulty family (HARD EXT and EXT are one)', () => {
    const scores = [
      pb(1, 'ave', 'EXT', 150),
      pb(1, 'ave', 'HARD EXT', 160), // family EXT of song 1: 160
      pb(1, 'ave', 'ADV', 100), // family ADV of song 1: 100
      pb(2, 'festo', 'BSC', 90),
      pb(2, 'festo', 'HARD BSC', 80), // family BSC of song 2: 90
      pb(3, 'festo', 'EXT', null),
    ];
    // 160 + 100 + 90 = 350
    expect(gpt.profileRatingAlgs.jubility.calculate(scores)).toBeCloseTo(350, 10);
  });

  it('profile jubility is 0 with no PBs', () => {
    expect(gpt.profileRatingAlgs.jubility.calculate([])).toBe(0);
  });

  it('naiveJubility: sum of the best 60', () => {
    expect(gpt.profileRatingAlgs.naiveJubility.calculate(Array.from({ length: 65 }, () => rated({ jubility: 100 })))).toBeCloseTo(6000, 10);
    expect(gpt.profileRatingAlgs.naiveJubility.calculate([rated({ jubility: 120.5 }), rated({ jubility: 99.5 })])).toBeCloseTo(220, 10);
    expect(gpt.profileRatingAlgs.naiveJubility.calculate([])).toBeNull();
  });

  it('profile and naive jubility are summed in tenths, so an exact 250 is YELLOW_GREEN', () => {
    // 58 × 4.2 + 2 × 3.2 = 243.6 + 6.4 = 250.0 (2500 tenths); float additions give 249.99999999999972
    const values = [...Array<number>(58).fill(4.2), 3.2, 3.2];
    const naive = gpt.profileRatingAlgs.naiveJubility.calculate(values.map((v) => rated({ jubility: v })));
    expect(naive).toBe(250);
    // the same 60 values on 60 songs: 30 PICK UP + 30 others, all counted
    const profile = gpt.profileRatingAlgs.jubility.calculate(values.map((v, i) => pb(i, i < 30 ? 'ave' : 'festo', 'EXT', v)));
    expect(profile).toBe(250);
    expect(gpt.classes.colour.derive!({ jubility: profile })).toBe('YELLOW_GREEN');
  });
});

describe('jubeat PBs: best music rate, best lamp, and the best score with its grade (HEAD)', () => {
  const T = 1_700_000_000_000;
  const c = chart({ difficulty: 'EXT', level: '10', levelNum: 10 });

  it('takes the music rate, the lamp and the score each from the play that has the best', () => {
    const rate = stored(gpt, 'rate', play(900_000, 'CLEAR', 95), T, c);
    const score = stored(gpt, 'score', play(960_000, 'CLEAR', 80), T + 1000, c);
    const lamp = stored(gpt, 'lamp', play(800_000, 'FULL COMBO', 70), T + 2000, c);
    const pb = mergePersonalBest(gpt, c, song(), [rate, score, lamp]);
    // 960,000 is SS (950,000 ≤ s < 980,000), whichever play the rate came from
    expect(pb.scoreData).toMatchObject({ percent: 95, score: 960_000, grade: 'SS', gradeIndex: 6, lamp: 'FULL COMBO', lampIndex: 2 });
    expect(pb.composedFrom).toEqual([
      { name: 'Best Music Rate', scoreID: 'rate' },
      { name: 'Best Lamp', scoreID: 'lamp' },
      { name: 'Best Score', scoreID: 'score' },
    ]);
    // jubility of 960,000 at rate 95 on a 10: floor(100 × 125 × 950 / 99 / 100) / 10 = floor(1199.49…) / 10 = 119.9
    expect(pb.calculatedData).toEqual({ jubility: 119.9 });
    expect(pb.timeAchieved).toBe(T + 2000);
  });

  it('needs no extra entry when the best-rate play also has the best score', () => {
    const best = stored(gpt, 'best', play(980_000, 'CLEAR', 97), T, c);
    const other = stored(gpt, 'other', play(970_000, 'CLEAR', 96), T + 1000, c);
    const pb = mergePersonalBest(gpt, c, song(), [other, best]);
    expect(pb.scoreData).toMatchObject({ percent: 97, score: 980_000, grade: 'SSS' });
    expect(pb.composedFrom).toEqual([{ name: 'Best Music Rate', scoreID: 'best' }]);
  });
});

describe('jubeat colour (derived from profile jubility)', () => {
  const derived = (v: number | null) => gpt.classes.colour.derive!({ jubility: v });
  it.each([
    [0, 'BLACK'],
    [249.9, 'BLACK'],
    [250, 'YELLOW_GREEN'],
    [749.9, 'YELLOW_GREEN'],
    [750, 'GREEN'],
    [1499.9, 'GREEN'],
    [1500, 'LIGHT_BLUE'],
    [2500, 'BLUE'],
    [4000, 'VIOLET'],
    [5500, 'PURPLE'],
    [6999.9, 'PURPLE'],
    [7000, 'PINK'],
    [8500, 'ORANGE'],
    [9499.9, 'ORANGE'],
    [9500, 'GOLD'],
  ])('jubility %d is %s', (v, cls) => {
    expect(derived(v)).toBe(cls);
  });

  it('gives no colour without a profile jubility', () => {
    expect(derived(null)).toBeNull();
  });
});

describe('jubeat schemas', () => {
  it('musicBar is a graph of integers 0..3', () => {
    expect(gpt.optionalMetrics.safeParse({ musicBar: [0, 1, 2, 3] }).success).toBe(true);
    expect(gpt.optionalMetrics.safeParse({ musicBar: [4] }).success).toBe(false);
    expect(gpt.optionalMetrics.safeParse({ musicBar: [1.5] }).success).toBe(false);
  });

  it('chart data needs inGameID (one or several), noteCount and musicBar', () => {
    expect(gpt.chartData.safeParse({ inGameID: [1, 2], noteCount: 500, musicBar: [0, 1] }).success).toBe(true);
    expect(gpt.chartData.safeParse({ inGameID: 1 }).success).toBe(false);
  });
});
