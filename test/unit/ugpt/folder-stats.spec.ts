import { describe, expect, it } from '@jest/globals';
import { findGpt } from '../../../src/game-support/registry.js';
import { enumIndex, folderStats } from '../../../src/ugpt/folder-stats.js';

const sdvx = findGpt('sdvx', 'Single')!;

describe('folderStats', () => {
  it("names the counts by the GPT's lamps and grades, every value in order (0 when none), and keeps only this folder's", () => {
    const stats = folderStats(sdvx, 'F1', 10, [
      { folderID: 'F1', metric: 'lamp', index: 1, count: 3 },
      { folderID: 'F1', metric: 'lamp', index: 5, count: 1 },
      { folderID: 'F1', metric: 'grade', index: 3, count: 2 },
      { folderID: 'F1', metric: 'grade', index: 10, count: 2 },
      { folderID: 'F2', metric: 'lamp', index: 1, count: 7 },
    ]);
    expect(stats).toEqual({
      folderID: 'F1',
      chartCount: 10,
      lamps: { FAILED: 0, CLEAR: 3, 'EXCESSIVE CLEAR': 0, 'MAXXIVE CLEAR': 0, 'ULTIMATE CHAIN': 0, 'PERFECT ULTIMATE CHAIN': 1 },
      grades: { D: 0, C: 0, B: 0, A: 2, 'A+': 0, AA: 0, 'AA+': 0, AAA: 0, 'AAA+': 0, S: 0, PUC: 2 },
    });
    expect(Object.keys(stats.lamps)).toEqual([...sdvx.lamps]);
    expect(Object.keys(stats.grades)).toEqual([...sdvx.grades]);
  });

  it('drops an index the GPT does not have', () => {
    const stats = folderStats(sdvx, 'F1', 1, [{ folderID: 'F1', metric: 'lamp', index: 6, count: 1 }]);
    expect(Object.values(stats.lamps).reduce((a, b) => a + b, 0)).toBe(0);
  });
});

describe('enumIndex', () => {
  const lamps = ['FAILED', 'CLEAR', 'HARD CLEAR'];

  it('takes a name or an index within the list', () => {
    expect(enumIndex(lamps, 'HARD CLEAR')).toBe(2);
    expect(enumIndex(lamps, 'FAILED')).toBe(0);
    expect(enumIndex(lamps, '1')).toBe(1);
  });

  it('is undefined for anything else', () => {
    for (const value of ['3', '-1', '1.5', 'hard clear', '', ' 1']) expect([value, enumIndex(lamps, value)]).toEqual([value, undefined]);
  });
});
