import { describe, expect, it } from '@jest/globals';
import { GITADORA } from '../../../src/game-support/gitadora/index.js';
import { chart, derive, deriveError, input, rated, song } from './fixtures.js';

const gita = GITADORA.gpts.Gita;
const dora = GITADORA.gpts.Dora;
const skill = (percent: number, levelNum: number) =>
  dora.scoreRatingAlgs.skill.calculate(derive(dora, input(percent, 'CLEAR')), chart({ playtype: 'Dora', difficulty: 'EXTREME', levelNum }), song());

describe('gitadora game', () => {
  it('defaults to Dora; guitar has bass difficulties, drums do not', () => {
    expect(GITADORA.defaultPlaytype).toBe('Dora');
    expect(gita.difficulties).toMatchObject({ order: expect.arrayContaining(['BASS MASTER']), default: 'EXTREME' });
    expect(dora.difficulties).toEqual({
      type: 'FIXED',
      order: ['BASIC', 'ADVANCED', 'EXTREME', 'MASTER'],
      shorthand: { BASIC: 'D-BSC', ADVANCED: 'D-ADV', EXTREME: 'D-EXT', MASTER: 'D-MAS' },
      default: 'EXTREME',
    });
  });
});

describe.each([
  ['Gita', gita],
  ['Dora', dora],
])('gitadora:%s', (_playtype, gpt) => {
  it.each([
    [0, 'C'],
    [62.99, 'C'],
    [63, 'B'],
    [72.99, 'B'],
    [73, 'A'],
    [79.99, 'A'],
    [80, 'S'],
    [94.99, 'S'],
    [95, 'SS'],
    [99.99, 'SS'],
    [100, 'MAX'],
  ])('percent %d is grade %s', (percent, grade) => {
    const data = derive(gpt, input(percent, 'CLEAR'));
    expect(data.grade).toBe(grade);
    expect(data.gradeIndex).toBe(gpt.grades.indexOf(grade));
  });

  it('takes the score as the percent, decimals allowed', () => {
    const data = derive(gpt, input(87.65, 'FULL COMBO'));
    expect(data.percent).toBe(87.65);
    expect(data.score).toBe(87.65);
    expect(data.lampIndex).toBe(2);
  });

  it.each([
    [100.01, 'EXCELLENT', /out of range/],
    [-0.01, 'FAILED', /out of range/],
    [Number.NaN, 'CLEAR', /finite/],
    [90, 'HARD CLEAR', /Invalid lamp/],
  ])('refuses %d with lamp %s', (percent, lamp, message) => {
    expect(deriveError(gpt, input(percent, lamp))).toMatch(message);
  });
});

describe('gitadora skill = floor(percent × level × 20) / 100', () => {
  it('95.5% on an 8.50: 95.5 × 8.5 × 20 = 16235 → 162.35', () => {
    expect(skill(95.5, 8.5)).toBe(162.35);
  });
  it('80.12% on a 7.25: 80.12 × 7.25 × 20 = 11617.4 → 116.17', () => {
    expect(skill(80.12, 7.25)).toBe(116.17);
  });
  it('63% on a 6.75: 63 × 6.75 × 20 = 8505 → 85.05', () => {
    expect(skill(63, 6.75)).toBe(85.05);
  });
  it('0% is worth 0; a negative level gives null', () => {
    expect(skill(0, 9)).toBe(0);
    expect(skill(90, -1)).toBeNull();
  });
});

describe('gitadora session and profile ratings', () => {
  it('session skill: mean of the best 10, null with fewer than 10', () => {
    // 160, 159, ..., 149 plus a null: best ten 160..151 average 155.5
    const scores = [...Array.from({ length: 12 }, (_, i) => rated({ skill: 160 - i })), rated({ skill: null })];
    expect(gita.sessionRatingAlgs.skill.calculate(scores)).toBeCloseTo(155.5, 10);
    expect(gita.sessionRatingAlgs.skill.calculate(scores.slice(0, 9))).toBeNull();
  });

  it('naiveSkill: sum of the best 50', () => {
    expect(dora.profileRatingAlgs.naiveSkill.calculate(Array.from({ length: 60 }, () => rated({ skill: 150 })))).toBeCloseTo(7500, 10);
    // 162.35 + 116.17 = 278.52
    expect(dora.profileRatingAlgs.naiveSkill.calculate([rated({ skill: 162.35 }), rated({ skill: 116.17 })])).toBeCloseTo(278.52, 10);
    expect(dora.profileRatingAlgs.naiveSkill.calculate([])).toBeNull();
  });

  it('naiveSkill is summed in hundredths, so an exact 1000 is ORANGE', () => {
    // 49 × 20.01 + 19.51 = 980.49 + 19.51 = 1000.00 (100000 hundredths); float additions give 999.9999999999997
    const skill = dora.profileRatingAlgs.naiveSkill.calculate([...Array.from({ length: 49 }, () => rated({ skill: 20.01 })), rated({ skill: 19.51 })]);
    expect(skill).toBe(1000);
    expect(dora.classes.colour.derive!({ naiveSkill: skill })).toBe('ORANGE');
  });
});

