import { describe, expect, it } from '@jest/globals';
import { IIDX } from '../../../src/game-support/iidx/index.js';
import type { ChartInfo } from '../../../src/game-support/types.js';
import { EX_GRADE_EDGES, EX_NOTECOUNT } from './ex-score-cases.js';
import { chart, derive, deriveError, input, rated, song } from './fixtures.js';

const sp = IIDX.gpts.SP;
const dp = IIDX.gpts.DP;
const exChart = (notecount: unknown = EX_NOTECOUNT, data: Record<string, unknown> = {}) => chart({ data: { notecount, ...data } });

describe.each([
  ['SP', sp],
  ['DP', dp],
])('iidx:%s grades (HEAD ninths of 100, by percent)', (_, gpt) => {
  it.each(EX_GRADE_EDGES)('EX %d of 1800 is %s', (score, grade) => {
    const data = derive(gpt, input(score, 'CLEAR'), exChart());
    expect(data.grade).toBe(grade);
    expect(data.gradeIndex).toBe(gpt.grades.indexOf(grade));
  });

  it('an EX of exactly 7/9 of the max is AA (the boundary is (100 × 7) / 9, not 100 × (7 / 9))', () => {
    // 9 notes, max 18: (100 × 14) / 18 = 77.77777777777777, while 100 × (7 / 9) = 77.77777777777779
    expect(derive(gpt, input(14, 'CLEAR'), exChart(9)).grade).toBe('AA');
  });
});

describe.each([
  ['SP', sp],
  ['DP', dp],
])('iidx:%s derivation', (_, gpt) => {
  it('derives percent as 100 × EX / (notecount × 2) and indexes the lamp', () => {
    // 100 × 1234 / 2000 = 61.7
    const data = derive(gpt, input(1234, 'HARD CLEAR'), exChart(1000));
    expect(data.percent).toBeCloseTo(61.7, 10);
    expect(data.lampIndex).toBe(5);
  });

  it.each([
    [1801, 'CLEAR', /out of range/],
    [-1, 'CLEAR', /out of range/],
    [1000.5, 'CLEAR', /integer/],
    [1000, 'PERFECT', /Invalid lamp/],
  ])('refuses EX %d with lamp %s', (score, lamp, message) => {
    expect(deriveError(gpt, input(score, lamp), exChart())).toMatch(message);
  });

  it.each([[undefined], [0], [12.5], ['900']])('refuses any score on a chart whose notecount is %p', (notecount) => {
    const c: ChartInfo = notecount === undefined ? chart() : exChart(notecount);
    expect(deriveError(gpt, input(100, 'CLEAR'), c)).toMatch(/no notecount/);
  });

  it('requires pgreat × 2 + great to equal the EX score when both are given', () => {
    // 500 × 2 + 200 = 1200
    expect(deriveError(gpt, input(1199, 'CLEAR', { judgements: { pgreat: 500, great: 200 } }), exChart())).toMatch(/1200/);
    expect(derive(gpt, input(1200, 'CLEAR', { judgements: { pgreat: 500, great: 200 } }), exChart()).score).toBe(1200);
    expect(derive(gpt, input(1199, 'CLEAR', { judgements: { pgreat: 500, great: null } }), exChart()).score).toBe(1199);
  });
});

describe('iidx:SP ktLampRating: nc = NC tier ?? level, hc = max(HC tier, nc), exhc = max(EXHC tier, hc)', () => {
  const rate = (lamp: string, c: ChartInfo) => sp.scoreRatingAlgs.ktLampRating.calculate(derive(sp, input(1000, lamp), c), c, song());
  const tiered = exChart(EX_NOTECOUNT, { ncTier: { value: 11.5, text: '11.5' }, hcTier: { value: 12.1, text: '12.1' }, exhcTier: null });

  it.each([
    ['FULL COMBO', 12.1], // exhc = max(0, 12.1)
    ['EX HARD CLEAR', 12.1],
    ['HARD CLEAR', 12.1], // max(12.1, 11.5)
    ['CLEAR', 11.5],
    ['EASY CLEAR', 0],
    ['ASSIST CLEAR', 0],
    ['FAILED', 0],
    ['NO PLAY', 0],
  ])('NC 11.5 / HC 12.1 / no EXHC: %s → %d', (lamp, expected) => {
    expect(rate(lamp, tiered)).toBe(expected);
  });

  it('an HC tier below the NC tier gives the NC value; an EXHC tier above lifts FC and EXHC', () => {
    const c = exChart(EX_NOTECOUNT, { ncTier: { value: 11.8, text: '11.8' }, hcTier: { value: 11.2, text: '11.2' }, exhcTier: { value: 12.4, text: '12.4' } });
    expect(rate('HARD CLEAR', c)).toBe(11.8);
    expect(rate('EX HARD CLEAR', c)).toBe(12.4);
    expect(rate('FULL COMBO', c)).toBe(12.4);
  });

  it('falls back to the level for every clear lamp when the chart has no tiers (level 10)', () => {
    const c = { ...exChart(), levelNum: 10 };
    expect(rate('CLEAR', c)).toBe(10);
    expect(rate('HARD CLEAR', c)).toBe(10);
    expect(rate('FULL COMBO', c)).toBe(10);
    expect(rate('EASY CLEAR', c)).toBe(0);
  });
});

