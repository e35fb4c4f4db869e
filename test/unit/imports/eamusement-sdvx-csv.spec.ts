import { describe, expect, it } from '@jest/globals';
import { ImportRejectedError } from '../../../src/imports/import-errors.js';
import { eamusementSdvxCsv } from '../../../src/imports/import-types/eamusement-sdvx-csv/index.js';
import { DIFFICULTIES, LAMPS } from '../../../src/imports/import-types/eamusement-sdvx-csv/sdvx-csv.converter.js';
import type { SdvxCsvRow } from '../../../src/imports/import-types/eamusement-sdvx-csv/sdvx-csv.parser.js';
import { validateScoreElement } from '../../../src/imports/score-element.js';

const HEADER = '楽曲名,難易度,楽曲レベル,クリアランク,スコアグレード,ハイスコア,EXスコア,プレー回数,クリア回数,ULTIMATE CHAIN,PERFECT';
const csv = (...rows: string[]) => [HEADER, ...rows].join('\n');
const parse = (text: string, maxScores = 1000) =>
  eamusementSdvxCsv.parse(eamusementSdvxCsv.read({ file: Buffer.from(text, 'utf8'), fields: {} }), { maxScores });
const rejection = (text: string) => {
  try {
    parse(text);
  } catch (err) {
    expect(err).toBeInstanceOf(ImportRejectedError);
    return { status: (err as ImportRejectedError).getStatus(), message: (err as Error).message };
  }
  throw new Error('expected a rejection');
};
const convertLine = (line: string) => {
  const parsed = parse(csv(line));
  return eamusementSdvxCsv.convert(parsed.items[0], parsed);
};
const element = (line: string) => {
  const c = convertLine(line);
  if (c.kind !== 'score') throw new Error(`expected a score, got ${JSON.stringify(c)}`);
  return c.element as Record<string, unknown>;
};
const errorOf = (line: string) => {
  const c = convertLine(line);
  if (c.kind !== 'error') throw new Error(`expected an error, got ${JSON.stringify(c)}`);
  return c.message;
};

