import { describe, expect, it } from '@jest/globals';
import { ITG } from '../../../src/game-support/itg/index.js';
import { mergePersonalBest, pbOrderValue } from '../../../src/scoring/pbs/pb-merge.js';
import { chart, derive, deriveError, input, rated, song, stored } from './fixtures.js';

const gpt = ITG.gpts.Stamina;
const itgChart = (data: Record<string, unknown>) => chart({ playtype: 'Stamina', difficulty: 'Hard 14', level: '14', levelNum: 14, data });
const rating = (alg: string, score: number, lamp: string, data: Record<string, unknown>, optional: Record<string, unknown> = {}) =>
  gpt.scoreRatingAlgs[alg].calculate(derive(gpt, input(score, lamp, { optional })), itgChart(data), song());

/** A chart of `measures` measures of 16 notes at `nps` notes per second. */
const stream = (measures: number, nps: number) => ({ npsPerMeasure: Array<number>(measures).fill(nps), notesPerMeasure: Array<number>(measures).fill(16) });

describe('itg grades (HEAD boundaries, by scorePercent; F only for a fail)', () => {
  it.each([
    [0, 'D'],
    [54.99, 'D'],
    [55, 'C'],
    [67.99, 'C'],
    [68, 'B'],
    [79.99, 'B'],
    [80, 'A'],
    [88.99, 'A'],
    [89, 'S'],
    [95.99, 'S'],
    [96, '★'],
    [97.99, '★'],
    [98, '★★'],
    [98.99, '★★'],
    [99, '★★★'],
    [99.99, '★★★'],
    [100, '★★★★'],
  ])('scorePercent %d is %s', (score, grade) => {
    const data = derive(gpt, input(score, 'CLEAR'));
    expect(data.grade).toBe(grade);
    expect(data.gradeIndex).toBe(gpt.grades.indexOf(grade));
  });

  it.each([0, 99.5])('a FAILED %d is graded F', (score) => {
    const data = derive(gpt, input(score, 'FAILED'));
    expect(data.grade).toBe('F');
    expect(data.gradeIndex).toBe(0);
  });
});

describe('itg derivation', () => {
  it('takes scorePercent as both score and percent, on any difficulty name', () => {
    const data = derive(gpt, input(93.21, 'FULL COMBO'), chart({ difficulty: 'Expert 13 (custom)' }));
    expect(data.percent).toBe(93.21);
    expect(data.lampIndex).toBe(2);
    expect(gpt.difficulties).toEqual({ type: 'DYNAMIC' });
  });

  it.each([
    [100.01, 'QUINT', /out of range/],
    [-1, 'FAILED', /out of range/],
    [90, 'HARD CLEAR', /Invalid lamp/],
  ])('refuses %d with lamp %s', (score, lamp, message) => {
    expect(deriveError(gpt, input(score, lamp))).toMatch(message);
  });

  it('refuses a clear that did not survive the whole chart; a fail may stop anywhere', () => {
    expect(deriveError(gpt, input(90, 'CLEAR', { optional: { survivedPercent: 99.5 } }))).toMatch(/survivedPercent must be 100/);
    expect(derive(gpt, input(90, 'CLEAR', { optional: { survivedPercent: 100 } })).lamp).toBe('CLEAR');
    expect(derive(gpt, input(40, 'FAILED', { optional: { survivedPercent: 40 } })).optional.survivedPercent).toBe(40);
  });

  it.each([
    ['QUINT', { fantastic: 1 }, /fantastic/],
    ['QUAD', { excellent: 1 }, /excellent/],
    ['FULL EXCELLENT COMBO', { great: 1 }, /great/],
    ['FULL COMBO', { decent: 1 }, /decent/],
    ['FULL COMBO', { wayoff: 1 }, /wayoff/],
    ['FULL COMBO', { miss: 1 }, /miss/],
  ])('refuses a %s with %j', (lamp, judgements, message) => {
    expect(deriveError(gpt, input(99, lamp, { judgements }))).toMatch(message);
  });

  it('lets a QUAD have fantastics and a FULL COMBO have greats', () => {
    expect(derive(gpt, input(100, 'QUAD', { judgements: { 'fantastic+': 900, fantastic: 5 } })).lamp).toBe('QUAD');
    expect(derive(gpt, input(97, 'FULL COMBO', { judgements: { great: 12, miss: 0 } })).lamp).toBe('FULL COMBO');
  });

  it('accepts only survivedPercent and lifebarHistory as optional metrics', () => {
    expect(gpt.optionalMetrics.safeParse({ survivedPercent: 55.5, lifebarHistory: [100, 50, 0] }).success).toBe(true);
    expect(gpt.optionalMetrics.safeParse({ survivedPercent: 100.5 }).success).toBe(false);
    expect(gpt.optionalMetrics.safeParse({ lifebarHistory: [101] }).success).toBe(false);
    expect(gpt.optionalMetrics.safeParse({ fast: 1 }).success).toBe(false);
  });
});

