import { describe, expect, it } from '@jest/globals';
import { BMS } from '../../../src/game-support/bms/index.js';
import type { ChartInfo } from '../../../src/game-support/types.js';
import { EX_GRADE_EDGES, EX_NOTECOUNT } from './ex-score-cases.js';
import { chart, derive, deriveError, input, rated, song } from './fixtures.js';

const seven = BMS.gpts['7K'];
const fourteen = BMS.gpts['14K'];
const exChart = (notecount: unknown = EX_NOTECOUNT, data: Record<string, unknown> = {}) => chart({ data: { notecount, ...data } });
const GPTS = [
  ['7K', seven],
  ['14K', fourteen],
] as const;

describe.each(GPTS)('bms:%s grades (HEAD ninths of 100, by percent)', (_, gpt) => {
  it.each(EX_GRADE_EDGES)('EX %d of 1800 is %s', (score, grade) => {
    const data = derive(gpt, input(score, 'CLEAR'), exChart());
    expect(data.grade).toBe(grade);
    expect(data.gradeIndex).toBe(gpt.grades.indexOf(grade));
  });
});

describe.each(GPTS)('bms:%s derivation', (_, gpt) => {
  it('derives percent as 100 × EX / (notecount × 2) and indexes the lamp', () => {
    // 100 × 999 / 1600 = 62.4375
    const data = derive(gpt, input(999, 'EASY CLEAR'), exChart(800));
    expect(data.percent).toBeCloseTo(62.4375, 10);
    expect(data.lampIndex).toBe(3);
  });

  it.each([
    [1801, 'CLEAR', /out of range/],
    [-1, 'CLEAR', /out of range/],
    [10.5, 'CLEAR', /integer/],
    [1000, 'PERFECT ULTIMATE CHAIN', /Invalid lamp/],
  ])('refuses EX %d with lamp %s', (score, lamp, message) => {
    expect(deriveError(gpt, input(score, lamp), exChart())).toMatch(message);
  });

  it.each([[undefined], [0], [-4], [null]])('refuses any score on a chart whose notecount is %p', (notecount) => {
    const c: ChartInfo = notecount === undefined ? chart() : exChart(notecount);
    expect(deriveError(gpt, input(0, 'FAILED'), c)).toMatch(/no notecount/);
  });

  it('requires pgreat × 2 + great to equal the EX score when both are given', () => {
    // 700 × 2 + 150 = 1550
    expect(deriveError(gpt, input(1551, 'CLEAR', { judgements: { pgreat: 700, great: 150 } }), exChart())).toMatch(/1550/);
    expect(derive(gpt, input(1550, 'CLEAR', { judgements: { pgreat: 700, great: 150, bad: 3 } }), exChart()).score).toBe(1550);
    expect(derive(gpt, input(1551, 'CLEAR', { judgements: { great: 150 } }), exChart()).score).toBe(1551);
  });
});

describe.each(GPTS)('bms:%s sieglinde: HARD CLEAR+ → max(sglHC, sglEC), EASY CLEAR/CLEAR → sglEC, else 0', (_, gpt) => {
  const rate = (lamp: string, data: Record<string, unknown>) => {
    const c = exChart(EX_NOTECOUNT, data);
    return gpt.scoreRatingAlgs.sieglinde.calculate(derive(gpt, input(1000, lamp), c), c, song());
  };

  it.each([
    ['FULL COMBO', 7.25],
    ['EX HARD CLEAR', 7.25],
    ['HARD CLEAR', 7.25],
    ['CLEAR', 5.5],
    ['EASY CLEAR', 5.5],
    ['ASSIST CLEAR', 0],
    ['FAILED', 0],
    ['NO PLAY', 0],
  ])('EC 5.5 / HC 7.25: %s → %d', (lamp, expected) => {
    expect(rate(lamp, { sglEC: 5.5, sglHC: 7.25 })).toBe(expected);
  });

  it('a hard clear earns the EC value when it is the larger, or when there is no HC value', () => {
    expect(rate('HARD CLEAR', { sglEC: 6, sglHC: 4 })).toBe(6);
    expect(rate('HARD CLEAR', { sglEC: 6, sglHC: null })).toBe(6);
  });

  it('is 0 for every lamp on a chart without sieglinde values', () => {
    expect(rate('FULL COMBO', {})).toBe(0);
    expect(rate('CLEAR', { sglEC: null })).toBe(0);
  });
});

describe.each(GPTS)('bms:%s session and profile ratings', (_, gpt) => {
  it('session sieglinde is the mean of the best 10, null with fewer than 10', () => {
    // 1..11 plus a null: best ten 2..11 sum to 65 → 6.5
    const scores = [...Array.from({ length: 11 }, (__, i) => rated({ sieglinde: i + 1 })), rated({ sieglinde: null })];
    expect(gpt.sessionRatingAlgs.sieglinde.calculate(scores)).toBeCloseTo(6.5, 10);
    expect(gpt.sessionRatingAlgs.sieglinde.calculate(scores.slice(0, 9))).toBeNull();
  });

  it('profile sieglinde is the best 20 over 20, even with fewer PBs', () => {
    // 30 PBs of 8: 160 / 20 = 8; 4 PBs of 10: 40 / 20 = 2
    expect(gpt.profileRatingAlgs.sieglinde.calculate(Array.from({ length: 30 }, () => rated({ sieglinde: 8 })))).toBeCloseTo(8, 10);
    expect(gpt.profileRatingAlgs.sieglinde.calculate(Array.from({ length: 4 }, () => rated({ sieglinde: 10 })))).toBeCloseTo(2, 10);
    expect(gpt.profileRatingAlgs.sieglinde.calculate([])).toBeNull();
  });
});

