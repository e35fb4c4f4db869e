import { describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import path from 'node:path';
import { ImportRejectedError } from '../../../src/imports/import-errors.js';
import { mypageScraperPlayer, mypageScraperRecords } from '../../../src/imports/import-types/mypagescraper/index.js';
import { CsvReader, CsvSyntaxError, parseCsv } from '../../../src/imports/import-types/mypagescraper/csv.js';
import { readCsvBuffer } from '../../../src/imports/import-types/mypagescraper/csv-file.js';
import { listCell, type RecordItem } from '../../../src/imports/import-types/mypagescraper/records.js';
import { validateScoreElement } from '../../../src/imports/score-element.js';
import { WACCA } from '../../../src/game-support/wacca/index.js';

const FIXTURES = path.resolve('test/fixtures/imports/mypagescraper');
const HEADER = 'music_id,music_title,music_artist,music_genre,music_levels,music_play_counts,music_scores,music_achieves';
const LIMITS = { maxScores: 10_000 };

const file = (text: string) => ({ file: Buffer.from(text, 'utf8'), fields: {} });
const records = (text: string, limits = LIMITS) => mypageScraperRecords.parse(mypageScraperRecords.read(file(text)), limits);
const player = (text: string) => mypageScraperPlayer.parse(mypageScraperPlayer.read(file(text)), LIMITS);
const csv = (...rows: string[]) => [HEADER, ...rows].join('\n');

/** The status and message of the ImportRejectedError fn throws. */
function rejection(fn: () => unknown): { status: number; message: string } {
  try {
    fn();
  } catch (err) {
    if (err instanceof ImportRejectedError) return { status: err.getStatus(), message: err.message };
    throw err;
  }
  throw new Error('expected an ImportRejectedError');
}

const convert = (item: RecordItem) => mypageScraperRecords.convert(item, records(csv()));

describe('parseCsv (RFC 4180)', () => {
  it('reads a header and rows, quoted cells with commas, doubled quotes and line breaks, CRLF or LF', () => {
    expect(parseCsv('a,b,c\r\n1,"x, y","say ""hi"""\r\n2,"two\nlines",\n')).toEqual({
      columns: ['a', 'b', 'c'],
      rows: [
        ['1', 'x, y', 'say "hi"'],
        ['2', 'two\nlines', ''],
      ],
    });
  });

  it('skips blank lines and reads a file without a final line break', () => {
    expect(parseCsv('a,b\n\n1,2\r\n\r\n3,4')).toEqual({
      columns: ['a', 'b'],
      rows: [
        ['1', '2'],
        ['3', '4'],
      ],
    });
    expect(parseCsv('')).toEqual({ columns: [], rows: [] });
    expect(parseCsv('a,""\n"",1')).toEqual({ columns: ['a', ''], rows: [['', '1']] });
  });

  it.each([
    ['a stray quote in an unquoted cell', 'a,b\n1,x"y', /a quote inside an unquoted cell on line 2/],
    ['an unclosed quote', 'a,b\n1,"open\n2,3', /the quoted cell opened on line 2 is never closed/],
    ['text after a closing quote', 'a,b\n1,"x"y', /text after the closing quote of a cell on line 2/],
    ['a short record', 'a,b,c\n1,2', /record 1 after the header has 2 cells; the header has 3/],
    ['a long record', 'a,b\n1,2\n1,2,3', /record 2 after the header has 3 cells; the header has 2/],
    ['a column named twice', 'a,b,a\n1,2,3', /the header names the column 'a' twice/],
  ])('refuses %s', (_, text, message) => {
    expect(() => parseCsv(text)).toThrow(CsvSyntaxError);
    expect(() => parseCsv(text)).toThrow(message);
  });
});

describe('the CSV read as a stream', () => {
  const TEXT = 'a,b,c\r\n1,"x, y","say ""hi"""\r\n2,"two\r\nlines",ステージⅩⅣ\r3,,"a""b"\n\n4,é,"""q"""';

  it('gives the same table however the text is cut into pieces (inside quotes, between CR and LF, after a quote)', () => {
    const whole = parseCsv(TEXT);
    expect(whole.rows).toHaveLength(4);
    for (let cut = 0; cut <= TEXT.length; cut++) {
      for (const size of [1, 2, 3]) {
        const reader = new CsvReader();
        reader.push(TEXT.slice(0, cut));
        for (let at = cut; at < TEXT.length; at += size) reader.push(TEXT.slice(at, at + size));
        expect({ cut, size, table: reader.end() }).toEqual({ cut, size, table: whole });
      }
    }
  });

  it('decodes the buffer a chunk at a time: a character split between chunks and a byte order mark read right', () => {
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(TEXT, 'utf8')]);
    for (const chunk of [1, 2, 3, 5, 7, 64 * 1024]) expect(readCsvBuffer(bytes, chunk)).toEqual(parseCsv(TEXT));
  });

  it('reports a syntax error met in a later chunk with its line', () => {
    expect(() => readCsvBuffer(Buffer.from('a,b\n1,2\n3,x"y\n', 'utf8'), 2)).toThrow(/a quote inside an unquoted cell on line 3/);
    expect(() => readCsvBuffer(Buffer.from('a,b\n1,"open\n', 'utf8'), 3)).toThrow(/opened on line 2 is never closed/);
  });
});

