import { describe, expect, it } from '@jest/globals';
import { HttpException } from '@nestjs/common';
import { IIDX } from '../../../src/game-support/iidx/index.js';
import { merIidx } from '../../../src/imports/import-types/mer-iidx/index.js';
import type { MerScore } from '../../../src/imports/import-types/mer-iidx/mer.parser.js';
import type { ParsedImport } from '../../../src/imports/import-types/types.js';
import { validateScoreElement } from '../../../src/imports/score-element.js';

/** The reference's example entry. */
const EXAMPLE = {
  music_id: 25001,
  play_type: 'DOUBLE',
  diff_type: 'HYPER',
  score: 1000,
  miss_count: -1,
  clear_type: 'FULLCOMBO CLEAR',
  update_time: '2022-03-05 10:00:00',
};
const entry = (o: Record<string, unknown> = {}) => ({ ...EXAMPLE, ...o });

const parseText = (text: string, fields: Record<string, string> = {}, maxScores = 1000) =>
  merIidx.parse(merIidx.read({ file: Buffer.from(text, 'utf8'), fields }), { maxScores });
const parse = (scores: unknown, fields: Record<string, string> = {}, maxScores = 1000) => parseText(JSON.stringify(scores), fields, maxScores);
function rejection(run: () => unknown) {
  try {
    run();
  } catch (err) {
    // An ImportRejectedError, or the shared JSON check's 400.
    expect(err).toBeInstanceOf(HttpException);
    return { status: (err as HttpException).getStatus(), message: (err as Error).message };
  }
  throw new Error('expected a rejection');
}
const convertAll = (parsed: ParsedImport<MerScore>) => parsed.items.map((i) => merIidx.convert(i, parsed));
function element(o: Record<string, unknown> = {}) {
  const [c] = convertAll(parse([entry(o)]));
  if (c.kind !== 'score') throw new Error(`expected a score, got ${JSON.stringify(c)}`);
  return c.element as Record<string, unknown>;
}