describe('iidx:DP ktLampRating: DP tier ?? level for EASY CLEAR or better', () => {
  const rate = (lamp: string, c: ChartInfo) => dp.scoreRatingAlgs.ktLampRating.calculate(derive(dp, input(1000, lamp), c), c, song());
  it.each([
    ['FULL COMBO', 11.3],
    ['CLEAR', 11.3],
    ['EASY CLEAR', 11.3],
    ['ASSIST CLEAR', 0],
    ['FAILED', 0],
  ])('DP tier 11.3: %s → %d', (lamp, expected) => {
    expect(rate(lamp, exChart(EX_NOTECOUNT, { dpTier: { value: 11.3, text: '11.3' } }))).toBe(expected);
  });
  it('uses the level (9) without a DP tier', () => {
    expect(rate('EASY CLEAR', { ...exChart(), levelNum: 9 })).toBe(9);
  });
});

describe.each([
  ['SP', sp],
  ['DP', dp],
])('iidx:%s BPI (PoyashiBPI): PGF(ex) = 0.5 / (1 − ex/max), Lg = ln(PGF(ex)/PGF(kavg)) / ln(PGF(wr)/PGF(kavg))', (_, gpt) => {
  // 4000 notes, max 8000; kavg 6000 → PGF 0.5/0.25 = 2; WR 7875 → PGF 0.5/0.015625 = 32, so ln base 16.
  const bpiChart = (extra: Record<string, unknown> = {}) => exChart(4000, { kaidenAverage: 6000, worldRecord: 7875, bpiCoefficient: 2, ...extra });
  const bpi = (score: number, c: ChartInfo = bpiChart()) => gpt.scoreRatingAlgs.BPI.calculate(derive(gpt, input(score, 'CLEAR'), c), c, song());

  it('the kaiden average is 0 and the world record 100', () => {
    expect(bpi(6000)).toBeCloseTo(0, 10);
    expect(bpi(7875)).toBeCloseTo(100, 10);
  });
  it('EX 7500: PGF 8, ratio 4, Lg = 0.5, coefficient 2 → 100 × 0.5² = 25', () => {
    expect(bpi(7500)).toBeCloseTo(25, 10);
  });
  it('EX 7000: PGF 4, ratio 2, Lg = 0.25 → 100 × 0.25² = 6.25', () => {
    expect(bpi(7000)).toBeCloseTo(6.25, 10);
  });
  it('EX 4000: PGF 1, ratio 0.5, Lg = −0.25 → −100 × 0.25² = −6.25', () => {
    expect(bpi(4000)).toBeCloseTo(-6.25, 10);
  });
  it('EX 0: PGF 0.5, Lg = −0.5 → −25, clamped to −15', () => {
    expect(bpi(0)).toBe(-15);
  });
  it('without a coefficient it uses 1.175: EX 7500 → 100 × 0.5^1.175 = 100 × 2^−1.175 ≈ 44.288', () => {
    expect(bpi(7500, bpiChart({ bpiCoefficient: null }))).toBeCloseTo(44.288, 3);
  });
  it('is null without a kaiden average or world record, and when they are equal', () => {
    expect(bpi(7000, bpiChart({ kaidenAverage: null }))).toBeNull();
    expect(bpi(7000, exChart(4000, { kaidenAverage: 6000 }))).toBeNull();
    expect(bpi(7000, bpiChart({ worldRecord: 6000 }))).toBeNull();
  });
});

describe.each([
  ['SP', sp],
  ['DP', dp],
])('iidx:%s session and profile ratings', (_, gpt) => {
  it('session ktLampRating and BPI are the mean of the best 10, null with fewer than 10', () => {
    // 12.0, 11.9, ..., 10.9: best ten 12.0..11.1 sum to 115.5 → 11.55
    const lamps = [...Array.from({ length: 12 }, (__, i) => rated({ ktLampRating: 12 - i * 0.1 })), rated({ ktLampRating: null })];
    expect(gpt.sessionRatingAlgs.ktLampRating.calculate(lamps)).toBeCloseTo(11.55, 10);
    expect(gpt.sessionRatingAlgs.ktLampRating.calculate(lamps.slice(0, 9))).toBeNull();
    // BPI 10..19: mean 14.5
    const bpis = Array.from({ length: 10 }, (__, i) => rated({ BPI: 10 + i }));
    expect(gpt.sessionRatingAlgs.BPI.calculate(bpis)).toBeCloseTo(14.5, 10);
    expect(gpt.sessionRatingAlgs.BPI.calculate(bpis.slice(1))).toBeNull();
  });

  it('profile ktLampRating is the best 20 over 20, even with fewer PBs', () => {
    // 25 PBs of 10: best 20 → 200 / 20 = 10
    expect(gpt.profileRatingAlgs.ktLampRating.calculate(Array.from({ length: 25 }, () => rated({ ktLampRating: 10 })))).toBeCloseTo(10, 10);
    // 5 PBs of 12: 60 / 20 = 3
    expect(gpt.profileRatingAlgs.ktLampRating.calculate(Array.from({ length: 5 }, () => rated({ ktLampRating: 12 })))).toBeCloseTo(3, 10);
    expect(gpt.profileRatingAlgs.ktLampRating.calculate([])).toBeNull();
  });

  it('profile BPI is the mean of the best 20, null with fewer than 20', () => {
    // 19 PBs of 50 and one of 30 plus a 10 outside the best 20: (19 × 50 + 30) / 20 = 49
    const pbs = [...Array.from({ length: 19 }, () => rated({ BPI: 50 })), rated({ BPI: 30 }), rated({ BPI: 10 })];
    expect(gpt.profileRatingAlgs.BPI.calculate(pbs)).toBeCloseTo(49, 10);
    expect(gpt.profileRatingAlgs.BPI.calculate(pbs.slice(0, 19))).toBeNull();
  });
});

