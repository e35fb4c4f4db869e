import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import type { ImportDocument } from '../../src/presenters/import.presenter.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { batchManual, errorsByIndex, fixtureChart, imported, loadFixtureCatalog, player, T0, type Player, type ScoreElement } from '../support/imports.js';
import { storedOrphans, storedScoresOfImport } from '../support/stored.js';

const hash = (alg: string, s: string) => createHash(alg).update(s).digest('hex');
const NOT_FOUND = 'SongOrChartNotFound';
const INVALID = 'InvalidDatapoint';

/**
 * Each case is one score element; its expected outcome is a chart (by fixture tag) or an error
 * type. Every case carries its own comment so the stored score can be traced back to it.
 */
type Case = [name: string, element: ScoreElement, expected: { chart: string } | { error: string; message?: RegExp }];

/**
 * Imports the cases as one batch and checks each: a hit lands on exactly the expected chart, a
 * miss is an error naming its index (and an orphan when the chart is unknown).
 */
async function expectCases(t: TestApp, p: Player, game: string, playtype: string, cases: Case[], extra: Record<string, unknown> = {}) {
  const elements = cases.map(([name, element], i) => ({ timeAchieved: T0 + i * 1000, comment: name, ...element }));
  const doc: ImportDocument = await imported(t, p.token, batchManual(game, playtype, elements, extra));
  const errors = errorsByIndex(doc);
  const stored = new Map((await storedScoresOfImport(t, doc.importID)).map((s) => [s.comment, s]));
  cases.forEach(([name, , expected], i) => {
    if ('chart' in expected) {
      expect([name, errors.get(i)]).toEqual([name, undefined]);
      expect([name, stored.get(name)?.chartID]).toEqual([name, fixtureChart(expected.chart)]);
    } else {
      expect([name, stored.has(name)]).toEqual([name, false]);
      expect([name, errors.get(i)?.type]).toEqual([name, expected.error]);
      if (expected.message) expect(errors.get(i)?.message).toMatch(expected.message);
    }
  });
  expect(doc.scoreIDs).toHaveLength(cases.filter(([, , e]) => 'chart' in e).length);
  return doc;
}

