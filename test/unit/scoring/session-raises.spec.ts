import { describe, expect, it } from '@jest/globals';
import { findGpt } from '../../../src/game-support/registry.js';
import { folderRaises } from '../../../src/scoring/sessions/folder-raises.js';
import { sessionScoreInfo } from '../../../src/scoring/sessions/session-score-info.js';

/** sdvx lamps: FAILED 0, CLEAR 1 (its clear lamp), EXCESSIVE CLEAR 2, MAXXIVE CLEAR 3, ULTIMATE CHAIN 4, PUC 5; grades: D 0 … A 3 (its clear grade), A+ 4, AA 5, AA+ 6, AAA 7, AAA+ 8, S 9, PUC 10. */
const sdvx = findGpt('sdvx', 'Single')!;

describe('sessionScoreInfo', () => {
  it('a first play of a chart is new; otherwise each value minus the best before the session', () => {
    const info = sessionScoreInfo(
      ['S1', 'S2'],
      [
        { sessionID: 'S1', scoreID: 'a', chartID: 'c1', score: 9_800_000, percent: 98, lampIndex: 4, gradeIndex: 8 },
        { sessionID: 'S1', scoreID: 'b', chartID: 'c2', score: 9_000_000, percent: 90, lampIndex: 1, gradeIndex: 4 },
        { sessionID: 'S1', scoreID: 'c', chartID: 'c3', score: 8_500_000, percent: 85, lampIndex: 0, gradeIndex: 2 },
      ],
      [
        { sessionID: 'S1', chartID: 'c1', score: 9_600_000, percent: 96, lampIndex: 2, gradeIndex: 6 },
        { sessionID: 'S1', chartID: 'c3', score: 8_800_000, percent: 88, lampIndex: 1, gradeIndex: 3 },
        // another session's best on c2 says nothing about S1
        { sessionID: 'S2', chartID: 'c2', score: 1, percent: 1, lampIndex: 0, gradeIndex: 0 },
      ],
    );
    expect(info.get('S1')).toEqual([
      { scoreID: 'a', isNewScore: false, deltas: { score: 200_000, percent: 2, lamp: 2, grade: 2 } },
      { scoreID: 'b', isNewScore: true },
      { scoreID: 'c', isNewScore: false, deltas: { score: -300_000, percent: -3, lamp: -1, grade: -1 } },
    ]);
    expect(info.get('S2')).toEqual([]);
  });
});

describe('folderRaises', () => {
  const folder = { folderID: 'F', title: 'Level 17+' };
  const raises = (before: { chartID: string; lampIndex: number; gradeIndex: number }[], inSession: [string, number, number][], played: string[]) =>
    folderRaises(sdvx, {
      folders: [folder],
      chartCounts: new Map([['F', 10]]),
      sessionCharts: played.map((chartID) => ({ folderID: 'F', chartID })),
      before: before.map((b) => ({ folderID: 'F', ...b })),
      inSession: new Map(inSession.map(([chartID, lampIndex, gradeIndex]) => [chartID, { lampIndex, gradeIndex }])),
    });

  it('counts each value above the chart’s earlier best (from the clear lamp and grade up), with the count before', () => {
    const found = raises(
      [
        { chartID: 'c1', lampIndex: 2, gradeIndex: 6 },
        { chartID: 'c4', lampIndex: 4, gradeIndex: 8 },
        { chartID: 'c7', lampIndex: 1, gradeIndex: 3 },
      ],
      [
        ['c1', 4, 8],
        ['c6', 1, 4],
        ['c7', 0, 2],
      ],
      ['c1', 'c6', 'c7'],
    );
    const row = (type: string, value: string, previousCount: number, raisedCharts: string[]) => ({
      folder,
      type,
      value,
      previousCount,
      raisedCharts,
      totalCharts: 10,
    });
    expect(found).toEqual([
      // c6 (never played) reaches CLEAR; before: c1, c4 and c7 were CLEAR or better
      row('lamp', 'CLEAR', 3, ['c6']),
      // c1 from EXCESSIVE CLEAR to ULTIMATE CHAIN: MAXXIVE CLEAR and ULTIMATE CHAIN; before: c4 only
      row('lamp', 'MAXXIVE CLEAR', 1, ['c1']),
      row('lamp', 'ULTIMATE CHAIN', 1, ['c1']),
      // c6's A+ counts from the clear grade A; c1 from AA+ to AAA+
      row('grade', 'A', 3, ['c6']),
      row('grade', 'A+', 2, ['c6']),
      row('grade', 'AAA', 1, ['c1']),
      row('grade', 'AAA+', 1, ['c1']),
    ]);
  });

  it('nothing for plays below the earlier best or below the clear lamp and grade', () => {
    expect(
      raises(
        [{ chartID: 'c1', lampIndex: 3, gradeIndex: 7 }],
        [
          ['c1', 2, 6],
          ['c2', 0, 2],
        ],
        ['c1', 'c2'],
      ),
    ).toEqual([]);
  });

  it('one value raised on two charts lists both, in the played order', () => {
    const found = raises(
      [],
      [
        ['a', 1, 3],
        ['b', 1, 3],
      ],
      ['a', 'b'],
    );
    expect(found.map((r) => [r.type, r.value, r.previousCount, r.raisedCharts])).toEqual([
      ['lamp', 'CLEAR', 0, ['a', 'b']],
      ['grade', 'A', 0, ['a', 'b']],
    ]);
  });
});