describe('iidx config', () => {
  it('has the 19 provided dans, 7th Kyu to Kaiden, never lowered', () => {
    for (const gpt of [sp, dp]) {
      const dan = gpt.classes.dan;
      expect(dan.type).toBe('PROVIDED');
      expect(dan.downgradable).toBe(false);
      expect(dan.values.map((v) => v.id)).toEqual([
        'KYU_7',
        'KYU_6',
        'KYU_5',
        'KYU_4',
        'KYU_3',
        'KYU_2',
        'KYU_1',
        'DAN_1',
        'DAN_2',
        'DAN_3',
        'DAN_4',
        'DAN_5',
        'DAN_6',
        'DAN_7',
        'DAN_8',
        'DAN_9',
        'DAN_10',
        'CHUUDEN',
        'KAIDEN',
      ]);
      expect(dan.values[18]).toEqual({ id: 'KAIDEN', display: '皆伝', hoverText: 'Kaiden' });
    }
  });

  it('PBs keep gauge, gauge histories and combo breaks with the lamp, and the lowest BP separately', () => {
    expect(sp.pbMerge).toEqual([
      { kind: 'fromLampPB', optional: ['gauge', 'gaugeHistory', 'gsmEasy', 'gsmNormal', 'gsmHard', 'gsmEXHard', 'comboBreak'] },
      { kind: 'best', optional: 'bp', direction: 'min', name: 'Best BP' },
    ]);
    expect(dp.pbMerge).toEqual(sp.pbMerge);
    expect(sp.identityMetrics).toEqual([]);
  });

  it('validates optional metrics strictly (gauge 0..100, graphs may hold nulls, no unknown keys)', () => {
    expect(sp.optionalMetrics.safeParse({ bp: 3, gauge: 80.2, comboBreak: 1, gsmEXHard: [100, 50, null], scoreHistory: [0, 50.5] }).success).toBe(true);
    expect(sp.optionalMetrics.safeParse({ gauge: 100.5 }).success).toBe(false);
    expect(sp.optionalMetrics.safeParse({ bp: -1 }).success).toBe(false);
    expect(sp.optionalMetrics.safeParse({ gsm: { EASY: [1] } }).success).toBe(false);
  });

  it('takes one random option on SP and a left/right pair on DP', () => {
    expect(sp.scoreMeta.safeParse({ random: 'S-RANDOM', assist: 'AUTO SCRATCH', range: 'LIFT SUD+', gauge: 'EX-HARD' }).success).toBe(true);
    expect(sp.scoreMeta.safeParse({ random: ['RANDOM', 'MIRROR'] }).success).toBe(false);
    expect(dp.scoreMeta.safeParse({ random: ['RANDOM', 'MIRROR'] }).success).toBe(true);
    expect(dp.scoreMeta.safeParse({ random: 'RANDOM' }).success).toBe(false);
    expect(sp.scoreMeta.safeParse({ gauge: 'EX HARD' }).success).toBe(false);
  });

  it('accepts HEAD-shaped chart data and refuses a chart without a positive notecount or with a zero kaiden average', () => {
    const data = { notecount: 1500, inGameID: 25089, hashSHA256: null, '2dxtraSet': null, kaidenAverage: 2400, worldRecord: 2900, bpiCoefficient: null };
    expect(sp.chartData.safeParse({ ...data, ncTier: { value: 12.2, text: '地力S', individualDifference: false }, hcTier: null }).success).toBe(true);
    expect(dp.chartData.safeParse({ ...data, inGameID: [1, 2], dpTier: { value: 11.1, text: '11.1' } }).success).toBe(true);
    expect(sp.chartData.safeParse({ ...data, notecount: undefined }).success).toBe(false);
    expect(sp.chartData.safeParse({ ...data, kaidenAverage: 0 }).success).toBe(false);
    expect(IIDX.songData.safeParse({ genre: 'PIANO AMBIENT', displayVersion: null }).success).toBe(true);
  });

  it('matches by in-game ID, service song ID or title', () => {
    expect(sp.supportedMatchTypes).toEqual(['inGameID', 'serviceSongID', 'songTitle', 'iidxChartHash']);
  });
});