describe('file/mypagescraper-records-csv', () => {
  describe('whole-file failures (400, nothing imported)', () => {
    it('needs the file', () => {
      expect(rejection(() => mypageScraperRecords.read({ fields: {} }))).toEqual({
        status: 400,
        message: "Expected the CSV file in the multipart field 'scoreData'.",
      });
    });

    it('refuses an empty file', () => {
      expect(rejection(() => records(''))).toEqual({ status: 400, message: 'The CSV file is empty: it has no header row.' });
    });

    it('answers a CSV syntax error with "Failed to parse CSV"', () => {
      expect(rejection(() => records(csv('1001,Epsilon,X,0,"[3,7,11+,0]","[1,2,3]"')))).toEqual({
        status: 400,
        message: 'Failed to parse CSV: record 1 after the header has 6 cells; the header has 8.',
      });
    });

    it.each(['music_id', 'music_title', 'music_levels', 'music_scores', 'music_achieves'])('refuses a file without %s', (column) => {
      const header = HEADER.split(',').filter((c) => c !== column);
      const { status, message } = rejection(() => records(header.join(',')));
      expect(status).toBe(400);
      expect(message).toMatch(new RegExp(`^Malformed CSV, invalid column\\(s\\): missing ${column}\\.`));
    });

    it('names every missing column', () => {
      expect(rejection(() => records('music_title,other')).message).toMatch(
        /missing music_id, music_levels, music_scores, music_achieves\. The header has: music_title, other\./,
      );
    });

    it('answers 413 past the score limit, counting played charts', () => {
      const text = csv('1,A,X,0,"[1,2,3,0]","[1,1,1]","[1,2,3]","[0,0,0]"', '2,B,X,0,"[1,2,3,0]","[1,1,1]","[1,0,0]","[0,0,0]"');
      expect(records(text, { maxScores: 4 }).items).toHaveLength(4);
      expect(rejection(() => records(text, { maxScores: 3 }))).toEqual({
        status: 413,
        message: 'This file has 4 played charts; the limit is 3 per import. Split it into several files.',
      });
    });
  });

  it("reads the reference's example row: NORMAL unplayed and INFERNO absent are skipped", () => {
    const parsed = records(csv('1001,Epsilon,X,0,"[3,7,11+,0]","[1,2,3]","[0,950000,990000]","[0,1,3]"'));
    expect(parsed.gpt.game).toBe('wacca');
    expect(parsed.gpt.playtype).toBe('Single');
    expect(parsed.context).toEqual({ service: 'mypage-scraper', version: null });
    expect(parsed.classes).toEqual({});
    expect(parsed.items).toEqual([
      { row: 1, title: 'Epsilon', artist: 'X', difficulty: 'HARD', level: '7', score: '950000', achieve: '1' },
      { row: 1, title: 'Epsilon', artist: 'X', difficulty: 'EXPERT', level: '11+', score: '990000', achieve: '3' },
    ]);
    expect(parsed.items.map((item) => mypageScraperRecords.convert(item, parsed))).toEqual([
      {
        kind: 'score',
        element: {
          score: 950000,
          lamp: 'CLEAR',
          matchType: 'songTitle',
          identifier: 'Epsilon',
          artist: 'X',
          difficulty: 'HARD',
          timeAchieved: null,
          judgements: {},
        },
      },
      {
        kind: 'score',
        element: {
          score: 990000,
          lamp: 'FULL COMBO',
          matchType: 'songTitle',
          identifier: 'Epsilon',
          artist: 'X',
          difficulty: 'EXPERT',
          timeAchieved: null,
          judgements: {},
        },
      },
    ]);
  });

  it('maps list positions 0..3 to NORMAL, HARD, EXPERT, INFERNO', () => {
    const parsed = records(csv('1,A,X,0,"[1,5,10,13]","[1,1,1,1]","[10,20,30,40]","[0,0,0,0]"'));
    expect(parsed.items.map((i) => [i.difficulty, i.level, i.score])).toEqual([
      ['NORMAL', '1', '10'],
      ['HARD', '5', '20'],
      ['EXPERT', '10', '30'],
      ['INFERNO', '13', '40'],
    ]);
  });

  it.each([
    ['0', 'FAILED'],
    ['1', 'CLEAR'],
    ['2', 'MISSLESS'],
    ['3', 'FULL COMBO'],
    ['4', 'ALL MARVELOUS'],
  ])('maps achievement code %s to %s', (code, lamp) => {
    const item: RecordItem = { row: 1, title: 'A', artist: null, difficulty: 'EXPERT', level: '12', score: '1000000', achieve: code };
    expect(convert(item)).toEqual({ kind: 'score', element: expect.objectContaining({ lamp }) });
  });

  it.each([
    ['5', "invalid achievement code '5': expected 0 to 4"],
    ['-1', "invalid achievement code '-1': expected 0 to 4"],
    ['x', "invalid achievement code 'x': expected 0 to 4"],
    ['constructor', "invalid achievement code 'constructor': expected 0 to 4"],
    [null, "invalid achievement code '(none)': expected 0 to 4"],
  ])('makes achievement code %s a per-score error', (code, message) => {
    const item: RecordItem = { row: 3, title: 'A', artist: null, difficulty: 'HARD', level: '7', score: '900000', achieve: code };
    expect(convert(item)).toEqual({ kind: 'error', message: `row 3 ('A' HARD): ${message}.` });
  });

  it.each(['abc', '-5', '1.5', '1e6', '99999999999999999999'])('makes the score %s a per-score error', (score) => {
    const item: RecordItem = { row: 2, title: 'A', artist: null, difficulty: 'NORMAL', level: '3', score, achieve: '1' };
    expect(convert(item)).toEqual({ kind: 'error', message: `row 2 ('A' NORMAL): the score '${score}' is not a non-negative integer.` });
  });

  it('skips a level of 0 (no such chart), a score of 0 (unplayed) and a difficulty without a score', () => {
    const parsed = records(csv('1,A,X,0,"[0,5,10,13]","[1,0,1,0]","[100,0,300]","[1,0,1]"'));
    expect(parsed.items.map((i) => i.difficulty)).toEqual(['EXPERT']);
    expect(records(csv('1,A,X,0,"[1,5,10]","[1,1,1]","[00,-0,1]","[1,1,1]"')).items.map((i) => i.difficulty)).toEqual(['EXPERT']);
  });

  it('gives a difficulty whose achievement code is missing as a per-score error', () => {
    const [item] = records(csv('1,A,X,0,"[1,2,3,12]","[0,0,0,1]","[0,0,0,500000]","[0,0,0]"')).items;
    expect(item).toMatchObject({ difficulty: 'INFERNO', achieve: null });
    expect(convert(item)).toMatchObject({ kind: 'error' });
  });

  it.each([
    ['two elements', '[1,2]'],
    ['five elements', '[1,2,3,4,5]'],
    ['no brackets', '1,2,3'],
    ['an empty element', '[1,,3]'],
    ['an empty cell', ''],
  ])('reads a list cell with %s as no list: its row gives nothing', (_, cell) => {
    expect(listCell(cell)).toEqual([]);
    expect(records(csv(`1,A,X,0,"${cell}","[1,1,1]","[1,2,3]","[1,1,1]"`)).items).toEqual([]);
    expect(records(csv(`1,A,X,0,"[1,2,3]","[1,1,1]","${cell}","[1,1,1]"`)).items).toEqual([]);
    expect(records(csv(`1,A,X,0,"[1,2,3]","[1,1,1]","[1,2,3]","${cell}"`)).items).toEqual([]);
  });

  it('reads list cells with 3 or 4 elements, spaces allowed', () => {
    expect(listCell('[3,9+,12]')).toEqual(['3', '9+', '12']);
    expect(listCell(' [ 3, 9+ ,12,0 ] ')).toEqual(['3', '9+', '12', '0']);
  });

  it('reads a title with a comma (a quoted cell), and a missing or empty artist as none', () => {
    expect(records(csv('1002,"Good Night, Bad Luck.",,0,"[2,0,0,0]","[1]","[1,0,0]","[1,0,0]"')).items[0]).toMatchObject({
      title: 'Good Night, Bad Luck.',
      artist: null,
    });
    const noArtist = ['music_id,music_title,music_levels,music_scores,music_achieves', '1,A,"[2,0,0]","[5,0,0]","[1,0,0]"'].join('\n');
    expect(records(noArtist).items[0]).toMatchObject({ title: 'A', artist: null });
  });

  it('reads a file saved with a byte order mark', () => {
    expect(records(`\uFEFF${csv('1,A,X,0,"[1,0,0]","[1]","[5,0,0]","[1,0,0]"')}`).items).toHaveLength(1);
  });

  it('gives elements that the shared validation accepts for WACCA', () => {
    const text = fs.readFileSync(path.join(FIXTURES, 'records.csv'), 'utf8');
    const parsed = records(text);
    const elements = parsed.items.map((item) => mypageScraperRecords.convert(item, parsed));
    expect(elements.map((e) => e.kind)).toEqual(['score', 'score', 'score', 'score', 'score', 'score', 'score', 'error']);
    for (const [index, e] of elements.entries()) {
      if (e.kind === 'score') expect(validateScoreElement(e.element, index, WACCA.gpts.Single, Date.now())).toMatchObject({ ok: true });
    }
  });
});

