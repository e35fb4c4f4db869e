import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { HttpStatus } from '@nestjs/common';
import { IIDX } from '../../../src/game-support/iidx/index.js';
import { ImportRejectedError } from '../../../src/imports/import-errors.js';
import { convertIidxCsvItem, jstTime } from '../../../src/imports/import-types/eamusement-iidx-csv/convert.js';
import { eamusementIidxCsv } from '../../../src/imports/import-types/eamusement-iidx-csv/index.js';
import { parseIidxCsv, type ChartItem, type IidxCsvItem } from '../../../src/imports/import-types/eamusement-iidx-csv/parse.js';
import { readIidxCsv, type IidxCsvInput } from '../../../src/imports/import-types/eamusement-iidx-csv/read.js';
import { findImportType } from '../../../src/imports/import-types/registry.js';
import { validateScoreElement } from '../../../src/imports/score-element.js';

const FIXTURES = path.resolve('test/fixtures/imports/eamusement-iidx-csv');
const HEADER_27 = Array.from({ length: 27 }, (_, i) => `h${i}`).join(',');
const HEADER_41 = Array.from({ length: 41 }, (_, i) => `h${i}`).join(',');

type Block = [level: string, ex: string, pgreat: string, great: string, miss: string, clearType: string, djLevel?: string];
const NO_CHART: Block = ['0', '0', '0', '0', '---', 'NO PLAY', '---'];
const UNPLAYED: Block = ['5', '0', '0', '0', '---', 'NO PLAY', '---'];

/** A data row: version, title, genre, artist, play count, the blocks, last played. */
function row(version: string, title: string, blocks: Block[], lastPlayed = '2021-06-01 21:30', genre = 'GENRE', artist = 'ARTIST') {
  return [version, title, genre, artist, '1', ...blocks.map((b) => [...b.slice(0, 6), b[6] ?? 'A']).flat(), lastPlayed].join(',');
}
const csv = (header: string, ...rows: string[]) => Buffer.from([header, ...rows].join('\n'), 'utf8');

function read(file: Buffer, fields: Record<string, string> = { playtype: 'SP' }, filename = 'scores.csv') {
  return readIidxCsv({ file, filename, fields });
}
function parse(file: Buffer, { playtype = 'SP', maxScores = 100_000, service = 'e-amusement' } = {}) {
  return parseIidxCsv(read(file, { playtype }), service, maxScores);
}
function rejection(fn: () => unknown): ImportRejectedError {
  try {
    fn();
  } catch (err) {
    if (err instanceof ImportRejectedError) return err;
    throw err;
  }
  throw new Error('expected a rejection');
}
const charts = (items: IidxCsvItem[]) => items.filter((i): i is ChartItem => i.kind === 'chart');

describe('registry', () => {
  it('registers both types on one parser, told apart by the service', () => {
    const [eam, pli] = eamusementIidxCsv.types;
    expect(findImportType('file/eamusement-iidx-csv')).toBe(eam);
    expect(findImportType('file/pli-iidx-csv')).toBe(pli);
    const input = eam.read({ file: csv(HEADER_27, row('RESIDENT', 'Song', [UNPLAYED, UNPLAYED, UNPLAYED])), fields: { playtype: 'SP' } });
    expect(eam.parse(input, { maxScores: 10 }).context).toEqual({ service: 'e-amusement', version: '30' });
    expect(pli.parse(input, { maxScores: 10 }).context).toEqual({ service: 'PLI', version: '30' });
  });
});

