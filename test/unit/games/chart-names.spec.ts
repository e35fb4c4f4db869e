import { describe, expect, it } from '@jest/globals';
import { chartNameProblem } from '../../../src/game-support/chart-names.js';
import { findGpt } from '../../../src/game-support/registry.js';

const SDVX = findGpt('sdvx', 'Single')!;
const BMS = findGpt('bms', '7K')!;

describe('chartNameProblem: whether a score can name its chart this way on the GPT (batch-manual and charts/resolve)', () => {
  it('accepts the GPT’s match types with an identifier of the right shape and a known difficulty (none for a hash)', () => {
    expect(chartNameProblem(SDVX, 'sdvxInGameID', '1001', 'MXM')).toBeUndefined();
    expect(chartNameProblem(SDVX, 'songTitle', 'Any title at all', 'EXH')).toBeUndefined();
    // sdvxInGameID's alias for whichever of the fourth difficulties the song has.
    expect(chartNameProblem(SDVX, 'sdvxInGameID', '1001', 'ANY_INF')).toBeUndefined();
    expect(chartNameProblem(BMS, 'bmsChartHash', 'A'.repeat(32), null)).toBeUndefined();
    expect(chartNameProblem(BMS, 'bmsChartHash', 'f'.repeat(64), null)).toBeUndefined();
  });

  it('names what is wrong: an unknown or unsupported match type, a bad identifier, a missing or unknown difficulty', () => {
    expect(chartNameProblem(SDVX, 'nope', '1', 'MXM')).toBe(
      `matchType 'nope' is not supported for sdvx Single. Use one of: ${SDVX.supportedMatchTypes.join(', ')}.`,
    );
    expect(chartNameProblem(SDVX, 'bmsChartHash', 'a'.repeat(32), null)).toMatch(/^matchType 'bmsChartHash' is not supported for sdvx Single\./);
    expect(chartNameProblem(SDVX, 'sdvxInGameID', '12ab', 'MXM')).toMatch(/^identifier '12ab' must be /);
    expect(chartNameProblem(BMS, 'bmsChartHash', 'a'.repeat(33), null)).toMatch(/^identifier 'a{33}' must be an MD5/);
    expect(chartNameProblem(SDVX, 'sdvxInGameID', '1001', null)).toBe('difficulty is required for matchType sdvxInGameID.');
    expect(chartNameProblem(SDVX, 'songTitle', 'x', 'HARD')).toMatch(/^Invalid difficulty 'HARD' for sdvx Single: expected one of NOV, ADV, EXH/);
    // Object.prototype's names are no match types.
    expect(chartNameProblem(SDVX, 'constructor', '1', 'MXM')).toMatch(/^matchType 'constructor' is not supported/);
  });
});