describe('file/mypagescraper-player-csv', () => {
  const PLAYER_HEADER = 'player_name,player_level,player_rate,player_stage';
  const withStage = (stage: string) => `${PLAYER_HEADER}\nTESTER,120,2100,"${stage}"`;

  it('sets stageUp from the fixture and imports no scores', () => {
    const parsed = player(fs.readFileSync(path.join(FIXTURES, 'player.csv'), 'utf8'));
    expect(parsed.gpt.game).toBe('wacca');
    expect(parsed.context).toEqual({ service: 'mypage-scraper', version: null });
    expect(parsed.classes).toEqual({ stageUp: 'IX' });
    expect(parsed.items).toEqual([]);
  });

  const ROMAN = ['I', 'II', 'III', 'IV', 'V', 'VI', 'VII', 'VIII', 'IX', 'X', 'XI', 'XII', 'XIII', 'XIV'];
  it.each(ROMAN.map((value, i) => [i + 1, value] as const))('maps stage id %i to %s', (id, value) => {
    expect(player(withStage(`[${id},ステージ,1]`)).classes).toEqual({ stageUp: value });
  });

  it('ignores the stage name (even a mismatching one) and the colour grade', () => {
    expect(player(withStage('[3,ステージⅩ,0]')).classes).toEqual({ stageUp: 'III' });
    expect(player(withStage('[ 3 ,,]')).classes).toEqual({ stageUp: 'III' });
  });

  it.each([0, 15, 999])('refuses the unknown stage id %i', (id) => {
    expect(rejection(() => player(withStage(`[${id},ステージ,1]`)))).toEqual({
      status: 400,
      message: `Unknown stage id ${id} in player_stage: expected 1 to 14.`,
    });
  });

  it.each(['14', '[14]', '[14,name]', '[x,name,1]', '[1,a,b,c]', '', '[-1,a,1]'])('refuses the player_stage %p', (stage) => {
    expect(rejection(() => player(withStage(stage))).message).toMatch(/^Invalid player_stage '.*': expected \[id,name,grade\]/);
  });

  it('needs exactly one player record', () => {
    expect(rejection(() => player(PLAYER_HEADER))).toEqual({ status: 400, message: 'The player CSV must hold exactly one player record; this one has 0.' });
    expect(rejection(() => player(`${withStage('[1,a,1]')}\nOTHER,1,1,"[2,a,1]"`)).message).toBe(
      'The player CSV must hold exactly one player record; this one has 2.',
    );
  });

  it('needs the player_stage column', () => {
    expect(rejection(() => player('player_name\nTESTER')).message).toMatch(/^Malformed CSV, invalid column\(s\): missing player_stage\./);
  });

  it('needs the file', () => {
    expect(rejection(() => mypageScraperPlayer.read({ fields: {} })).status).toBe(400);
  });
});

