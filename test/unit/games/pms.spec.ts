import { describe, expect, it } from '@jest/globals';
import { PMS } from '../../../src/game-support/pms/index.js';
import type { ChartInfo } from '../../../src/game-support/types.js';
import { EX_GRADE_EDGES, EX_NOTECOUNT } from './ex-score-cases.js';
import { chart, derive, deriveError, input, rated, song } from './fixtures.js';

const GPTS = [
  ['Controller', PMS.gpts.Controller],
  ['Keyboard', PMS.gpts.Keyboard],
] as const;
const exChart = (notecount: unknown = EX_NOTECOUNT, data: Record<string, unknown> = {}) => chart({ data: { notecount, ...data } });

describe.each(GPTS)('pms:%s grades (HEAD ninths of 100, by percent)', (_, gpt) => {
  it.each(EX_GRADE_EDGES)('EX %d of 1800 is %s', (score, grade) => {
    const data = derive(gpt, input(score, 'CLEAR'), exChart());
    expect(data.grade).toBe(grade);
    expect(data.gradeIndex).toBe(gpt.grades.indexOf(grade));
  });
});

describe.each(GPTS)('pms:%s derivation', (_, gpt) => {
  it('derives percent as 100 × EX / (notecount × 2) and indexes the lamp', () => {
    // 100 × 1530 / 1700 = 90
    const data = derive(gpt, input(1530, 'EX HARD CLEAR'), exChart(850));
    expect(data.percent).toBeCloseTo(90, 10);
    expect(data.grade).toBe('AAA');
    expect(data.lampIndex).toBe(6);
  });

  it.each([
    [1801, 'CLEAR', /out of range/],
    [-1, 'CLEAR', /out of range/],
    [0.5, 'CLEAR', /integer/],
    [100, 'EXCESSIVE CLEAR', /Invalid lamp/],
  ])('refuses EX %d with lamp %s', (score, lamp, message) => {
    expect(deriveError(gpt, input(score, lamp), exChart())).toMatch(message);
  });

  it.each([[undefined], [0], [3.5]])('refuses any score on a chart whose notecount is %p', (notecount) => {
    const c: ChartInfo = notecount === undefined ? chart() : exChart(notecount);
    expect(deriveError(gpt, input(0, 'CLEAR'), c)).toMatch(/no notecount/);
  });

  it('requires cool × 2 + great to equal the EX score when both are given (COOL is PMS’s PGREAT)', () => {
    // 600 × 2 + 100 = 1300
    expect(deriveError(gpt, input(1299, 'CLEAR', { judgements: { cool: 600, great: 100 } }), exChart())).toMatch(/1300/);
    expect(derive(gpt, input(1300, 'CLEAR', { judgements: { cool: 600, great: 100 } }), exChart()).score).toBe(1300);
  });
});

describe.each(GPTS)('pms:%s sieglinde: HARD CLEAR+ → max(sglHC, sglEC), EASY CLEAR/CLEAR → sglEC, else 0', (_, gpt) => {
  const rate = (lamp: string, data: Record<string, unknown>) => {
    const c = exChart(EX_NOTECOUNT, data);
    return gpt.scoreRatingAlgs.sieglinde.calculate(derive(gpt, input(1000, lamp), c), c, song());
  };
  it.each([
    ['FULL COMBO', 9.75],
    ['HARD CLEAR', 9.75],
    ['CLEAR', 8.5],
    ['EASY CLEAR', 8.5],
    ['ASSIST CLEAR', 0],
    ['FAILED', 0],
  ])('EC 8.5 / HC 9.75: %s → %d', (lamp, expected) => {
    expect(rate(lamp, { sglEC: 8.5, sglHC: 9.75 })).toBe(expected);
  });
  it('is 0 without sieglinde values', () => {
    expect(rate('HARD CLEAR', {})).toBe(0);
  });
});