describe('reading the upload', () => {
  const ok = csv(HEADER_27, row('RESIDENT', 'Song', [UNPLAYED, UNPLAYED, UNPLAYED]));

  it('needs a file', () => {
    expect(rejection(() => readIidxCsv({ fields: { playtype: 'SP' } })).message).toMatch(/multipart field 'scoreData'/);
  });

  it.each([
    [{}, /playtype is required: SP or DP/],
    [{ playtype: 'sp' }, /Invalid playtype of 'sp' given: expected SP or DP/],
    [{ playtype: 'Single' }, /Invalid playtype of 'Single' given/],
    [{ playtype: '' }, /Invalid playtype of '' given/],
  ])('refuses the playtype field %j', (fields, message) => {
    expect(rejection(() => read(ok, fields)).message).toMatch(message);
  });

  it('takes SP and DP, and the GPT follows', () => {
    expect(read(ok, { playtype: 'SP' }).playtype).toBe('SP');
    expect(parse(ok, { playtype: 'DP' }).gpt).toBe(IIDX.gpts.DP);
    expect(parse(ok, { playtype: 'SP' }).gpt).toBe(IIDX.gpts.SP);
  });

  describe('file name safety check', () => {
    it.each([
      ['SP', '12345678_dp_score.csv'],
      ['SP', 'DP.csv'],
      ['SP', 'my-dp-scores.csv'],
      ['DP', '12345678_sp_score.csv'],
      ['DP', 'SP_2024.csv'],
    ])('refuses %s with the file name %s', (playtype, filename) => {
      const err = rejection(() => read(ok, { playtype }, filename));
      expect(err.getStatus()).toBe(400);
      expect(err.message).toMatch(new RegExp(`^Safety Triggered: .* but playtype is ${playtype}\\. .*assertPlaytypeCorrect=true`));
    });

    it.each([
      ['SP', '12345678_sp_score.csv'],
      ['DP', '12345678_dp_score.csv'],
      ['SP', 'display.csv'],
      ['DP', 'spdp_scores.csv'],
      ['SP', 'scores.csv'],
    ])('lets %s through with the file name %s', (playtype, filename) => {
      expect(read(ok, { playtype }, filename).playtype).toBe(playtype);
    });

    it('is turned off by any non-empty assertPlaytypeCorrect, and skipped without a file name', () => {
      expect(read(ok, { playtype: 'SP', assertPlaytypeCorrect: 'true' }, 'x_dp_score.csv').playtype).toBe('SP');
      expect(read(ok, { playtype: 'DP', assertPlaytypeCorrect: '1' }, 'x_sp_score.csv').playtype).toBe('DP');
      expect(rejection(() => read(ok, { playtype: 'SP', assertPlaytypeCorrect: '' }, 'x_dp_score.csv')).message).toMatch(/Safety Triggered/);
      expect(readIidxCsv({ file: ok, fields: { playtype: 'SP' } }).playtype).toBe('SP');
    });
  });

  it('reads lines: LF or CRLF, a byte order mark, blank and one-cell lines skipped, line numbers kept', () => {
    const text = `\uFEFF${HEADER_27}\r\n\r\nA,b,c\r\nnot a row\r\n\r\nx,y\r\n`;
    const input = read(Buffer.from(text, 'utf8'));
    expect(input.headerCells).toBe(27);
    expect(input.rows).toEqual([
      { line: 3, cells: ['A', 'b', 'c'] },
      { line: 6, cells: ['x', 'y'] },
    ]);
  });

  it('decodes UTF-8 titles split anywhere across lines', () => {
    const title = 'ピアノ協奏曲第１番”蠍火”';
    const input = read(csv(HEADER_27, row('RESIDENT', title, [UNPLAYED, UNPLAYED, UNPLAYED])));
    expect(input.rows[0].cells[1]).toBe(title);
  });

  it.each([
    ['an empty file', Buffer.alloc(0), /the file is empty, or its first line \(the header\) is/],
    ['an empty header line', Buffer.from('\nRESIDENT,x\n'), /the file is empty, or its first line/],
    ['a header over 1000 characters', Buffer.from(`${'x'.repeat(1001)}\nrow`), /header line is longer than 1000 characters/],
    ['a huge first line', Buffer.alloc(100_000, 0x41), /header line is longer than 1000 characters/],
    ['a header of 51 cells', Buffer.from(`${Array(51).fill('h').join(',')}\n`), /header has more than 50 cells/],
  ])('refuses %s', (_name, file, message) => {
    const err = rejection(() => read(file));
    expect(err.getStatus()).toBe(400);
    expect(err.message).toMatch(message);
  });

  it('keeps no more than twice the header cells (plus one) of a line of commas', () => {
    const input = read(Buffer.from(`${HEADER_27}\n${','.repeat(100_000)}`));
    expect(input.rows[0].cells).toHaveLength(55);
  });
});