describe('file/eamusement-sdvx-csv', () => {
  describe('the whole file', () => {
    it("reads the reference's example row: title, MXM, CLEAR, score, EX score, no timestamp", () => {
      const parsed = parse(csv('Gamma Song,MAXIMUM,18,COMPLETE,AA,9400000,4321,2,1,0,0'));
      expect(parsed.gpt.game).toBe('sdvx');
      expect(parsed.gpt.playtype).toBe('Single');
      expect(parsed.context).toEqual({ service: 'e-amusement', version: null });
      expect(parsed.classes).toEqual({});
      expect(parsed.items).toEqual([{ line: 2, cells: ['Gamma Song', 'MAXIMUM', '18', 'COMPLETE', 'AA', '9400000', '4321', '2', '1', '0', '0'] }]);
      const e = element('Gamma Song,MAXIMUM,18,COMPLETE,AA,9400000,4321,2,1,0,0');
      expect(e).toEqual({
        matchType: 'songTitle',
        identifier: 'Gamma Song',
        difficulty: 'MXM',
        score: 9_400_000,
        lamp: 'CLEAR',
        judgements: {},
        optional: { exScore: 4321 },
        timeAchieved: null,
      });
      // The shared validation accepts it for sdvx Single.
      expect(validateScoreElement(e, 0, parsed.gpt, Date.now()).ok).toBe(true);
    });

    it('reads the header by its cell count only, with a BOM, CRLF line ends and blank lines', () => {
      const parsed = parse(`\uFEFFa,b,c,d,e,f,g,h,i,j,k\r\nX,NOVICE,5,PLAYED,D,100,0,1,0,0,0\r\n\r\n\r\nY,ADVANCED,9,PLAYED,D,200,0,1,0,0,0\r\n`);
      expect(parsed.items.map((r) => [r.line, r.cells[0], r.cells[10]])).toEqual([
        [2, 'X', '0'],
        [5, 'Y', '0'],
      ]);
    });

    it('takes a file with a header and no rows (nothing to import)', () => {
      expect(parse(HEADER).items).toEqual([]);
    });

    it.each([
      ['an empty file', '', /header line is empty/],
      ['a blank header', '   \nX,NOVICE,5,PLAYED,D,100,0,1,0,0,0', /header line is empty/],
      ['10 header cells', 'a,b,c,d,e,f,g,h,i,j\n', /correct number of headers: an e-amusement SDVX export has 11, this one 10/],
      ['12 header cells', `${HEADER},extra`, /correct number of headers: an e-amusement SDVX export has 11, this one 12/],
      ['an IIDX CSV header (27 cells)', Array(27).fill('h').join(','), /this one 27/],
      ['more than 50 header cells', Array(51).fill('h').join(','), /more than 50 cells/],
      ['a header over 1000 characters', `${'x'.repeat(995)},b,c,d,e,f,g,h,i,j,k`, /longer than 1000 characters/],
      [
        'a row with fewer cells than the header',
        csv('X,NOVICE,5,PLAYED,D,100,0,1,0,0,0', 'Y,NOVICE,5,PLAYED'),
        /Row 3 has 4 cells, fewer than the header's 11/,
      ],
    ])('rejects %s with a 400', (_, text, message) => {
      const r = rejection(text);
      expect(r.status).toBe(400);
      expect(r.message).toMatch(message);
    });

    it('rejects more rows than IMPORT_MAX_SCORES with a 413', () => {
      const rows = Array.from({ length: 4 }, (_, i) => `S${i},NOVICE,5,PLAYED,D,100,0,1,0,0,0`);
      expect(parse(csv(...rows), 4).items).toHaveLength(4);
      expect(() => parse(csv(...rows), 3)).toThrow(/more than 3 rows; the limit is 3 scores per import/);
      try {
        parse(csv(...rows), 3);
      } catch (err) {
        expect((err as ImportRejectedError).getStatus()).toBe(413);
      }
    });

    it('rejects a stored input that is not text', () => {
      expect(() => eamusementSdvxCsv.parse({ text: 'x' }, { maxScores: 10 })).toThrow(ImportRejectedError);
    });

    it('parses a queued import from its stored input exactly as the request', () => {
      const input = eamusementSdvxCsv.read({ file: Buffer.from(csv('a,b,NOVICE,5,PLAYED,D,100,0,1,0,0,0'), 'utf8'), fields: {} });
      const stored = JSON.parse(JSON.stringify(input)) as unknown;
      expect(eamusementSdvxCsv.parse(stored, { maxScores: 10 })).toEqual(eamusementSdvxCsv.parse(input, { maxScores: 10 }));
    });

    it('needs the file', () => {
      expect(() => eamusementSdvxCsv.read({ fields: {} })).toThrow(/multipart field 'scoreData'/);
    });
  });

  describe('the mapping tables, value by value', () => {
    it.each([
      ['NOVICE', 'NOV'],
      ['ADVANCED', 'ADV'],
      ['EXHAUST', 'EXH'],
      ['MAXIMUM', 'MXM'],
      ['INFINITE', 'INF'],
      ['GRAVITY', 'GRV'],
      ['HEAVENLY', 'HVN'],
      ['VIVID', 'VVD'],
      ['EXCEED', 'XCD'],
    ])('difficulty %s → %s', (word, difficulty) => {
      expect(element(`T,${word},17,COMPLETE,A,9000000,0,1,1,0,0`).difficulty).toBe(difficulty);
    });

    it('has exactly those nine difficulties', () => expect(Object.keys(DIFFICULTIES)).toHaveLength(9));

    it.each([
      ['PLAYED', 'FAILED', 5_000_000],
      ['COMPLETE', 'CLEAR', 9_000_000],
      ['EXCESSIVE COMPLETE', 'EXCESSIVE CLEAR', 9_000_000],
      ['MAXXIVE COMPLETE', 'MAXXIVE CLEAR', 9_000_000],
      ['ULTIMATE CHAIN', 'ULTIMATE CHAIN', 9_900_000],
      ['PERFECT', 'PERFECT ULTIMATE CHAIN', 10_000_000],
    ])('clear rank %s → lamp %s', (word, lamp, score) => {
      const e = element(`T,EXHAUST,17,${word},A,${score},0,1,1,0,0`);
      expect(e.lamp).toBe(lamp);
      expect(validateScoreElement(e, 0, parse(HEADER).gpt, Date.now()).ok).toBe(true);
    });

    it('has exactly those six clear ranks', () => expect(Object.keys(LAMPS)).toHaveLength(6));
  });

  describe('per-row rules (INVALID: only that row is refused)', () => {
    it.each([
      ['an unknown difficulty', 'T,ULTIMATE,17,COMPLETE,A,9000000,0,1,1,0,0', /^Row 2: unknown difficulty 'ULTIMATE': expected one of NOVICE, ADVANCED/],
      ['a lower-case difficulty', 'T,exhaust,17,COMPLETE,A,9000000,0,1,1,0,0', /unknown difficulty 'exhaust'/],
      ['a level that is no number', 'T,EXHAUST,seventeen,COMPLETE,A,9000000,0,1,1,0,0', /^Row 2: invalid level 'seventeen'/],
      ['a score that is no integer', 'T,EXHAUST,17,COMPLETE,A,9000000.5,0,1,1,0,0', /^Row 2: invalid score '9000000\.5'/],
      ['a negative score', 'T,EXHAUST,17,COMPLETE,A,-5,0,1,1,0,0', /^Row 2: invalid score '-5'/],
      ['an empty score', 'T,EXHAUST,17,COMPLETE,A,,0,1,1,0,0', /^Row 2: invalid score ''/],
      ['a score above 10,000,000', 'T,EXHAUST,17,COMPLETE,A,10000001,0,1,1,0,0', /^Row 2: score 10000001 is greater than 10,000,000/],
      ['an EX score that is no integer', 'T,EXHAUST,17,COMPLETE,A,9000000,1e3,1,1,0,0', /^Row 2: invalid EX score '1e3'/],
      ['an unknown clear rank', 'T,EXHAUST,17,CLEARED,A,9000000,0,1,1,0,0', /^Row 2: unknown clear rank 'CLEARED': expected one of PLAYED, COMPLETE/],
      ['an empty title', ',EXHAUST,17,COMPLETE,A,9000000,0,1,1,0,0', /^Row 2 has no title/],
    ])('%s', (_, line, message) => {
      expect(errorOf(line)).toMatch(message);
    });

    it('takes a score of exactly 10,000,000, "-0" as 0, and an EX score of 0 as not recorded', () => {
      expect(element('T,EXHAUST,17,PERFECT,S,10000000,0,1,1,1,1')).toMatchObject({ score: 10_000_000, optional: {} });
      expect(element('T,EXHAUST,17,PLAYED,D,-0,0,1,0,0,0').score).toBe(0);
      expect(element('T,EXHAUST,17,COMPLETE,A,9000000,1,1,1,0,0').optional).toEqual({ exScore: 1 });
    });

    it('trims the cells after the title, but keeps the title as written', () => {
      expect(element('Trailing space ,EXHAUST , 17 ,COMPLETE,A, 9000000 ,0,1,1,0,0\r')).toMatchObject({
        identifier: 'Trailing space ',
        difficulty: 'EXH',
        score: 9_000_000,
      });
    });
  });

  describe('a title with commas', () => {
    it('joins one extra cell back into the title', () => {
      expect(element('Help me, ERINNNNNN!!,EXHAUST,13,COMPLETE,A,9000000,0,1,1,0,0')).toMatchObject({ identifier: 'Help me, ERINNNNNN!!', difficulty: 'EXH' });
    });

    it('joins several, with or without spaces around the commas', () => {
      expect(element('a,b, c ,d,MAXIMUM,18,COMPLETE,AA,9400000,4321,2,1,0,0').identifier).toBe('a,b, c ,d');
      expect(element('Aqua,Luna-rium,MAXIMUM,16,COMPLETE,AA,9400000,0,2,1,0,0').identifier).toBe('Aqua,Luna-rium');
    });

    it('refuses only that row when the joined reading is still not valid, naming the cell count', () => {
      // A stray trailing comma: the cells after the "title" are shifted, so no reading is consistent.
      expect(errorOf('Song,EXHAUST,17,COMPLETE,A,9000000,0,1,1,0,0,')).toBe(
        "Row 2 has 12 cells where the header has 11, and read with the extra commas in its title ('Song,EXHAUST') it is still not valid: unknown difficulty '17': expected one of NOVICE, ADVANCED, EXHAUST, MAXIMUM, INFINITE, GRAVITY, HEAVENLY, VIVID, EXCEED.",
      );
      const parsed = parse(
        csv('Good,NOVICE,5,PLAYED,D,100,0,1,0,0,0', 'Bad,EXHAUST,17,COMPLETE,A,9000000,0,1,1,0,0,', 'Fine, too,NOVICE,5,PLAYED,D,100,0,1,0,0,0'),
      );
      expect(parsed.items.map((i) => eamusementSdvxCsv.convert(i, parsed).kind)).toEqual(['score', 'error', 'score']);
    });
  });

  describe('property: random and truncated input', () => {
    /** A small deterministic generator, so a failure can be replayed. */
    function rng(seed: number) {
      let s = seed >>> 0;
      return () => {
        s = (s * 1664525 + 1013904223) >>> 0;
        return s / 2 ** 32;
      };
    }
    const alphabet = ['a', ',', '\n', '\r', '0', '9', '-', ' ', 'É', '\u0000', 'COMPLETE', 'NOVICE', '"', '\uFEFF'];

    it('only ever rejects with a 4xx or converts each row to a score or an error', () => {
      const good = csv('Help me, ERINNNNNN!!,EXHAUST,13,COMPLETE,A,9000000,0,1,1,0,0', 'X,NOVICE,5,PLAYED,D,100,0,1,0,0,0');
      const inputs: string[] = [];
      for (let cut = 0; cut <= good.length; cut++) inputs.push(good.slice(0, cut));
      const next = rng(11);
      for (let n = 0; n < 300; n++) {
        const parts = [HEADER, '\n'];
        const len = Math.floor(next() * 80);
        for (let i = 0; i < len; i++) parts.push(alphabet[Math.floor(next() * alphabet.length)]);
        inputs.push(next() < 0.7 ? parts.join('') : parts.slice(2).join(''));
      }
      for (const text of inputs) {
        let parsed: ReturnType<typeof parse>;
        try {
          parsed = parse(text);
        } catch (err) {
          expect(err).toBeInstanceOf(ImportRejectedError);
          const status = (err as ImportRejectedError).getStatus();
          expect(status >= 400 && status < 500).toBe(true);
          continue;
        }
        for (const item of parsed.items as SdvxCsvRow[]) {
          const c = eamusementSdvxCsv.convert(item, parsed);
          expect(['score', 'error']).toContain(c.kind);
          if (c.kind === 'score') validateScoreElement(c.element, 0, parsed.gpt, Date.now());
        }
      }
    });
  });
});

