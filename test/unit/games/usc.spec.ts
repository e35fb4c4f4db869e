import { describe, expect, it } from '@jest/globals';
import { USC } from '../../../src/game-support/usc/index.js';
import { chart, derive, deriveError, input, rated, song } from './fixtures.js';

const GPTS = [
  ['Controller', USC.gpts.Controller],
  ['Keyboard', USC.gpts.Keyboard],
] as const;

describe.each(GPTS)('usc:%s grades (HEAD boundaries, by score)', (_, gpt) => {
  it.each([
    [0, 'D'],
    [6_999_999, 'D'],
    [7_000_000, 'C'],
    [7_999_999, 'C'],
    [8_000_000, 'B'],
    [8_699_999, 'B'],
    [8_700_000, 'A'],
    [8_999_999, 'A'],
    [9_000_000, 'A+'],
    [9_299_999, 'A+'],
    [9_300_000, 'AA'],
    [9_499_999, 'AA'],
    [9_500_000, 'AA+'],
    [9_699_999, 'AA+'],
    [9_700_000, 'AAA'],
    [9_799_999, 'AAA'],
    [9_800_000, 'AAA+'],
    [9_899_999, 'AAA+'],
    [9_900_000, 'S'],
    [9_999_999, 'S'],
    [10_000_000, 'PUC'],
  ])('score %d is %s', (score, grade) => {
    const lamp = score === 10_000_000 ? 'PERFECT ULTIMATE CHAIN' : 'CLEAR';
    const data = derive(gpt, input(score, lamp));
    expect(data.grade).toBe(grade);
    expect(data.gradeIndex).toBe(gpt.grades.indexOf(grade));
  });
});

describe.each(GPTS)('usc:%s derivation', (_, gpt) => {
  it('derives percent as score / 100,000 and indexes the lamp', () => {
    const data = derive(gpt, input(9_123_456, 'EXCESSIVE CLEAR'));
    expect(data.percent).toBeCloseTo(91.23456, 10);
    expect(data.lampIndex).toBe(2);
  });

  it.each([
    [10_000_001, 'CLEAR', /out of range/],
    [-1, 'CLEAR', /out of range/],
    [9_500_000.5, 'CLEAR', /integer/],
    [9_500_000, 'MAXXIVE CLEAR', /Invalid lamp/],
    [9_999_999, 'PERFECT ULTIMATE CHAIN', /10,000,000/],
    [4_999_999, 'ULTIMATE CHAIN', /5,000,000/],
  ])('refuses score %d with lamp %s', (score, lamp, message) => {
    expect(deriveError(gpt, input(score, lamp))).toMatch(message);
  });

  it('refuses an ULTIMATE CHAIN with misses and a PUC with nears or misses', () => {
    expect(deriveError(gpt, input(9_950_000, 'ULTIMATE CHAIN', { judgements: { miss: 2 } }))).toMatch(/miss/);
    expect(deriveError(gpt, input(10_000_000, 'PERFECT ULTIMATE CHAIN', { judgements: { near: 1 } }))).toMatch(/near/);
    expect(deriveError(gpt, input(10_000_000, 'PERFECT ULTIMATE CHAIN', { judgements: { miss: 1 } }))).toMatch(/miss/);
    expect(derive(gpt, input(9_950_000, 'ULTIMATE CHAIN', { judgements: { near: 5, miss: 0 } })).lamp).toBe('ULTIMATE CHAIN');
  });
});

describe.each(GPTS)('usc:%s VF6 = floor(level × 2 × score/1e7 × grade% × lamp% / 1000) / 1000', (_, gpt) => {
  const vf6 = (score: number, lamp: string, levelNum: number, isOfficial = true) => {
    const c = chart({ levelNum, data: { isOfficial } });
    return gpt.scoreRatingAlgs.VF6.calculate(derive(gpt, input(score, lamp), c), c, song());
  };
  it('level 19, 9.9M (S, 105) ULTIMATE CHAIN (105): 19×2×0.99×105×105 = 414760.5 → 0.414', () => {
    expect(vf6(9_900_000, 'ULTIMATE CHAIN', 19)).toBe(0.414);
  });
  it('level 16, 9.75M (AAA, 100) EXCESSIVE CLEAR (102): 16×2×0.975×100×102 = 318240 → 0.318', () => {
    expect(vf6(9_750_000, 'EXCESSIVE CLEAR', 16)).toBe(0.318);
  });
  it('level 12, 8.75M (A, 88) CLEAR (100): 12×2×0.875×88×100 = 184800 → 0.184', () => {
    expect(vf6(8_750_000, 'CLEAR', 12)).toBe(0.184);
  });
  it('level 10, 6.0M (D, 80) FAILED (50): 10×2×0.6×80×50 = 48000 → 0.048', () => {
    expect(vf6(6_000_000, 'FAILED', 10)).toBe(0.048);
  });
  it('level 20 PUC on an unofficial chart still counts (HEAD dropped the isOfficial check): 20×2×1×105×110 = 462000 → 0.462', () => {
    expect(vf6(10_000_000, 'PERFECT ULTIMATE CHAIN', 20, false)).toBe(0.462);
  });
});

