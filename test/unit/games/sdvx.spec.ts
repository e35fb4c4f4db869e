import { describe, expect, it } from '@jest/globals';
import { SDVX } from '../../../src/game-support/sdvx/index.js';
import { chart, derive, deriveError, input, rated, song } from './fixtures.js';

const gpt = SDVX.gpts.Single;
const vf6 = (score: number, lamp: string, levelNum: number) => gpt.scoreRatingAlgs.VF6.calculate(derive(gpt, input(score, lamp)), chart({ levelNum }), song());

describe('sdvx:Single grades (HEAD boundaries, by score)', () => {
  it.each([
    [0, 'D'],
    [6_999_999, 'D'],
    [7_000_000, 'C'],
    [8_699_999, 'B'],
    [8_700_000, 'A'],
    [8_999_999, 'A'],
    [9_000_000, 'A+'],
    [9_299_999, 'A+'],
    [9_300_000, 'AA'],
    [9_500_000, 'AA+'],
    [9_700_000, 'AAA'],
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

describe('sdvx:Single derivation', () => {
  it('derives percent as score / 100,000 and indexes the lamp', () => {
    const data = derive(gpt, input(9_876_543, 'EXCESSIVE CLEAR'));
    expect(data.percent).toBeCloseTo(98.76543, 10);
    expect(data.lampIndex).toBe(2);
  });

  it.each([
    [10_000_001, 'CLEAR', /out of range/],
    [-1, 'CLEAR', /out of range/],
    [9_000_000.5, 'CLEAR', /integer/],
    [9_000_000, 'HARD CLEAR', /Invalid lamp/],
    [9_999_999, 'PERFECT ULTIMATE CHAIN', /10,000,000/],
    [4_999_999, 'ULTIMATE CHAIN', /5,000,000/],
  ])('refuses score %d with lamp %s', (score, lamp, message) => {
    expect(deriveError(gpt, input(score, lamp))).toMatch(message);
  });

  it('refuses an ULTIMATE CHAIN with misses and a PUC with nears', () => {
    expect(deriveError(gpt, input(9_900_000, 'ULTIMATE CHAIN', { judgements: { miss: 1 } }))).toMatch(/miss/);
    expect(deriveError(gpt, input(10_000_000, 'PERFECT ULTIMATE CHAIN', { judgements: { near: 1 } }))).toMatch(/near/);
  });
});

describe('sdvx:Single VF6 = floor(level × 2 × score/1e7 × grade% × lamp% / 1000) / 1000', () => {
  it('level 20 PUC: 20×2×1×105×110 = 462000 → 0.462', () => {
    expect(vf6(10_000_000, 'PERFECT ULTIMATE CHAIN', 20)).toBe(0.462);
  });
  it('level 18, 9.5M (AA+, 97) EXCESSIVE CLEAR (102): 18×2×0.95×97×102 = 338374.8 → 0.338', () => {
    expect(vf6(9_500_000, 'EXCESSIVE CLEAR', 18)).toBe(0.338);
  });
  it('level 17, 9.0M (A+, 91) CLEAR (100): 17×2×0.9×91×100 = 278460 → 0.278', () => {
    expect(vf6(9_000_000, 'CLEAR', 17)).toBe(0.278);
  });
  it('level 15, 8.0M (B, 85) FAILED (50): 15×2×0.8×85×50 = 102000 → 0.102', () => {
    expect(vf6(8_000_000, 'FAILED', 15)).toBe(0.102);
  });
});

describe('sdvx:Single session and profile ratings', () => {
  it('ProfileVF6 is the mean of the best 10 VF6 × 50, null with fewer than 10', () => {
    // best ten of 0.40, 0.39, ..., 0.29 plus a null: (0.40 + ... + 0.31) / 10 × 50 = 3.55 / 10 × 50 = 17.75
    const scores = [...Array.from({ length: 12 }, (_, i) => rated({ VF6: 0.4 - i * 0.01 })), rated({ VF6: null })];
    expect(gpt.sessionRatingAlgs.ProfileVF6.calculate(scores)).toBeCloseTo(17.75, 10);
    expect(gpt.sessionRatingAlgs.ProfileVF6.calculate(scores.slice(0, 9))).toBeNull();
  });

  it('profile VF6 is the sum of the best 50 VF6 (fewer count as they are)', () => {
    // 55 PBs of 0.300: the best 50 sum to 15.0
    expect(gpt.profileRatingAlgs.VF6.calculate(Array.from({ length: 55 }, () => rated({ VF6: 0.3 })))).toBeCloseTo(15, 10);
    // 3 PBs: 0.45 + 0.44 + 0.43 = 1.32
    expect(gpt.profileRatingAlgs.VF6.calculate([rated({ VF6: 0.45 }), rated({ VF6: 0.44 }), rated({ VF6: 0.43 })])).toBeCloseTo(1.32, 10);
    expect(gpt.profileRatingAlgs.VF6.calculate([])).toBeNull();
  });

  it('profile VF6 is summed in thousandths, so an exact 20 is Imperial I', () => {
    // 45 × 0.401 + 5 × 0.391 = 18.045 + 1.955 = 20.000 (45 × 401 + 5 × 391 = 20000 thousandths); float additions
    // of the same 50 values come to 19.999999999999986, which would be Crimson IV
    const vf = gpt.profileRatingAlgs.VF6.calculate([
      ...Array.from({ length: 45 }, () => rated({ VF6: 0.401 })),
      ...Array.from({ length: 5 }, () => rated({ VF6: 0.391 })),
    ]);
    expect(vf).toBe(20);
    expect(gpt.classes.vfClass.derive!({ VF6: vf })).toBe('IMPERIAL_I');
    // 0.462 × 50 = 23.1 exactly: Imperial IV
    expect(gpt.profileRatingAlgs.VF6.calculate(Array.from({ length: 50 }, () => rated({ VF6: 0.462 })))).toBe(23.1);
  });
});

describe('sdvx:Single vfClass thresholds (inclusive lower bounds)', () => {
  const derived = (vf: number | null) => gpt.classes.vfClass.derive!({ VF6: vf });
  it.each([
    [0, 'SIENNA_I'],
    [2.499, 'SIENNA_I'],
    [2.5, 'SIENNA_II'],
    [9.999, 'SIENNA_IV'],
    [10, 'COBALT_I'],
    [11.5, 'COBALT_IV'],
    [12, 'DANDELION_I'],
    [14.249, 'CYAN_I'],
    [14.25, 'CYAN_II'],
    [15.75, 'SCARLET_IV'],
    [19.999, 'CRIMSON_IV'],
    [20, 'IMPERIAL_I'],
    [22.999, 'IMPERIAL_III'],
    [23, 'IMPERIAL_IV'],
    [30, 'IMPERIAL_IV'],
  ])('VF %d is %s', (vf, cls) => {
    expect(derived(vf)).toBe(cls);
  });
  it('gives no class without a profile VF6', () => {
    expect(derived(null)).toBeNull();
  });
  it('has HEAD’s 40 values, displays and hover texts exactly (Sienna III "5.0 - 7.499VF", Imperial IV ">23VF")', () => {
    // copied from the reference's game-configs.json, gpts["sdvx:Single"].HEAD.classes.vfClass
    const reference = [
      ['SIENNA_I', 'Sienna I', '0 - 2.499VF'],
      ['SIENNA_II', 'Sienna II', '2.5 - 4.999VF'],
      ['SIENNA_III', 'Sienna III', '5.0 - 7.499VF'],
      ['SIENNA_IV', 'Sienna IV', '7.5 - 9.999VF'],
      ['COBALT_I', 'Cobalt I', '10 - 10.499VF'],
      ['COBALT_II', 'Cobalt II', '10.5 - 10.999VF'],
      ['COBALT_III', 'Cobalt III', '11 - 11.499VF'],
      ['COBALT_IV', 'Cobalt IV', '11.5 - 11.999VF'],
      ['DANDELION_I', 'Dandelion I', '12 - 12.499VF'],
      ['DANDELION_II', 'Dandelion II', '12.5 - 12.999VF'],
      ['DANDELION_III', 'Dandelion III', '13 - 13.499VF'],
      ['DANDELION_IV', 'Dandelion IV', '13.5 - 13.999VF'],
      ['CYAN_I', 'Cyan I', '14 - 14.249VF'],
      ['CYAN_II', 'Cyan II', '14.25 - 14.499VF'],
      ['CYAN_III', 'Cyan III', '14.5 - 14.749VF'],
      ['CYAN_IV', 'Cyan IV', '14.75 - 14.999VF'],
      ['SCARLET_I', 'Scarlet I', '15 - 15.249VF'],
      ['SCARLET_II', 'Scarlet II', '15.25 - 15.499VF'],
      ['SCARLET_III', 'Scarlet III', '15.5 - 15.749VF'],
      ['SCARLET_IV', 'Scarlet IV', '15.75 - 15.999VF'],
      ['CORAL_I', 'Coral I', '16 - 16.249VF'],
      ['CORAL_II', 'Coral II', '16.25 - 16.499VF'],
      ['CORAL_III', 'Coral III', '16.5 - 16.749VF'],
      ['CORAL_IV', 'Coral IV', '16.75 - 16.999VF'],
      ['ARGENTO_I', 'Argento I', '17 - 17.249VF'],
      ['ARGENTO_II', 'Argento II', '17.25 - 17.499VF'],
      ['ARGENTO_III', 'Argento III', '17.5 - 17.749VF'],
      ['ARGENTO_IV', 'Argento IV', '17.75 - 17.999VF'],
      ['ELDORA_I', 'Eldora I', '18 - 18.249VF'],
      ['ELDORA_II', 'Eldora II', '18.25 - 18.499VF'],
      ['ELDORA_III', 'Eldora III', '18.5 - 18.749VF'],
      ['ELDORA_IV', 'Eldora IV', '18.75 - 18.999VF'],
      ['CRIMSON_I', 'Crimson I', '19 - 19.249VF'],
      ['CRIMSON_II', 'Crimson II', '19.25 - 19.499VF'],
      ['CRIMSON_III', 'Crimson III', '19.5 - 19.749VF'],
      ['CRIMSON_IV', 'Crimson IV', '19.75 - 19.999VF'],
      ['IMPERIAL_I', 'Imperial I', '20 - 20.999VF'],
      ['IMPERIAL_II', 'Imperial II', '21 - 21.999VF'],
      ['IMPERIAL_III', 'Imperial III', '22 - 22.999VF'],
      ['IMPERIAL_IV', 'Imperial IV', '>23VF'],
    ];
    expect(gpt.classes.vfClass.values.map((v) => [v.id, v.display, v.hoverText])).toEqual(reference);
  });
});