describe.each(GPTS)('pms:%s session and profile ratings', (_, gpt) => {
  it('session sieglinde is the mean of the best 10, null with fewer than 10', () => {
    // ten of 4 and one of 15: best ten = 15 + 9 × 4 = 51 → 5.1
    const scores = [rated({ sieglinde: 15 }), ...Array.from({ length: 10 }, () => rated({ sieglinde: 4 }))];
    expect(gpt.sessionRatingAlgs.sieglinde.calculate(scores)).toBeCloseTo(5.1, 10);
    expect(gpt.sessionRatingAlgs.sieglinde.calculate(scores.slice(0, 9))).toBeNull();
  });
  it('profile sieglinde is the best 20 over 20, even with fewer PBs', () => {
    // 10 PBs of 6: 60 / 20 = 3
    expect(gpt.profileRatingAlgs.sieglinde.calculate(Array.from({ length: 10 }, () => rated({ sieglinde: 6 })))).toBeCloseTo(3, 10);
    expect(gpt.profileRatingAlgs.sieglinde.calculate([rated({ sieglinde: null })])).toBeNull();
  });
});

describe('pms config', () => {
  it('has the 13 provided dans, ●1 to ●UNDF', () => {
    for (const [, gpt] of GPTS) {
      const dan = gpt.classes.dan;
      expect([dan.type, dan.downgradable, dan.values.length]).toEqual(['PROVIDED', false, 13]);
      expect(dan.values[0]).toEqual({ id: 'INSANE_1', display: '●1', hoverText: 'Insane 1st Dan' });
      expect(dan.values.slice(9).map((v) => v.id)).toEqual(['INSANE_10', 'INSANE_KAIDEN', 'OVERJOY', 'UNDEFINED']);
      expect(dan.values[12]).toEqual({ id: 'UNDEFINED', display: '●UNDF', hoverText: 'Undefined (Post-Overjoy)' });
    }
  });

  it('PBs keep the gauge and its histories with the lamp, and the lowest BP separately', () => {
    for (const [, gpt] of GPTS) {
      expect(gpt.pbMerge).toEqual([
        { kind: 'fromLampPB', optional: ['gauge', 'gaugeHistory', 'gaugeHistoryEasy', 'gaugeHistoryGroove', 'gaugeHistoryHard'] },
        { kind: 'best', optional: 'bp', direction: 'min', name: 'Best BP' },
      ]);
      expect(gpt.identityMetrics).toEqual([]);
    }
  });

  it('uses COOL as its top judgement and beatoraja as its only client', () => {
    const gpt = PMS.gpts.Controller;
    expect(gpt.judgements).toEqual(['cool', 'great', 'good', 'bad', 'poor']);
    expect(gpt.scoreMeta.safeParse({ random: 'MIRROR', client: 'beatoraja', gauge: 'HARD' }).success).toBe(true);
    expect(gpt.scoreMeta.safeParse({ client: 'LR2' }).success).toBe(false);
    expect(gpt.scoreMeta.safeParse({ inputDevice: 'KEYBOARD' }).success).toBe(false);
  });

  it('accepts HEAD-shaped chart and song data and refuses a chart without hashSHA256', () => {
    const data = { notecount: 700, hashMD5: 'c'.repeat(32), hashSHA256: 'd'.repeat(64), tableFolders: [{ table: 'P●', level: '1' }], sglEC: 2.1, sglHC: 3 };
    const gpt = PMS.gpts.Keyboard;
    expect(gpt.chartData.safeParse(data).success).toBe(true);
    expect(gpt.chartData.safeParse({ ...data, hashSHA256: undefined }).success).toBe(false);
    expect(gpt.optionalMetrics.safeParse({ bp: 4, lgd: 3, gaugeHistoryEasy: [2, 4, 6] }).success).toBe(true);
    expect(PMS.songData.safeParse({ genre: null, subartist: null, subtitle: null, tableString: 'P●1' }).success).toBe(true);
    expect(PMS.songData.safeParse({ tableString: 1 }).success).toBe(false);
  });
});