describe.each(GPTS)('usc:%s session and profile ratings', (_, gpt) => {
  it('ProfileVF6 is the mean of the best 10 VF6 × 50, null with fewer than 10', () => {
    // ten of 0.3 and one of 0.1: (10 × 0.3) / 10 × 50 = 15
    const scores = [...Array.from({ length: 10 }, () => rated({ VF6: 0.3 })), rated({ VF6: 0.1 })];
    expect(gpt.sessionRatingAlgs.ProfileVF6.calculate(scores)).toBeCloseTo(15, 10);
    expect(gpt.sessionRatingAlgs.ProfileVF6.calculate(scores.slice(0, 9))).toBeNull();
  });
  it('profile VF6 is the sum of the best 50 VF6', () => {
    // 60 PBs of 0.4: best 50 → 20; two PBs 0.41 + 0.39 = 0.8
    expect(gpt.profileRatingAlgs.VF6.calculate(Array.from({ length: 60 }, () => rated({ VF6: 0.4 })))).toBeCloseTo(20, 10);
    expect(gpt.profileRatingAlgs.VF6.calculate([rated({ VF6: 0.41 }), rated({ VF6: 0.39 })])).toBeCloseTo(0.8, 10);
    expect(gpt.profileRatingAlgs.VF6.calculate([])).toBeNull();
  });
});

describe.each(GPTS)('usc:%s vfClass (derived from profile VF6, inclusive lower bounds)', (_, gpt) => {
  const derived = (vf: number | null) => gpt.classes.vfClass.derive!({ VF6: vf });
  it.each([
    [0, 'SIENNA_I'],
    [7.499, 'SIENNA_III'],
    [7.5, 'SIENNA_IV'],
    [13.999, 'DANDELION_IV'],
    [14, 'CYAN_I'],
    [16.5, 'CORAL_III'],
    [18.249, 'ELDORA_I'],
    [18.25, 'ELDORA_II'],
    [19.999, 'CRIMSON_IV'],
    [20, 'IMPERIAL_I'],
    [21, 'IMPERIAL_II'],
    [23, 'IMPERIAL_IV'],
  ])('VF %d is %s', (vf, cls) => {
    expect(derived(vf)).toBe(cls);
  });
  it('gives no class without a profile VF6, and can go down', () => {
    expect(derived(null)).toBeNull();
    expect(gpt.classes.vfClass.type).toBe('DERIVED');
    expect(gpt.classes.vfClass.downgradable).toBe(true);
    expect(gpt.classes.vfClass.values).toHaveLength(40);
  });
});

describe('usc config', () => {
  const gpt = USC.gpts.Controller;
  it('has no PB extras and no identity metrics', () => {
    expect(gpt.pbMerge).toEqual([]);
    expect(gpt.identityMetrics).toEqual([]);
  });

  it('takes the gauge in percent (0..100) and has no EX score', () => {
    expect(gpt.optionalMetrics.safeParse({ fast: 10, slow: 4, maxCombo: 1200, gauge: 72.5 }).success).toBe(true);
    expect(gpt.optionalMetrics.safeParse({ gauge: 100.1 }).success).toBe(false);
    expect(gpt.optionalMetrics.safeParse({ exScore: 3000 }).success).toBe(false);
  });

  it('takes note and gauge mods as score meta', () => {
    expect(gpt.scoreMeta.safeParse({ noteMod: 'MIR-RAN', gaugeMod: 'PERMISSIVE' }).success).toBe(true);
    expect(gpt.scoreMeta.safeParse({ noteMod: 'S-RANDOM' }).success).toBe(false);
    expect(gpt.scoreMeta.safeParse({ random: 'MIRROR' }).success).toBe(false);
  });

  it('accepts HEAD-shaped chart data with one or several SHA1 hashes, and refuses one without hashSHA1', () => {
    const data = { hashSHA1: 'e'.repeat(40), isOfficial: true, effector: 'someone', tableFolders: [] };
    expect(gpt.chartData.safeParse(data).success).toBe(true);
    expect(gpt.chartData.safeParse({ ...data, hashSHA1: ['e'.repeat(40), 'f'.repeat(40)], isOfficial: false }).success).toBe(true);
    expect(gpt.chartData.safeParse({ ...data, hashSHA1: undefined }).success).toBe(false);
    expect(gpt.chartData.safeParse({ ...data, isOfficial: 'yes' }).success).toBe(false);
  });

  it('matches by USC chart hash or service song ID, and both playtypes share one config', () => {
    expect(gpt.supportedMatchTypes).toEqual(['uscChartHash', 'serviceSongID']);
    expect(USC.gpts.Keyboard.lamps).toEqual(gpt.lamps);
    expect(USC.gpts.Keyboard.playtype).toBe('Keyboard');
  });
});