/** A deterministic pseudo-random source (mulberry32), so that a failure can be replayed. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('random and truncated files only ever give a 400/413 or per-score results', () => {
  const valid = [fs.readFileSync(path.join(FIXTURES, 'records.csv'), 'utf8'), fs.readFileSync(path.join(FIXTURES, 'player.csv'), 'utf8')];
  const ALPHABET = ['"', ',', '\n', '\r', '[', ']', '0', '1', '4', '9', '+', 'a', ' ', '-', 'music_scores', 'player_stage', '\u0000', 'é'];

  /** Runs a whole import type on the text: read, parse, convert every item. Only a 4xx ImportRejectedError may escape. */
  function runBoth(text: string) {
    for (const type of [mypageScraperRecords, mypageScraperPlayer]) {
      try {
        const parsed = type.parse(type.read(file(text)), { maxScores: 50 });
        for (const item of parsed.items) expect(['score', 'error', 'skip']).toContain(type.convert(item as never, parsed as never).kind);
      } catch (err) {
        if (!(err instanceof ImportRejectedError)) throw err;
        expect([400, 413]).toContain(err.getStatus());
      }
    }
  }

  it('truncations of the fixtures', () => {
    for (const text of valid) for (let n = 0; n <= text.length; n += 1) runBoth(text.slice(0, n));
  });

  it('random mutations and random texts', () => {
    const next = random(11);
    for (let k = 0; k < 400; k += 1) {
      const base = valid[k % 2];
      const chars = [...base];
      for (let m = 0; m < 1 + Math.floor(next() * 6); m += 1) {
        const at = Math.floor(next() * (chars.length + 1));
        const piece = ALPHABET[Math.floor(next() * ALPHABET.length)];
        if (next() < 0.5) chars.splice(at, 1, piece);
        else chars.splice(at, 0, piece);
      }
      runBoth(chars.join(''));
      runBoth(Array.from({ length: Math.floor(next() * 80) }, () => ALPHABET[Math.floor(next() * ALPHABET.length)]).join(''));
    }
  });
});

describe('file/mypagescraper-records-csv: the level check after chart matching', () => {
  const item: RecordItem = { row: 3, title: 'Epsilon', artist: null, difficulty: 'EXPERT', level: '11+', score: '990000', achieve: '3' };
  const chart = (level: string) => ({
    chartID: 'c',
    songID: 1,
    playtype: 'Single',
    difficulty: 'EXPERT',
    level,
    levelNum: 11.7,
    isPrimary: true,
    versions: [],
    data: {},
  });
  const check = (level: string) => mypageScraperRecords.checkMatch!(item, chart(level), undefined as never);

  it('accepts the level exactly as the chart has it', () => {
    expect(check('11+')).toBeUndefined();
  });

  it.each([['11'], ['12'], ['11+ ']])('refuses a chart of level %p', (level) => {
    expect(check(level)).toBe(`row 3 ('Epsilon' EXPERT): the file says level 11+, but the chart is level ${level}.`);
  });
});