describe('file/mer-iidx', () => {
  it("reads the reference's example: DP HYPER of in-game 25001, FULL COMBO, no bp, 10:00 JST", () => {
    const parsed = parse([EXAMPLE]);
    expect(parsed.gpt.game).toBe('iidx');
    expect(parsed.gpt.playtype).toBe('DP');
    expect(parsed.context).toEqual({ service: 'MER', version: null });
    const [c] = convertAll(parsed);
    expect(c).toEqual({
      kind: 'score',
      playtype: 'DP',
      element: {
        matchType: 'inGameID',
        identifier: '25001',
        difficulty: 'HYPER',
        score: 1000,
        lamp: 'FULL COMBO',
        judgements: {},
        optional: {},
        timeAchieved: 1646442000000,
      },
    });
    // 2022-03-05 10:00 in Japan is 01:00 UTC.
    expect(1646442000000).toBe(Date.UTC(2022, 2, 5, 1, 0, 0));
    if (c.kind === 'score') expect(validateScoreElement(c.element, 0, parsed.gpt, Date.now()).ok).toBe(true);
  });

  describe('the mapping tables, value by value', () => {
    it.each([
      ['SINGLE', 'SP'],
      ['DOUBLE', 'DP'],
    ])('play_type %s → %s', (playType, playtype) => {
      const parsed = parse([entry({ play_type: playType })]);
      expect(parsed.gpt.playtype).toBe(playtype);
      const [c] = convertAll(parsed);
      expect(c.kind === 'score' && c.playtype).toBe(playtype);
    });

    it.each(['NORMAL', 'HYPER', 'ANOTHER', 'LEGGENDARIA'])('diff_type %s → %s', (difficulty) => {
      expect(element({ diff_type: difficulty }).difficulty).toBe(difficulty);
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
    ])('clear_type %s → lamp %s', (clearType, lamp) => {
      expect(element({ clear_type: clearType }).lamp).toBe(lamp);
    });

    it('miss_count: -1 → no bp, 0 and more → bp', () => {
      expect(element({ miss_count: -1 }).optional).toEqual({});
      expect(element({ miss_count: 0 }).optional).toEqual({ bp: 0 });
      expect(element({ miss_count: 37 }).optional).toEqual({ bp: 37 });
    });

    it('update_time is Japan time: midnight JST is 15:00 UTC the day before', () => {
      expect(element({ update_time: '2021-01-01 00:00:00' }).timeAchieved).toBe(Date.UTC(2020, 11, 31, 15));
    });
  });

  describe('per-score rules', () => {
    it('refuses a BEGINNER score (iidx tracks no BEGINNER charts), and the rest imports', () => {
      expect(convertAll(parse([entry({ diff_type: 'BEGINNER' }), entry()])).map((c) => c.kind)).toEqual(['error', 'score']);
      expect(convertAll(parse([entry({ diff_type: 'BEGINNER' })]))[0]).toEqual({
        kind: 'error',
        message: 'music_id 25001: BEGINNER charts are not tracked for iidx.',
      });
    });

    it('refuses an impossible date', () => {
      for (const time of ['2022-02-30 10:00:00', '2022-13-01 10:00:00', '2022-03-05 25:00:00']) {
        expect(convertAll(parse([entry({ update_time: time })]))[0]).toEqual({
          kind: 'error',
          message: `music_id 25001: update_time '${time}' is not a real date.`,
        });
      }
    });
  });

  describe('whole-file rules (400 naming the index, nothing imported)', () => {
    it.each([
      ['invalid JSON', () => parseText('[{'), /^The scoreData file is not valid JSON/],
      ['an object', () => parse({ scores: [] }), /^A MER export must be a JSON array of scores\.$/],
      ['a number', () => parse(5), /JSON array/],
      ['an entry that is no object', () => parse([EXAMPLE, 5]), /expected object.*\[Index 1\]$/],
      ['a missing music_id', () => parse([entry({ music_id: undefined })]), /^music_id: .*\[Index 0\]$/],
      ['a negative music_id', () => parse([entry({ music_id: -5 })]), /^music_id: .*\[Index 0\]$/],
      ['a fractional music_id', () => parse([entry({ music_id: 1.5 })]), /^music_id: /],
      ['a music_id as a string', () => parse([entry({ music_id: '25001' })]), /^music_id: /],
      ['an unknown play_type', () => parse([entry({ play_type: 'SP' })]), /^play_type: .*\[Index 0\]$/],
      ['an unknown diff_type', () => parse([entry(), entry({ diff_type: 'hyper' })]), /^diff_type: .*\[Index 1\]$/],
      ['a negative score', () => parse([entry({ score: -1 })]), /^score: /],
      ['a miss_count of -2', () => parse([entry({ miss_count: -2 })]), /^miss_count: expected a whole number ≥ 0, or -1 for none \[Index 0\]$/],
      ['an unknown clear_type', () => parse([entry({ clear_type: 'FULL COMBO' })]), /^clear_type: /],
      [
        'an update_time in another format',
        () => parse([entry({ update_time: '2022-03-05T10:00:00Z' })]),
        /^update_time: expected YYYY-MM-DD HH:MM:SS \[Index 0\]$/,
      ],
      ['JSON nested too deep', () => parseText(`${'['.repeat(70)}${']'.repeat(70)}`), /nested more than 64 levels/],
    ])('%s', (_, run, message) => {
      const r = rejection(run);
      expect(r.status).toBe(400);
      expect(r.message).toMatch(message);
    });

    it('allows extra keys, a BOM, and an empty array', () => {
      expect(parse([entry({ chart_id: 'x', notes: 5 })]).items).toHaveLength(1);
      expect(parseText(`\uFEFF${JSON.stringify([EXAMPLE])}`).items).toHaveLength(1);
      expect(parse([]).items).toEqual([]);
    });

    it('refuses more scores than IMPORT_MAX_SCORES with a 413', () => {
      expect(rejection(() => parse([EXAMPLE, EXAMPLE, EXAMPLE], {}, 2))).toEqual({
        status: 413,
        message: 'This file has 3 scores; the limit is 2 per import. Split it into several files.',
      });
    });

    it('parses a queued import from its stored input exactly as the request', () => {
      const input = merIidx.read({ file: Buffer.from(JSON.stringify([entry({ play_type: 'SINGLE' }), EXAMPLE]), 'utf8'), fields: {} });
      const stored = JSON.parse(JSON.stringify(input)) as unknown;
      expect(merIidx.parse(stored, { maxScores: 10 })).toEqual(merIidx.parse(input, { maxScores: 10 }));
      expect(merIidx.parse(stored, { maxScores: 10 }).gpt.playtype).toBe('SP');
    });

    it('needs the file', () => {
      expect(() => merIidx.read({ fields: {} })).toThrow(/multipart field 'scoreData'/);
    });
  });

  describe('files that mix SP and DP', () => {
    const mixed = [entry({ play_type: 'SINGLE' }), entry(), entry({ play_type: 'SINGLE', diff_type: 'ANOTHER' })];

    it('gives each score its own playtype, and the import that of the first score', () => {
      const parsed = parse(mixed);
      expect(parsed.gpt.playtype).toBe('SP');
      expect(convertAll(parsed).map((c) => c.kind === 'score' && c.playtype)).toEqual(['SP', 'DP', 'SP']);
      expect(parse([entry(), ...mixed]).gpt.playtype).toBe('DP');
    });

    it('ignores the form field playtype, which once chose one', () => {
      expect(parse(mixed, { playtype: 'DP' })).toEqual(parse(mixed));
    });

    it('an empty file is an import of nothing, as SP', () => {
      expect(parse([]).gpt.playtype).toBe('SP');
    });
  });

  describe('property: random and truncated input', () => {
    function rng(seed: number) {
      let s = seed >>> 0;
      return () => {
        s = (s * 1664525 + 1013904223) >>> 0;
        return s / 2 ** 32;
      };
    }
    const values = [
      null,
      -1,
      0,
      1.5,
      25001,
      2 ** 60,
      '',
      'SINGLE',
      'DOUBLE',
      'HYPER',
      'BEGINNER',
      'CLEAR',
      '2022-02-30 10:00:00',
      '2022-03-05 10:00:00',
      [],
      {},
      true,
    ];

    it('only ever rejects with a 4xx or converts each entry to a score, an error or a skip', () => {
      const good = JSON.stringify([EXAMPLE, entry({ play_type: 'SINGLE' })]);
      const inputs: string[] = [];
      for (let cut = 0; cut <= good.length; cut++) inputs.push(good.slice(0, cut));
      const next = rng(3);
      const pick = <T>(list: T[]) => list[Math.floor(next() * list.length)];
      for (let n = 0; n < 400; n++) {
        const e: Record<string, unknown> = { ...EXAMPLE };
        for (const key of Object.keys(EXAMPLE)) if (next() < 0.25) e[key] = pick(values);
        inputs.push(JSON.stringify(next() < 0.9 ? [e] : e));
      }
      for (const text of inputs) {
        let parsed: ParsedImport<MerScore>;
        try {
          parsed = parseText(text);
        } catch (err) {
          expect(err).toBeInstanceOf(HttpException);
          const status = (err as HttpException).getStatus();
          expect(status >= 400 && status < 500).toBe(true);
          continue;
        }
        for (const c of convertAll(parsed)) {
          expect(['score', 'error', 'skip']).toContain(c.kind);
          if (c.kind === 'score') validateScoreElement(c.element, 0, IIDX.gpts[c.playtype as 'SP' | 'DP'], Date.now());
        }
      }
    });
  });
});