describe('gitadora skill profile: best 25 HOT songs + best 25 other songs, one chart per song', () => {
  /** A PB on a chart of song `id`, whose isHot is `hot` (undefined: the song does not say). */
  const pb = (id: number, value: number, hot?: boolean) =>
    rated({ skill: value }, { song: song({ id, data: hot === undefined ? {} : { isHot: hot } }), chart: chart({ chartID: `c${id}-${value}`, songID: id }) });
  const profile = (scores: Parameters<typeof dora.profileRatingAlgs.skill.calculate>[0]) => dora.profileRatingAlgs.skill.calculate(scores);

  it('is a second profile algorithm; naiveSkill stays the default (HEAD)', () => {
    expect(Object.keys(dora.profileRatingAlgs)).toEqual(['naiveSkill', 'skill']);
    expect(dora.defaultProfileRatingAlg).toBe('naiveSkill');
    expect(Object.keys(gita.profileRatingAlgs)).toEqual(['naiveSkill', 'skill']);
  });

  it('adds the best 25 HOT songs and the best 25 others', () => {
    // HOT: 30 songs at 100 → 25 × 100 = 2500. Other: 20 songs marked not HOT at 80 and 10 unmarked at 70
    // → 20 × 80 + 5 × 70 = 1950. Total 4450.
    const scores = [
      ...Array.from({ length: 30 }, (_, i) => pb(i, 100, true)),
      ...Array.from({ length: 20 }, (_, i) => pb(100 + i, 80, false)),
      ...Array.from({ length: 10 }, (_, i) => pb(200 + i, 70)),
    ];
    expect(profile(scores)).toBe(4450);
  });

  it('counts one chart per song: its best', () => {
    // HOT song 1: 150 (its 140 chart does not count); HOT song 2: 120. Other song 3: 90 and 60 → 90.
    // 150 + 120 + 90 = 360
    expect(profile([pb(1, 140, true), pb(1, 150, true), pb(2, 120, true), pb(3, 60, false), pb(3, 90, false)])).toBe(360);
  });

  it('with fewer than 25 on a side, adds what there is; null with no skill at all', () => {
    // 162.35 + 116.17 + 0.01 = 278.53 (27853 hundredths)
    expect(profile([pb(1, 162.35, true), pb(2, 116.17), pb(3, 0.01, false)])).toBe(278.53);
    expect(profile([])).toBeNull();
    expect(profile([rated({ skill: null })])).toBeNull();
  });
});

describe('gitadora colour (derived from naiveSkill)', () => {
  const derived = (v: number | null) => gita.classes.colour.derive!({ naiveSkill: v });
  it.each([
    [0, 'WHITE'],
    [999.99, 'WHITE'],
    [1000, 'ORANGE'],
    [1499.99, 'ORANGE'],
    [1500, 'ORANGE_GRD'],
    [2000, 'YELLOW'],
    [2500, 'YELLOW_GRD'],
    [3000, 'GREEN'],
    [3500, 'GREEN_GRD'],
    [4000, 'BLUE'],
    [4500, 'BLUE_GRD'],
    [5000, 'PURPLE'],
    [5500, 'PURPLE_GRD'],
    [6000, 'RED'],
    [6500, 'RED_GRD'],
    [7000, 'BRONZE'],
    [7500, 'SILVER'],
    [8000, 'GOLD'],
    [8499.99, 'GOLD'],
    [8500, 'RAINBOW'],
  ])('naiveSkill %d is %s', (v, cls) => {
    expect(derived(v)).toBe(cls);
  });

  it('gives no colour without a naiveSkill', () => {
    expect(derived(null)).toBeNull();
  });

  it('has HEAD’s 17 values with hover text', () => {
    expect(gita.classes.colour.values).toHaveLength(17);
    expect(gita.classes.colour.values[2]).toEqual({ id: 'ORANGE_GRD', display: '橙グラ', hoverText: 'Orange Gradient' });
  });
});