describe('itg blockRating = null if FAILED, else chart rankedLevel', () => {
  it('a clear on a ranked 14 is worth 14', () => {
    expect(rating('blockRating', 95, 'CLEAR', { rankedLevel: 14 })).toBe(14);
  });
  it('a fail, an unranked chart and a chart without data are null', () => {
    expect(rating('blockRating', 95, 'FAILED', { rankedLevel: 14 })).toBeNull();
    expect(rating('blockRating', 95, 'CLEAR', { rankedLevel: null })).toBeNull();
    expect(rating('blockRating', 95, 'CLEAR', {})).toBeNull();
  });
});

describe('itg fastest32: slowest NPS of the fastest 32 unbroken measures × 60 / 4, null below 100 BPM', () => {
  it('40 measures at 12 NPS: 12 × 60 / 4 = 180 BPM', () => {
    expect(rating('fastest32', 95, 'CLEAR', stream(40, 12))).toBe(180);
  });

  it('a 20-measure run at 12 NPS, a break, then 32 measures at 10 NPS: only the second run counts, 150 BPM', () => {
    const first = stream(20, 12);
    const second = stream(32, 10);
    const data = {
      npsPerMeasure: [...first.npsPerMeasure, 0, ...second.npsPerMeasure],
      notesPerMeasure: [...first.notesPerMeasure, 0, ...second.notesPerMeasure],
    };
    expect(rating('fastest32', 95, 'CLEAR', data)).toBe(150);
  });

  it('a fail counts only the measures it survived: 40 measures × 80% = 32 → 180; × 77.5% = 31 → null', () => {
    expect(rating('fastest32', 60, 'FAILED', stream(40, 12), { survivedPercent: 80 })).toBe(180);
    expect(rating('fastest32', 60, 'FAILED', stream(40, 12), { survivedPercent: 77.5 })).toBeNull();
  });

  it('a fail without survivedPercent is null', () => {
    expect(rating('fastest32', 60, 'FAILED', stream(40, 12))).toBeNull();
  });

  it('6.8 NPS is 102 BPM; 6.6 NPS is 99 BPM, below 100, so null', () => {
    expect(rating('fastest32', 95, 'CLEAR', stream(40, 6.8))).toBeCloseTo(102, 10);
    expect(rating('fastest32', 95, 'CLEAR', stream(40, 6.6))).toBeNull();
  });

  it('is null without per-measure data or when the two lists differ in length', () => {
    expect(rating('fastest32', 95, 'CLEAR', {})).toBeNull();
    expect(rating('fastest32', 95, 'CLEAR', { npsPerMeasure: [12, 12], notesPerMeasure: [16] })).toBeNull();
  });
});

describe('itg session and profile ratings', () => {
  it('session blockRating: mean of the best 5, null with fewer than 5', () => {
    // best five of 15, 14, 13, 12, 11, 10 and a null: (15 + 14 + 13 + 12 + 11) / 5 = 13
    const scores = [15, 14, 13, 12, 11, 10, null].map((v) => rated({ blockRating: v }));
    expect(gpt.sessionRatingAlgs.blockRating.calculate(scores)).toBe(13);
    expect(gpt.sessionRatingAlgs.blockRating.calculate(scores.slice(0, 4))).toBeNull();
  });

  it('highestBlock and fastest32 are the highest value, null with none', () => {
    expect(gpt.profileRatingAlgs.highestBlock.calculate([12, 15, null, 9].map((v) => rated({ blockRating: v })))).toBe(15);
    expect(gpt.profileRatingAlgs.fastest32.calculate([150, 180, null].map((v) => rated({ fastest32: v })))).toBe(180);
    expect(gpt.profileRatingAlgs.highestBlock.calculate([rated({ blockRating: null })])).toBeNull();
    expect(gpt.profileRatingAlgs.fastest32.calculate([])).toBeNull();
  });
});