describe('batch-manual match types, hit and miss', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
    await loadFixtureCatalog(t.database);
  });
  afterAll(async () => {
    await t.close();
  });

  it('songTitle: exact, case-insensitive, on the title or an alternate title; never a substring or a near miss', async () => {
    const p = await player(t);
    const el = (identifier: string, score: number, difficulty = 'EXH') => ({ matchType: 'songTitle', identifier, difficulty, score, lamp: 'CLEAR' });
    await expectCases(t, p, 'sdvx', 'Single', [
      ['exact title', el('Pipeline Anthem', 9_000_001), { chart: 'sdvx-1-EXH' }],
      ['title in another case', el('pIPELINE anthem', 9_000_002), { chart: 'sdvx-1-EXH' }],
      ['alternate title', el('paipurain ansemu', 9_000_003, 'MXM'), { chart: 'sdvx-1-MXM' }],
      ['substring of a title', el('Pipeline Anth', 9_000_004), { error: NOT_FOUND, message: /No sdvx song is titled 'Pipeline Anth'/ }],
      ['title with extra text', el('Pipeline Anthem (Extended)', 9_000_005), { error: NOT_FOUND }],
      ['title with surrounding spaces', el(' Pipeline Anthem', 9_000_006), { error: NOT_FOUND }],
      ['known song, no chart of that difficulty', el('Pipeline Anthem', 9_000_007, 'GRV'), { error: NOT_FOUND, message: /has no Single GRV chart/ }],
      ['title shared by two songs', el('Twin Title', 9_000_008), { error: INVALID, message: /matches 2 sdvx songs/ }],
      ['shared title told apart by artist', { ...el('Twin Title', 9_000_009), artist: 'twin b' }, { chart: 'sdvx-16-EXH' }],
      [
        'missing difficulty',
        { matchType: 'songTitle', identifier: 'Pipeline Anthem', score: 9_000_010, lamp: 'CLEAR' },
        { error: INVALID, message: /difficulty is required for matchType songTitle/ },
      ],
    ]);
    // Only the unknown titles and charts wait as orphans; the invalid ones are dropped.
    expect(await storedOrphans(t, p.user.id)).toHaveLength(4);
  });

  it('serviceSongID: the song id as a string, then the difficulty', async () => {
    const p = await player(t);
    const el = (identifier: string, score: number, difficulty = 'EXH') => ({ matchType: 'serviceSongID', identifier, difficulty, score, lamp: 'CLEAR' });
    await expectCases(t, p, 'sdvx', 'Single', [
      ['song 2 EXH', el('2', 9_100_001), { chart: 'sdvx-2-EXH' }],
      ['song 1 MXM', el('1', 9_100_002, 'MXM'), { chart: 'sdvx-1-MXM' }],
      ['unknown song id', el('999', 9_100_003), { error: NOT_FOUND, message: /No sdvx song has id 999/ }],
      ['not an integer', el('two', 9_100_004), { error: INVALID, message: /must be a song id/ }],
      ['invalid difficulty', el('2', 9_100_005, 'EXTREME'), { error: INVALID, message: /Invalid difficulty 'EXTREME'/ }],
    ]);
  });

  it('sdvxInGameID: the in-game id and a difficulty, where ANY_INF stands for INF, GRV, HVN, VVD or XCD', async () => {
    const p = await player(t);
    const el = (identifier: string, difficulty: string, score: number) => ({ matchType: 'sdvxInGameID', identifier, difficulty, score, lamp: 'CLEAR' });
    await expectCases(t, p, 'sdvx', 'Single', [
      ['MXM by in-game id', el('1001', 'MXM', 9_200_001), { chart: 'sdvx-1-MXM' }],
      ['ANY_INF finds the GRV chart', el('1002', 'ANY_INF', 9_200_002), { chart: 'sdvx-2-GRV' }],
      ['ANY_INF on a song without a fourth chart', el('1001', 'ANY_INF', 9_200_003), { error: NOT_FOUND }],
      ['unknown in-game id', el('4242', 'EXH', 9_200_004), { error: NOT_FOUND, message: /in-game id 4242/ }],
      [
        'ANY_INF is not a plain difficulty',
        { matchType: 'songTitle', identifier: 'Gravity Test', difficulty: 'ANY_INF', score: 9_200_005, lamp: 'CLEAR' },
        { error: INVALID, message: /Invalid difficulty 'ANY_INF'/ },
      ],
    ]);
  });

  it('meta.version picks the chart of that version, also a non-primary one; without a version only primary charts match', async () => {
    const p = await player(t);
    const el = (matchType: string, identifier: string, difficulty: string, score: number) => ({ matchType, identifier, difficulty, score, lamp: 'CLEAR' });
    const booth = { meta: { game: 'sdvx', playtype: 'Single', service: 'pipeline-test', version: 'booth' } };
    await expectCases(
      t,
      p,
      'sdvx',
      'Single',
      [
        ['booth EXH by in-game id', el('sdvxInGameID', '1001', 'EXH', 9_300_001), { chart: 'sdvx-1-EXH-booth' }],
        ['booth EXH by title', el('songTitle', 'Pipeline Anthem', 'EXH', 9_300_002), { chart: 'sdvx-1-EXH-booth' }],
        ['booth EXH by song id', el('serviceSongID', '1', 'EXH', 9_300_003), { chart: 'sdvx-1-EXH-booth' }],
        ['MXM did not exist in booth', el('sdvxInGameID', '1001', 'MXM', 9_300_004), { error: NOT_FOUND, message: /in version booth/ }],
      ],
      booth,
    );
    // Without the version the same EXH request lands on the primary chart.
    await expectCases(t, p, 'sdvx', 'Single', [['primary EXH', el('sdvxInGameID', '1001', 'EXH', 9_300_005), { chart: 'sdvx-1-EXH' }]]);
  });

  it('inGameID on a game that carries one (jubeat, iidx); refused on sdvx, which has its own', async () => {
    const p = await player(t);
    await expectCases(t, p, 'jubeat', 'Single', [
      [
        'jubeat EXT',
        { matchType: 'inGameID', identifier: '70000001', difficulty: 'EXT', score: 950_000, percent: 90, lamp: 'CLEAR' },
        { chart: 'jubeat-1-EXT' },
      ],
      [
        'jubeat HARD EXT',
        { matchType: 'inGameID', identifier: '70000001', difficulty: 'HARD EXT', score: 960_000, percent: 110, lamp: 'CLEAR' },
        { chart: 'jubeat-1-HARD-EXT' },
      ],
      ['unknown jubeat id', { matchType: 'inGameID', identifier: '123', difficulty: 'EXT', score: 950_000, percent: 90, lamp: 'CLEAR' }, { error: NOT_FOUND }],
    ]);
    await expectCases(t, p, 'iidx', 'SP', [
      ['iidx SP ANOTHER', { matchType: 'inGameID', identifier: '30001', difficulty: 'ANOTHER', score: 1500, lamp: 'CLEAR' }, { chart: 'iidx-1-SP-ANOTHER' }],
      ['iidx SP HYPER not charted', { matchType: 'inGameID', identifier: '30001', difficulty: 'HYPER', score: 1500, lamp: 'CLEAR' }, { error: NOT_FOUND }],
    ]);
    await expectCases(t, p, 'sdvx', 'Single', [
      [
        'inGameID on sdvx',
        { matchType: 'inGameID', identifier: '1001', difficulty: 'EXH', score: 9_000_000, lamp: 'CLEAR' },
        { error: INVALID, message: /matchType 'inGameID' is not supported for sdvx Single\. Use one of: sdvxInGameID, songTitle, serviceSongID/ },
      ],
      [
        'bmsChartHash on sdvx',
        { matchType: 'bmsChartHash', identifier: hash('md5', 'bms-alpha-7k'), score: 9_000_000, lamp: 'CLEAR' },
        { error: INVALID, message: /not supported for sdvx/ },
      ],
      [
        'ddrSongHash on sdvx',
        { matchType: 'ddrSongHash', identifier: 'x', difficulty: 'EXH', score: 9_000_000, lamp: 'CLEAR' },
        { error: INVALID, message: /not supported for sdvx/ },
      ],
    ]);
  });

  it('bmsChartHash: MD5 or SHA256, either case; a 14K chart sent as 7K is an error', async () => {
    const p = await player(t);
    const el = (identifier: string, score: number) => ({ matchType: 'bmsChartHash', identifier, score, lamp: 'CLEAR' });
    await expectCases(t, p, 'bms', '7K', [
      ['MD5', el(hash('md5', 'bms-alpha-7k'), 1500), { chart: 'bms-1-7K' }],
      ['SHA256', el(hash('sha256', 'bms-alpha-7k'), 1501), { chart: 'bms-1-7K' }],
      ['upper-case MD5', el(hash('md5', 'bms-alpha-7k').toUpperCase(), 1502), { chart: 'bms-1-7K' }],
      ['14K chart as 7K', el(hash('md5', 'bms-double-14k'), 1503), { error: INVALID, message: /is a 14K chart, not 7K/ }],
      ['unknown hash', el(hash('md5', 'not-a-chart'), 1504), { error: NOT_FOUND }],
      ['not a hash', el('abc', 1505), { error: INVALID, message: /MD5 \(32 hex characters\) or SHA256/ }],
    ]);
    await expectCases(t, p, 'bms', '14K', [['14K chart as 14K', el(hash('sha256', 'bms-double-14k'), 3000), { chart: 'bms-2-14K' }]]);
  });

  it('uscChartHash: SHA1, resolved within the playtype (USC stores one chart file per playtype)', async () => {
    const p = await player(t);
    const el = (identifier: string, score: number) => ({ matchType: 'uscChartHash', identifier, score, lamp: 'CLEAR' });
    await expectCases(t, p, 'usc', 'Controller', [
      ['SHA1 on Controller', el(hash('sha1', 'usc-song-exh'), 9_500_000), { chart: 'usc-1-Controller-EXH' }],
      ['unknown SHA1', el(hash('sha1', 'nope'), 9_500_001), { error: NOT_FOUND }],
      ['an MD5 is not a SHA1', el(hash('md5', 'usc-song-exh'), 9_500_002), { error: INVALID, message: /SHA1 chart hash/ }],
    ]);
    await expectCases(t, p, 'usc', 'Keyboard', [['SHA1 on Keyboard', el(hash('sha1', 'usc-song-exh'), 9_500_003), { chart: 'usc-1-Keyboard-EXH' }]]);
  });

  it('ddrSongHash: the song hash plus a difficulty, within the playtype', async () => {
    const p = await player(t);
    const songHash = '6bid6d9qPQ80DOqiidQQ891o6Od8801l';
    const el = (identifier: string, score: number, difficulty?: string) => ({
      matchType: 'ddrSongHash',
      identifier,
      score,
      lamp: 'CLEAR',
      ...(difficulty ? { difficulty } : {}),
    });
    await expectCases(t, p, 'ddr', 'SP', [
      ['SP EXPERT', el(songHash, 900_010, 'EXPERT'), { chart: 'ddr-1-SP-EXPERT' }],
      ['SP CHALLENGE', el(songHash, 900_020, 'CHALLENGE'), { chart: 'ddr-1-SP-CHALLENGE' }],
      ['no SP BASIC chart', el(songHash, 900_030, 'BASIC'), { error: NOT_FOUND }],
      ['unknown song hash', el('00000000000000000000000000000000', 900_040, 'EXPERT'), { error: NOT_FOUND, message: /song hash/ }],
      ['missing difficulty', el(songHash, 900_050), { error: INVALID, message: /difficulty is required for matchType ddrSongHash/ }],
    ]);
    await expectCases(t, p, 'ddr', 'DP', [['DP EXPERT', el(songHash, 900_060, 'EXPERT'), { chart: 'ddr-1-DP-EXPERT' }]]);
  });
});