describe('file/eamusement-sdvx-csv: the level check after chart matching', () => {
  const chart = (level: string) =>
    ({ chartID: 'c', songID: 1, playtype: 'Single', difficulty: 'MXM', level, levelNum: Number(level), isPrimary: true, versions: [], data: {} }) as const;
  const row = (cells: string): SdvxCsvRow => ({ line: 5, cells: cells.split(',') });
  const check = (r: SdvxCsvRow, level: string) => eamusementSdvxCsv.checkMatch!(r, chart(level), undefined as never);

  it('accepts the chart of the level the row states, exactly as written', () => {
    expect(check(row('Gamma,MAXIMUM,18,COMPLETE,AA,9400000,0,2,1,0,0'), '18')).toBeUndefined();
    expect(check(row('Gamma,MAXIMUM, 18 ,COMPLETE,AA,9400000,0,2,1,0,0'), '18')).toBeUndefined();
  });

  it.each([
    ['17', '18'],
    ['018', '18'],
    ['18', '1'],
  ])('refuses level %p on a chart of level %p', (level, chartLevel) => {
    expect(check(row(`Gamma,MAXIMUM,${level},COMPLETE,AA,9400000,0,2,1,0,0`), chartLevel)).toBe(
      `Row 5: the CSV says level ${level}, but the matched MXM chart is level ${chartLevel}.`,
    );
  });

  it('reads the level after a title with commas, as the converter reads the row', () => {
    expect(check(row('a,b,c,MAXIMUM,16,COMPLETE,AA,9400000,0,2,1,0,0'), '16')).toBeUndefined();
    expect(check(row('a,b,c,MAXIMUM,16,COMPLETE,AA,9400000,0,2,1,0,0'), '15')).toMatch(/says level 16, but .* is level 15/);
  });
});