describe('itg PB rules and matching', () => {
  const T = 1_700_000_000_000;
  const c = itgChart({ rankedLevel: 14 });
  const play = (id: string, score: number, lamp: string, time: number, optional: Record<string, unknown> = {}) =>
    stored(gpt, id, input(score, lamp, { optional }), time, c);

  it('orders results by finalPercent: a fail by how far it survived, a clear by 100 + its score', () => {
    expect(pbOrderValue(gpt, derive(gpt, input(95, 'FAILED', { optional: { survivedPercent: 80 } })))).toBe(80);
    expect(pbOrderValue(gpt, derive(gpt, input(90, 'CLEAR')))).toBe(190);
    expect(pbOrderValue(gpt, derive(gpt, input(99.5, 'QUAD')))).toBe(199.5);
    // a fail that does not say how far it survived counts as surviving nothing
    expect(pbOrderValue(gpt, derive(gpt, input(95, 'FAILED')))).toBe(0);
  });

  it('a FAILED 95% does not beat a CLEAR 90%: the PB is the clear, graded S by its 90%, worth its block level', () => {
    const failed = play('failed', 95, 'FAILED', T, { survivedPercent: 80 });
    const cleared = play('clear', 90, 'CLEAR', T + 1000, { survivedPercent: 100 });
    const pb = mergePersonalBest(gpt, c, song(), [failed, cleared]);
    expect(pb.scoreData).toMatchObject({ score: 90, percent: 90, lamp: 'CLEAR', grade: 'S', optional: { survivedPercent: 100 } });
    expect(pb.composedFrom).toEqual([{ name: 'Best Result', scoreID: 'clear' }]);
    expect(pb.calculatedData.blockRating).toBe(14);
    expect(pb.rankTime).toBe(T + 1000);
  });

  it('between fails, the one that survived further, with its own survivedPercent, graded F', () => {
    const early = play('early', 80, 'FAILED', T, { survivedPercent: 50 });
    const far = play('far', 70, 'FAILED', T + 1000, { survivedPercent: 90 });
    const pb = mergePersonalBest(gpt, c, song(), [early, far]);
    expect(pb.scoreData).toMatchObject({ score: 70, lamp: 'FAILED', grade: 'F', optional: { survivedPercent: 90 } });
    expect(pb.composedFrom).toEqual([{ name: 'Best Result', scoreID: 'far' }]);
    expect(pb.calculatedData.blockRating).toBeNull();
  });

  it('between clears, the higher score, with the best lamp and its life bar', () => {
    const clear = play('clear', 95, 'CLEAR', T, { lifebarHistory: [100, 60] });
    const fc = play('fc', 93, 'FULL COMBO', T + 1000, { lifebarHistory: [100, 100] });
    const pb = mergePersonalBest(gpt, c, song(), [clear, fc]);
    // 95 is S (89 ≤ 95 < 96)
    expect(pb.scoreData).toMatchObject({ score: 95, lamp: 'FULL COMBO', grade: 'S', optional: { lifebarHistory: [100, 100] } });
    expect(pb.composedFrom).toEqual([
      { name: 'Best Result', scoreID: 'clear' },
      { name: 'Best Lamp', scoreID: 'fc' },
    ]);
  });

  it('keeps the life bar with the lamp PB, and tells fails apart by survivedPercent', () => {
    expect(gpt.pbMerge).toEqual([{ kind: 'fromLampPB', optional: ['lifebarHistory'] }]);
    expect(gpt.identityMetrics).toEqual(['survivedPercent']);
  });

  it('matches by itgChartHash (HEAD’s only ITG match type, an extension to the spec’s seven), unique per chart', () => {
    expect(gpt.supportedMatchTypes).toEqual(['itgChartHash']);
    expect(ITG.uniqueChartKeys).toEqual([{ field: 'hashGSv3', perPlaytype: false }]);
  });
});
