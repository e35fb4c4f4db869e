import { describe, expect, it } from '@jest/globals';
import { eamusementCsv, EAMUSEMENT_CSV_HEADER, jstMinute, versionName } from '../../../src/game-specific/iidx/eamusement-csv.js';
import { aaaExScore, toPlaylistEntries } from '../../../src/game-specific/iidx/playlists.js';
import { JUBILITY_PROFILE, jubilityBreakdown, type JubilityEntry } from '../../../src/game-support/jubeat/ratings.js';
import type { ChartRow, PbReadRow, SongRow } from '../../../src/database/schema.js';

describe('jubilityBreakdown (what profile jubility counts)', () => {
  /** A PB of jubility `value` on song `id`'s chart of this difficulty; `pickUp`: a song of the PICK UP version ('ave'). */
  const pb = (id: number, value: number | null, difficulty = 'EXT', pickUp = false): JubilityEntry & { tag: string } => ({
    tag: `${id}-${difficulty}`,
    calculatedData: { jubility: value },
    chart: { difficulty },
    song: { id, data: { displayVersion: pickUp ? 'ave' : 'festo' } },
  });

  it('keeps the better of a difficulty and its HARD one, and ignores a PB without jubility', () => {
    const { pickUp, other } = jubilityBreakdown([pb(1, 80, 'EXT'), pb(1, 95.5, 'HARD EXT'), pb(1, 60, 'ADV'), pb(2, null), pb(3, 50, 'EXT', true)]);
    expect(other.map((p) => p.tag)).toEqual(['1-HARD EXT', '1-ADV']);
    expect(pickUp.map((p) => p.tag)).toEqual(['3-EXT']);
  });

  it('counts the best 30 on each side, best first, equals in the order given', () => {
    // 35 other songs with jubility 1..35, and 32 PICK UP songs with 100 each.
    const others = Array.from({ length: 35 }, (_, i) => pb(i + 1, i + 1));
    const picks = Array.from({ length: 32 }, (_, i) => pb(100 + i, 100, 'EXT', true));
    const { pickUp, other } = jubilityBreakdown([...others, ...picks]);
    expect(other.map((p) => p.calculatedData.jubility)).toEqual(Array.from({ length: 30 }, (_, i) => 35 - i));
    expect(pickUp.map((p) => p.song.id)).toEqual(Array.from({ length: 30 }, (_, i) => 100 + i));
  });

  it('is what the profile jubility adds up (to the tenth): 30 × 100 + (35 + … + 6) = 3000 + 615', () => {
    const others = Array.from({ length: 35 }, (_, i) => pb(i + 1, i + 1));
    const picks = Array.from({ length: 32 }, (_, i) => pb(100 + i, 100, 'EXT', true));
    const asRated = [...others, ...picks].map((p) => ({ ...p, scoreData: {}, chart: { ...p.chart }, song: { ...p.song } })) as never[];
    expect(JUBILITY_PROFILE.calculate(asRated)).toBe(3615);
  });
});

describe('the e-amusement CSV export', () => {
  it('writes times in Japan time to the minute, and version names from displayVersion', () => {
    expect(jstMinute(Date.UTC(2021, 5, 1, 15, 5, 59))).toBe('2021-06-02 00:05');
    expect(jstMinute(Date.UTC(2023, 11, 31, 14, 59))).toBe('2023-12-31 23:59');
    expect([versionName('27'), versionName('30-omni'), versionName('33'), versionName(null), versionName('inf')]).toEqual([
      'HEROIC VERSE',
      'RESIDENT',
      'Sparkle Shower',
      '1st&substream',
      '1st&substream',
    ]);
  });

  it('has 41 header cells, and one row of 41 cells per song, line breaks in names made spaces', () => {
    expect(EAMUSEMENT_CSV_HEADER.split(',')).toHaveLength(41);
    const song = { id: 1, title: 'Two\nLines', artist: 'A', data: { displayVersion: '20', genre: 'G' } } as unknown as SongRow;
    const chart = { chartID: 'c1', difficulty: 'HYPER', level: '7' } as ChartRow;
    const played = {
      chartID: 'c1',
      timeAchieved: null,
      scoreData: { score: 1000, lamp: 'CLEAR', grade: 'MAX', judgements: { pgreat: 500, great: 0 }, optional: { bp: 3 } },
    } as unknown as PbReadRow;
    const [header, row] = eamusementCsv([{ song, charts: [chart], pbs: [played] }]).split('\n');
    expect(header).toBe(EAMUSEMENT_CSV_HEADER);
    expect(row.split(',')).toHaveLength(41);
    expect(row).toBe(
      'tricoro,Two Lines,G,A,0,0,0,0,0,---,NO PLAY,---,0,0,0,0,---,NO PLAY,---,7,1000,500,0,3,CLEAR,AAA,0,0,0,0,---,NO PLAY,---,0,0,0,0,---,NO PLAY,---,',
    );
  });
});

describe('IIDX playlists', () => {
  it('an AAA is 8/9 of the maximum EX score, rounded up', () => {
    // 1000 notes: 2000 × 8 / 9 = 1777.8 → 1778; 999 notes: 1998 × 8 / 9 = 1776 exactly.
    expect([aaaExScore(1000), aaaExScore(999)]).toEqual([1778, 1776]);
  });

  it('lists charts by their latest in-game id, leaving out 2dxtra charts and charts without an id', () => {
    const chart = (difficulty: string, data: Record<string, unknown>) => ({ difficulty, data }) as unknown as ChartRow;
    expect(
      toPlaylistEntries([
        chart('ANOTHER', { inGameID: [1001, 2001], '2dxtraSet': null }),
        chart('HYPER', { inGameID: 3001, '2dxtraSet': 'All Scratch' }),
        chart('NORMAL', { '2dxtraSet': null }),
        chart('LEGGENDARIA', { inGameID: 4001, dpTier: { value: 12, text: '12', individualDifference: true } }),
      ]),
    ).toEqual([
      { entry_id: 2001, difficulty: 'another' },
      { entry_id: 4001, difficulty: 'leggendaria', bar_style: 'event' },
    ]);
  });
});