describe('parsing the CSV', () => {
  it.each([26, 28, 40, 42, 1 + 1])('refuses a header of %i cells', (n) => {
    const header = Array(n).fill('h').join(',');
    const err = rejection(() => parse(csv(header, Array(n).fill('RESIDENT').join(','))));
    expect(err.message).toMatch(new RegExp(`header has ${n} cells, but an e-amusement IIDX CSV has 27 \\(before HEROIC VERSE\\) or 41`));
  });

  it('27 cells: NORMAL, HYPER, ANOTHER, each block into its fields', () => {
    const blocks: Block[] = [
      ['1', '2', '3', '4', '5', '6'],
      ['11', '12', '13', '14', '15', '16'],
      ['21', '22', '23', '24', '25', '26'],
    ];
    const items = parse(csv(HEADER_27, row('RESIDENT', ' Song ', blocks, 'when', 'G', ' Art '))).items;
    expect(items).toEqual(
      ['NORMAL', 'HYPER', 'ANOTHER'].map((difficulty, k) => ({
        kind: 'chart',
        line: 2,
        title: 'Song',
        artist: 'Art',
        difficulty,
        level: `${k * 10 + 1}`,
        exScore: `${k * 10 + 2}`,
        pgreat: `${k * 10 + 3}`,
        great: `${k * 10 + 4}`,
        missCount: `${k * 10 + 5}`,
        clearType: `${k * 10 + 6}`,
        lastPlayed: 'when',
      })),
    );
  });

  it('41 cells: BEGINNER, NORMAL, HYPER, ANOTHER, LEGGENDARIA', () => {
    const blocks = [1, 2, 3, 4, 5].map((k): Block => [`${k}`, `${k}0`, '0', '0', '0', 'CLEAR']);
    const items = charts(parse(csv(HEADER_41, row('RESIDENT', 'Song', blocks))).items);
    expect(items.map((i) => [i.difficulty, i.level, i.exScore])).toEqual([
      ['BEGINNER', '1', '10'],
      ['NORMAL', '2', '20'],
      ['HYPER', '3', '30'],
      ['ANOTHER', '4', '40'],
      ['LEGGENDARIA', '5', '50'],
    ]);
  });

  describe('version inference', () => {
    const NAMES: [string, number][] = [
      ['1st&substream', 1],
      ['2nd style', 2],
      ['3rd style', 3],
      ['4th style', 4],
      ['5th style', 5],
      ['6th style', 6],
      ['7th style', 7],
      ['8th style', 8],
      ['9th style', 9],
      ['10th style', 10],
      ['IIDX RED', 11],
      ['HAPPY SKY', 12],
      ['DistorteD', 13],
      ['GOLD', 14],
      ['DJ TROOPERS', 15],
      ['EMPRESS', 16],
      ['SIRIUS', 17],
      ['Resort Anthem', 18],
      ['Lincle', 19],
      ['tricoro', 20],
      ['SPADA', 21],
      ['PENDUAL', 22],
      ['copula', 23],
      ['SINOBUZ', 24],
      ['CANNON BALLERS', 25],
      ['Rootage', 26],
      ['HEROIC VERSE', 27],
      ['BISTROVER', 28],
      ['CastHour', 29],
      ['RESIDENT', 30],
      ['EPOLIS', 31],
      ['Pinky Crush', 32],
      ['Sparkle Shower', 33],
    ];
    const file = (...versions: string[]) => csv(HEADER_27, ...versions.map((v, i) => row(v, `Song ${i}`, [UNPLAYED, UNPLAYED, UNPLAYED])));

    it.each(NAMES.filter(([, n]) => n >= 20))('%s is version %i', (name, n) => {
      expect(parse(file(name)).context.version).toBe(String(n));
      // Any older song beside it leaves the version alone.
      expect(parse(file('1st&substream', name, 'tricoro')).context.version).toBe(String(n));
    });

    it.each(NAMES.filter(([, n]) => n < 20))('%s (version %i) alone is an unsupported version', (name, n) => {
      const err = rejection(() => parse(file(name, '1st&substream')));
      expect(err.message).toBe(`Unsupported version '${n}'. Is your CSV properly filled out? Its newest song must be from tricoro (20) or a later version.`);
    });

    it('is the newest debut version in the file, whatever the row order', () => {
      expect(parse(file('tricoro', 'CastHour', 'HEROIC VERSE', '2nd style')).context.version).toBe('29');
    });

    it('reads the version name without surrounding spaces', () => {
      expect(parse(file('tricoro', ' RESIDENT ')).context.version).toBe('30');
    });

    it.each(['resident', 'Resident', 'INFINITAS', ''])('refuses the version name %j (exact, case-sensitive)', (name) => {
      const err = rejection(() => parse(file('tricoro', name)));
      expect(err.message).toBe(`Invalid/Unsupported Eamusement Version Name '${name}' (row 3).`);
    });

    it('refuses a file without a row of the header cell count', () => {
      expect(rejection(() => parse(csv(HEADER_27))).message).toMatch(/no row has the header's 27 cells/);
      expect(rejection(() => parse(csv(HEADER_27, 'RESIDENT,a,b'))).message).toMatch(/no row has the header's 27 cells/);
    });
  });

  it('gives a row of too few or far too many cells one error of its own', () => {
    const good = row('RESIDENT', 'Song', [UNPLAYED, UNPLAYED, UNPLAYED]);
    const parsed = parse(csv(HEADER_27, 'RESIDENT,Song,G,A,1,5', good, `RESIDENT,${','.repeat(60)}`));
    expect(parsed.items.filter((i) => i.kind === 'badRow')).toEqual([
      { kind: 'badRow', line: 2, message: 'Row 2 has 6 cells, but the header has 27.' },
      { kind: 'badRow', line: 4, message: 'Row 4 has more than 54 cells, but the header has 27.' },
    ]);
    expect(charts(parsed.items)).toHaveLength(3);
  });

  it('refuses more charts than maxScores with 413', () => {
    const file = csv(HEADER_27, row('RESIDENT', 'A', [UNPLAYED, UNPLAYED, UNPLAYED]), row('RESIDENT', 'B', [UNPLAYED, UNPLAYED, UNPLAYED]));
    expect(parse(file, { maxScores: 6 }).items).toHaveLength(6);
    const err = rejection(() => parse(file, { maxScores: 5 }));
    expect(err.getStatus()).toBe(HttpStatus.PAYLOAD_TOO_LARGE);
    expect(err.message).toMatch(/This CSV has 6 charts; the limit is 5 per import/);
  });

  it('refuses a stored input of another shape', () => {
    expect(rejection(() => parseIidxCsv({ playtype: 'SP', headerCells: 27 }, 'x', 10)).message).toMatch(/not a read e-amusement IIDX CSV/);
  });

  describe('leggendaria titles of the 27-cell layout', () => {
    it.each([
      ['Delta†', 'Delta'],
      ['Delta †', 'Delta'],
      ['Delta†LEGGENDARIA', 'Delta'],
      ['Delta  †LEGGENDARIA', 'Delta'],
    ])('%s is %s, every block LEGGENDARIA', (title, stripped) => {
      const items = charts(parse(csv(HEADER_27, row('RESIDENT', title, [UNPLAYED, UNPLAYED, UNPLAYED]))).items);
      expect(items.map((i) => [i.title, i.difficulty])).toEqual(Array(3).fill([stripped, 'LEGGENDARIA']));
    });

    it('keeps daggers elsewhere, and in the 41-cell layout', () => {
      const a = charts(parse(csv(HEADER_27, row('RESIDENT', '†Delta', [UNPLAYED, UNPLAYED, UNPLAYED]))).items);
      expect(a.map((i) => [i.title, i.difficulty])[2]).toEqual(['†Delta', 'ANOTHER']);
      const b = charts(parse(csv(HEADER_41, row('RESIDENT', 'Delta†', Array(5).fill(UNPLAYED)))).items);
      expect(b.map((i) => [i.title, i.difficulty])[4]).toEqual(['Delta†', 'LEGGENDARIA']);
    });
  });

  describe('titles with commas', () => {
    const PLAYED: Block = ['10', '1500', '600', '300', '12', 'HARD CLEAR'];
    /** Title and artist read from a row whose title, genre and artist cells are given as raw text. */
    function names(middle: string, header = HEADER_27) {
      const n = header === HEADER_27 ? 3 : 5;
      const line = row('RESIDENT', '§', Array(n).fill(PLAYED)).replace('§,GENRE,ARTIST', middle);
      const [first] = charts(parse(csv(header, line)).items);
      return { title: first.title, artist: first.artist };
    }

    it.each([
      ['Hello, World,POP,Comma Artist', 'Hello, World', 'Comma Artist'],
      ['Song,POP,dj A, dj B', 'Song', 'dj A, dj B'],
      ['Song,HAPPY, HARDCORE,Artist', 'Song', 'Artist'],
      ['One, Two, Three,POP,A, B', 'One, Two, Three', 'A, B'],
      ['Hello, World,HAPPY, HARDCORE,dj A, dj B', 'Hello, World', 'dj A, dj B'],
    ])('reads %j as title %j, artist %j', (middle, title, artist) => {
      expect(names(middle)).toEqual({ title, artist });
      expect(names(middle, HEADER_41)).toEqual({ title, artist });
    });

    it('gives no artist when only the title is certain', () => {
      // T | GENRE | ,ARTIST and T | GENRE, | ARTIST; T,GENRE | (empty) | ARTIST has an empty genre.
      expect(names('T,GENRE,,ARTIST')).toEqual({ title: 'T', artist: null });
    });

    it('rejects a row whose title could be read more than one way', () => {
      const { title } = names('A,B,POP,Artist');
      expect(title).toEqual({
        problem: "Row 2 has 1 more cell than the header: its title cannot be told from its genre and artist at the extra commas (it could be 'A', 'A,B').",
      });
    });

    it('rejects a row with no consistent split', () => {
      expect(names('T, a, b, c').title).toEqual({
        problem: 'Row 2 has 1 more cell than the header, and no split of its title, genre and artist at the extra commas is consistent.',
      });
    });

    it('rejects an empty title', () => {
      expect(names(' ,POP,Artist').title).toEqual({ problem: 'Row 2 has no title.' });
    });

    it('reads the blocks and the version of such a row from the cells anchored to its ends', () => {
      const line = row('CastHour', '§', [NO_CHART, PLAYED, UNPLAYED]).replace('§,GENRE,ARTIST', 'A,B,POP,Artist');
      const parsed = parse(csv(HEADER_27, line));
      expect(parsed.context.version).toBe('29');
      expect(charts(parsed.items).map((i) => [i.difficulty, i.level, i.exScore, i.clearType])).toEqual([
        ['NORMAL', '0', '0', 'NO PLAY'],
        ['HYPER', '10', '1500', 'HARD CLEAR'],
        ['ANOTHER', '5', '0', 'NO PLAY'],
      ]);
      // Only the played block is an error; the others are skipped as usual.
      expect(parsed.items.map((i) => convertIidxCsvItem(i).kind)).toEqual(['skip', 'error', 'skip']);
    });
  });
});

describe('converting a block', () => {
  const base: ChartItem = {
    kind: 'chart',
    line: 7,
    title: 'Alpha Song',
    artist: 'Alpha Artist',
    difficulty: 'HYPER',
    level: '8',
    exScore: '1500',
    pgreat: '600',
    great: '300',
    missCount: '12',
    clearType: 'HARD CLEAR',
    lastPlayed: '2021-06-01 21:30',
  };
  const convert = (overrides: Partial<ChartItem> = {}) => convertIidxCsvItem({ ...base, ...overrides });
  const element = (overrides: Partial<ChartItem> = {}) => {
    const c = convert(overrides);
    if (c.kind !== 'score') throw new Error(`expected a score, got ${JSON.stringify(c)}`);
    return c.element as Record<string, unknown>;
  };
  const errorOf = (overrides: Partial<ChartItem>) => {
    const c = convert(overrides);
    if (c.kind !== 'error') throw new Error(`expected an error, got ${JSON.stringify(c)}`);
    return c.message;
  };

  it('makes a batch-manual element matched by title and difficulty, which the shared validation accepts', () => {
    const e = element();
    expect(e).toEqual({
      score: 1500,
      lamp: 'HARD CLEAR',
      matchType: 'songTitle',
      identifier: 'Alpha Song',
      difficulty: 'HYPER',
      timeAchieved: 1622550600000,
      judgements: { pgreat: 600, great: 300 },
      optional: { bp: 12 },
      artist: 'Alpha Artist',
    });
    expect(validateScoreElement(e, 0, IIDX.gpts.SP, Date.UTC(2025, 0)).ok).toBe(true);
    expect(validateScoreElement(e, 0, IIDX.gpts.DP, Date.UTC(2025, 0)).ok).toBe(true);
    expect(element({ artist: null })).not.toHaveProperty('artist');
  });

  it.each([['NORMAL'], ['HYPER'], ['ANOTHER'], ['LEGGENDARIA']])('keeps the difficulty %s', (difficulty) => {
    expect(element({ difficulty }).difficulty).toBe(difficulty);
  });

  describe('SKIP', () => {
    it.each([
      ['an EX score of 0 (unplayed or reset)', { exScore: '0', pgreat: '0', great: '0' }],
      ['an EX score of 0 even with a lamp', { exScore: '0', clearType: 'FAILED' }],
      ['an empty level (no such chart)', { level: '' }],
      ['a level of 0 (no such chart)', { level: '0' }],
      ['BEGINNER (no such difficulty here)', { difficulty: 'BEGINNER' }],
      ['a skipped block of a row whose title is unreadable', { exScore: '0', title: { problem: 'x' } }],
    ])('%s', (_name, overrides) => {
      expect(convert(overrides)).toEqual({ kind: 'skip' });
    });
  });

  describe('INVALID', () => {
    it.each([
      ['an EX score in words', { exScore: 'abc' }, "Row 7 HYPER: EX score 'abc' is not a non-negative integer."],
      ['a negative EX score', { exScore: '-5' }, "Row 7 HYPER: EX score '-5' is not a non-negative integer."],
      ['a fractional EX score', { exScore: '1500.5' }, "Row 7 HYPER: EX score '1500.5' is not a non-negative integer."],
      ['an empty EX score', { exScore: '' }, "Row 7 HYPER: EX score '' is not a non-negative integer."],
      ['an unsafe EX score', { exScore: '99999999999999999999' }, "Row 7 HYPER: EX score '99999999999999999999' is not a non-negative integer."],
      ['a PGreat in words', { pgreat: '---' }, "Row 7 HYPER: PGreat '---' is not a non-negative integer."],
      ['a negative Great', { great: '-1' }, "Row 7 HYPER: Great '-1' is not a non-negative integer."],
      ['PGreat × 2 + Great not the EX score', { great: '301' }, 'Row 7 HYPER: PGreat × 2 + Great is 1501, but the EX score is 1500: they must be equal.'],
      [
        'an unknown clear type',
        { clearType: 'FULL COMBO' },
        "Row 7 HYPER: unknown clear type 'FULL COMBO': expected one of NO PLAY, FAILED, ASSIST CLEAR, EASY CLEAR, CLEAR, HARD CLEAR, EX HARD CLEAR, FULLCOMBO CLEAR.",
      ],
      [
        'an unparsable time',
        { lastPlayed: 'yesterday' },
        "Row 7 HYPER: Invalid/Unparsable score timestamp 'yesterday': expected YYYY-MM-DD HH:MM (Japan time).",
      ],
      [
        'a time on no day',
        { lastPlayed: '2021-02-30 10:00' },
        "Row 7 HYPER: Invalid/Unparsable score timestamp '2021-02-30 10:00': expected YYYY-MM-DD HH:MM (Japan time).",
      ],
      ['a miss count over 9999', { missCount: '10000' }, "Row 7 HYPER: miss count '10000' must be a whole number from 0 to 9999."],
      ['a negative miss count', { missCount: '-1' }, "Row 7 HYPER: miss count '-1' must be a whole number from 0 to 9999."],
      ['a fractional miss count', { missCount: '1.5' }, "Row 7 HYPER: miss count '1.5' must be a whole number from 0 to 9999."],
      ['a played block of a row whose title is unreadable', { title: { problem: 'Row 7 has no title.' } }, 'Row 7 has no title.'],
    ])('%s', (_name, overrides, message) => {
      expect(errorOf(overrides)).toBe(message);
    });

    it('a row of the wrong cell count', () => {
      expect(convertIidxCsvItem({ kind: 'badRow', line: 3, message: 'Row 3 has 6 cells, but the header has 27.' })).toEqual({
        kind: 'error',
        message: 'Row 3 has 6 cells, but the header has 27.',
      });
    });

    it('echoes text safely: control characters replaced, at most 80 characters', () => {
      expect(errorOf({ clearType: 'A\u0000B' })).toMatch(/clear type 'A\uFFFDB'/);
      expect(errorOf({ exScore: 'x'.repeat(200) })).toMatch(new RegExp(`EX score '${'x'.repeat(80)}…' is not`));
    });
  });

  it.each([
    ['NO PLAY', 'NO PLAY'],
    ['FAILED', 'FAILED'],
    ['ASSIST CLEAR', 'ASSIST CLEAR'],
    ['EASY CLEAR', 'EASY CLEAR'],
    ['CLEAR', 'CLEAR'],
    ['HARD CLEAR', 'HARD CLEAR'],
    ['EX HARD CLEAR', 'EX HARD CLEAR'],
    ['FULLCOMBO CLEAR', 'FULL COMBO'],
  ])('maps the clear type %s to the lamp %s', (clearType, lamp) => {
    expect(element({ clearType }).lamp).toBe(lamp);
  });

  describe('miss count', () => {
    it.each([
      ['12', { bp: 12 }],
      ['0', { bp: 0 }],
      ['9999', { bp: 9999 }],
      ['---', {}],
      // Unlike Tachi, an empty cell is no BP rather than 0.
      ['', {}],
      ['n/a', {}],
    ])('%j gives optional %j', (missCount, optional) => {
      expect(element({ missCount }).optional).toEqual(optional);
    });
  });

  describe('last played, Japan time', () => {
    it.each([
      ['2021-06-01 21:30', Date.UTC(2021, 5, 1, 12, 30)],
      ['2021-06-01 03:28', Date.UTC(2021, 4, 31, 18, 28)],
      ['2020-12-19 03:28:45', Date.UTC(2020, 11, 18, 18, 28, 45)],
      ['2024/01/05 9:05', Date.UTC(2024, 0, 5, 0, 5)],
      ['', null],
      ['  ', null],
    ])('%j is %j', (cell, expected) => {
      expect(jstTime(cell)).toBe(expected);
      expect(element({ lastPlayed: cell }).timeAchieved).toBe(expected);
    });

    it.each(['2021-06-01', '21:30', '2021-13-01 10:00', '2021-06-01 24:00', '2021-06-01 10:60', '2021-06-01T10:00Z', 'Tue Jun 01 2021'])(
      '%j is unreadable',
      (cell) => {
        expect(jstTime(cell)).toBeUndefined();
      },
    );
  });
});

describe('the worked example (27 cells, SP, my_scores.csv)', () => {
  const file = fs.readFileSync(path.join(FIXTURES, 'worked-example-27.csv'));
  const parsed = parseIidxCsv(readIidxCsv({ file, filename: 'my_scores.csv', fields: { playtype: 'SP' } }), 'e-amusement', 1000);
  const converted = parsed.items.map((i) => convertIidxCsvItem(i));

  it('is version 28, the newest debut version', () => {
    expect(parsed.context).toEqual({ service: 'e-amusement', version: '28' });
  });

  it('skips the unplayed and missing charts and converts the rest', () => {
    expect(converted.map((c) => c.kind)).toEqual(['skip', 'score', 'score', 'skip', 'skip', 'score']);
    const [alphaHyper, alphaAnother, betaAnother] = converted.filter((c) => c.kind === 'score').map((c) => c.element);
    expect(alphaHyper).toMatchObject({
      identifier: 'Alpha Song',
      difficulty: 'HYPER',
      score: 1500,
      lamp: 'HARD CLEAR',
      optional: { bp: 12 },
      timeAchieved: 1622550600000,
    });
    // 2001 is over this chart's 2000: the shared pipeline rejects it once it knows the chart.
    expect(alphaAnother).toMatchObject({ difficulty: 'ANOTHER', score: 2001, lamp: 'FULL COMBO', optional: { bp: 0 } });
    expect(betaAnother).toMatchObject({ identifier: 'Beta Song', difficulty: 'ANOTHER', score: 900, lamp: 'FAILED', optional: { bp: 40 } });
  });
});

describe('random and truncated input', () => {
  /** A small seeded generator (mulberry32), so that a failure can be replayed. */
  function random(seed: number) {
    let a = seed;
    return () => {
      a = (a + 0x6d2b79f5) | 0;
      let t = Math.imul(a ^ (a >>> 15), 1 | a);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }

  /** Read, parse and convert: only ImportRejectedError (4xx) may be thrown, and every element is a valid shape or a per-score error. */
  function run(file: Buffer, fields: Record<string, string>) {
    let input: IidxCsvInput;
    try {
      input = readIidxCsv({ file, filename: 'f.csv', fields });
      const parsed = parseIidxCsv(input, 'e-amusement', 100_000);
      for (const item of parsed.items) {
        const c = convertIidxCsvItem(item);
        if (c.kind === 'score') validateScoreElement(c.element, 0, parsed.gpt, Date.now());
      }
    } catch (err) {
      expect(err).toBeInstanceOf(ImportRejectedError);
      const status = (err as ImportRejectedError).getStatus();
      expect(status >= 400 && status < 500).toBe(true);
    }
  }

  const worked = fs.readFileSync(path.join(FIXTURES, 'worked-example-27.csv'));

  it('never fails otherwise on a truncated file, at every byte', () => {
    for (let n = 0; n <= worked.length; n++) run(worked.subarray(0, n), { playtype: 'SP' });
  });

  it('never fails otherwise on random bytes, random cells or a shuffled file', () => {
    const next = random(20240115);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)];
    const CELLS = [
      'RESIDENT',
      'tricoro',
      '0',
      '1',
      '-1',
      '---',
      'CLEAR',
      'FULLCOMBO CLEAR',
      '',
      ' ',
      '2021-06-01 21:30',
      '†',
      'x,y',
      '\u0000',
      '\uFFFD',
      '9'.repeat(30),
    ];
    for (let i = 0; i < 300; i++) {
      const kind = i % 3;
      let file: Buffer;
      if (kind === 0) file = Buffer.from(Array.from({ length: Math.floor(next() * 400) }, () => Math.floor(next() * 256)));
      else if (kind === 1) {
        const header = pick([HEADER_27, HEADER_41]);
        const rows = Array.from({ length: 1 + Math.floor(next() * 5) }, () =>
          Array.from({ length: Math.floor(next() * 50) }, () => pick(CELLS)).join(pick([',', ',', ';'])),
        );
        file = csv(header, ...rows);
      } else {
        const lines = worked.toString('utf8').split('\n');
        file = Buffer.from(lines.map((l) => (next() < 0.3 ? l.split(',').reverse().join(',') : l)).join(pick(['\n', '\r', '\r\n'])));
      }
      run(file, { playtype: pick(['SP', 'DP', 'XP']) });
    }
  });
});
