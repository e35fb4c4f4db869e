import { describe, expect, it } from '@jest/globals';
import { MUSECA } from '../../../src/game-support/museca/index.js';
import { chart, derive, deriveError, input, rated, song } from './fixtures.js';

const gpt = MUSECA.gpts.Single;
const lampFor = (score: number) => (score === 1_000_000 ? 'PERFECT CONNECT ALL' : score < 800_000 ? 'FAILED' : 'CLEAR');
const curatorSkill = (score: number, levelNum: number) =>
  gpt.scoreRatingAlgs.curatorSkill.calculate(derive(gpt, input(score, lampFor(score))), chart({ difficulty: 'Red', levelNum }), song());

describe('museca grades (HEAD boundaries, by score)', () => {
  it.each([
    [0, '没'],
    [599_999, '没'],
    [600_000, '拙'],
    [699_999, '拙'],
    [700_000, '凡'],
    [799_999, '凡'],
    [800_000, '佳'],
    [849_999, '佳'],
    [850_000, '良'],
    [899_999, '良'],
    [900_000, '優'],
    [949_999, '優'],
    [950_000, '秀'],
    [974_999, '秀'],
    [975_000, '傑'],
    [999_999, '傑'],
    [1_000_000, '傑G'],
  ])('score %d is %s', (score, grade) => {
    const data = derive(gpt, input(score, lampFor(score)));
    expect(data.grade).toBe(grade);
    expect(data.gradeIndex).toBe(gpt.grades.indexOf(grade));
  });
});

describe('museca derivation', () => {
  it('derives percent as score / 10,000', () => {
    const data = derive(gpt, input(876_543, 'CONNECT ALL'));
    expect(data.percent).toBeCloseTo(87.6543, 10);
    expect(data.lampIndex).toBe(2);
  });

  it.each([
    [1_000_001, 'PERFECT CONNECT ALL', {}, /out of range/],
    [-1, 'FAILED', {}, /out of range/],
    [900_000.5, 'CLEAR', {}, /integer/],
    [900_000, 'HARD CLEAR', {}, /Invalid lamp/],
    [999_999, 'PERFECT CONNECT ALL', {}, /1,000,000/],
    [1_000_000, 'CONNECT ALL', {}, /PERFECT CONNECT ALL/],
    [1_000_000, 'PERFECT CONNECT ALL', { near: 1 }, /near/],
    [990_000, 'CONNECT ALL', { miss: 1 }, /miss/],
    [800_000, 'FAILED', {}, /cannot be FAILED/],
    [799_999, 'CLEAR', {}, /must be FAILED/],
    [799_999, 'CONNECT ALL', {}, /must be FAILED/],
  ])('refuses %d %s with %j', (score, lamp, judgements, message) => {
    expect(deriveError(gpt, input(score, lamp, { judgements }))).toMatch(message);
  });

  it('accepts a CLEAR at exactly 800,000 and a CONNECT ALL with nears', () => {
    expect(derive(gpt, input(800_000, 'CLEAR')).lamp).toBe('CLEAR');
    expect(derive(gpt, input(990_000, 'CONNECT ALL', { judgements: { near: 10, miss: 0 } })).lamp).toBe('CONNECT ALL');
  });
});

describe('museca curatorSkill = floor(level × score / 10,000)', () => {
  it('1,000,000 on a 15: 15 × 100 = 1500', () => {
    expect(curatorSkill(1_000_000, 15)).toBe(1500);
  });
  it('987,654 on a 14: 14 × 98.7654 = 1382.7156 → 1382', () => {
    expect(curatorSkill(987_654, 14)).toBe(1382);
  });
  it('850,000 on a 16: 16 × 85 = 1360', () => {
    expect(curatorSkill(850_000, 16)).toBe(1360);
  });
  it('0 points is worth 0; a negative level gives null', () => {
    expect(curatorSkill(0, 10)).toBe(0);
    expect(curatorSkill(900_000, -1)).toBeNull();
  });
});

describe('museca session and profile ratings', () => {
  it('session curatorSkill: mean of the best 10, null with fewer than 10', () => {
    // 1500, 1490, ..., 1390 plus a null: best ten 1500..1410 average 1455
    const scores = [...Array.from({ length: 12 }, (_, i) => rated({ curatorSkill: 1500 - i * 10 })), rated({ curatorSkill: null })];
    expect(gpt.sessionRatingAlgs.curatorSkill.calculate(scores)).toBe(1455);
    expect(gpt.sessionRatingAlgs.curatorSkill.calculate(scores.slice(0, 9))).toBeNull();
  });

  it('profile curatorSkill: sum of the best 20', () => {
    expect(gpt.profileRatingAlgs.curatorSkill.calculate(Array.from({ length: 25 }, () => rated({ curatorSkill: 1000 })))).toBe(20_000);
    // 1500 + 1382 = 2882
    expect(gpt.profileRatingAlgs.curatorSkill.calculate([rated({ curatorSkill: 1500 }), rated({ curatorSkill: 1382 })])).toBe(2882);
    expect(gpt.profileRatingAlgs.curatorSkill.calculate([])).toBeNull();
  });
});