describe('bms classes (all provided, never lowered)', () => {
  const summary = (gpt: typeof seven) =>
    Object.fromEntries(
      Object.entries(gpt.classes).map(([name, set]) => [name, [set.type, set.downgradable, set.values.length, set.values[0].id, set.values.at(-1)?.id]]),
    );

  it('7K has the five HEAD sets', () => {
    expect(summary(seven)).toEqual({
      genocideDan: ['PROVIDED', false, 22, 'NORMAL_1', 'OVERJOY'],
      stslDan: ['PROVIDED', false, 26, 'SL0', 'ST12'],
      newGenerationDan: ['PROVIDED', false, 22, 'NORMAL_1', 'INSANE_KAIDEN'],
      lnDan: ['PROVIDED', false, 13, 'DAN_1', 'UDON'],
      scratchDan: ['PROVIDED', false, 18, 'KYU_7', 'KAIDEN'],
    });
  });

  it('14K has genocideDan and the Satellite-only stslDan', () => {
    expect(summary(fourteen)).toEqual({
      genocideDan: ['PROVIDED', false, 22, 'NORMAL_1', 'OVERJOY'],
      stslDan: ['PROVIDED', false, 13, 'SL0', 'SL12'],
    });
  });

  it('spells the values as HEAD does', () => {
    const byId = (set: string, id: string) => seven.classes[set].values.find((v) => v.id === id);
    expect(byId('genocideDan', 'INSANE_3')).toEqual({ id: 'INSANE_3', display: '★3', hoverText: 'Insane 3rd Dan' });
    expect(byId('newGenerationDan', 'INSANE_0')).toEqual({ id: 'INSANE_0', display: '▼0', hoverText: 'Insane 0th Dan' });
    expect(byId('stslDan', 'ST11')).toEqual({ id: 'ST11', display: 'st11', hoverText: 'Stella 11' });
    expect(byId('scratchDan', 'DAN_1')).toEqual({ id: 'DAN_1', display: '初段', hoverText: 'Scratch 1st Dan' });
    expect(byId('scratchDan', 'KYU_4')).toEqual({ id: 'KYU_4', display: '四級', hoverText: 'Scratch 4th Kyu' });
    expect(byId('lnDan', 'OVERJOY')).toEqual({ id: 'OVERJOY', display: '◆(^^)', hoverText: 'LN Overjoy' });
    // Satellite sits below Stella, so SL12 is the last Satellite and ST0 the first Stella.
    expect(seven.classes.stslDan.values.findIndex((v) => v.id === 'ST0')).toBe(13);
  });
});

describe('bms config', () => {
  it('PBs keep the gauge and its histories with the lamp, and the lowest BP separately', () => {
    for (const [, gpt] of GPTS) {
      expect(gpt.pbMerge).toEqual([
        { kind: 'fromLampPB', optional: ['gauge', 'gaugeHistory', 'gaugeHistoryEasy', 'gaugeHistoryGroove', 'gaugeHistoryHard'] },
        { kind: 'best', optional: 'bp', direction: 'min', name: 'Best BP' },
      ]);
      expect(gpt.identityMetrics).toEqual([]);
    }
  });

  it('validates optional metrics strictly (early/late counts, full gauge graphs, no unknown keys)', () => {
    expect(seven.optionalMetrics.safeParse({ bp: 12, epg: 300, lpg: 280, ebd: 1, lpr: 2, gauge: 77.5, gaugeHistoryGroove: [20, 22.5, 80] }).success).toBe(true);
    expect(seven.optionalMetrics.safeParse({ gaugeHistory: [20, null] }).success).toBe(false);
    expect(seven.optionalMetrics.safeParse({ egr: 1.5 }).success).toBe(false);
    expect(seven.optionalMetrics.safeParse({ comboBreak: 1 }).success).toBe(false);
  });

  it('takes one random option on 7K and a pair on 14K', () => {
    expect(seven.scoreMeta.safeParse({ random: 'R-RANDOM', inputDevice: 'MIDI', client: 'lr2oraja', gauge: 'EX-HARD' }).success).toBe(true);
    expect(seven.scoreMeta.safeParse({ random: ['RANDOM', 'RANDOM'] }).success).toBe(false);
    expect(fourteen.scoreMeta.safeParse({ random: ['RANDOM', 'MIRROR'] }).success).toBe(true);
    expect(fourteen.scoreMeta.safeParse({ random: 'RANDOM' }).success).toBe(false);
    expect(seven.scoreMeta.safeParse({ client: 'beatoraja' }).success).toBe(false);
  });

  it('accepts HEAD-shaped chart data keyed by both hashes, and refuses one without hashMD5', () => {
    const data = {
      notecount: 1204,
      hashMD5: 'a'.repeat(32),
      hashSHA256: 'b'.repeat(64),
      tableFolders: [{ table: '★', level: '5' }],
      sglEC: 13.2,
      sglHC: null,
      aiLevel: null,
    };
    expect(seven.chartData.safeParse(data).success).toBe(true);
    expect(fourteen.chartData.safeParse({ ...data, sglEC: undefined, aiLevel: undefined }).success).toBe(true);
    expect(seven.chartData.safeParse({ ...data, hashMD5: undefined }).success).toBe(false);
    expect(seven.chartData.safeParse({ ...data, tableFolders: [{ table: '★', level: 5 }] }).success).toBe(false);
    expect(BMS.songData.safeParse({ genre: null, subtitle: '[ANOTHER]', subartist: null, tableString: '★5, st3' }).success).toBe(true);
  });

  it('matches by chart hash or service song ID', () => {
    expect(seven.supportedMatchTypes).toEqual(['bmsChartHash', 'serviceSongID']);
  });
});
