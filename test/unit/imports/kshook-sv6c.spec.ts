import { describe, expect, it } from '@jest/globals';
import { BadRequestException } from '@nestjs/common';
import { SDVX } from '../../../src/game-support/sdvx/index.js';
import { ImportRejectedError } from '../../../src/imports/import-errors.js';
import { assertKshookHeaders } from '../../../src/ir/kshook/kshook.http.js';
import { irKshookSv6cStatic } from '../../../src/imports/import-types/kshook-sv6c-static/kshook-sv6c-static.type.js';
import { irKshookSv6c } from '../../../src/imports/import-types/kshook-sv6c/kshook-sv6c.type.js';
import type { ConvertedItem, ImportType } from '../../../src/imports/import-types/types.js';
import { validateScoreElement } from '../../../src/imports/score-element.js';
import { kshookExportEntry, kshookSave } from '../../fixtures/imports/sdvx-hooks/payloads.js';

const T = Date.UTC(2024, 2, 1, 20);

const parseSave = (body: unknown) => irKshookSv6c.parse({ timeReceived: T, body }, { maxScores: 100 });
const parseExport = (body: unknown, maxScores = 100) => irKshookSv6cStatic.parse(body, { maxScores });

function convertAll<I>(type: ImportType<I>, parsed: ReturnType<ImportType<I>['parse']>): ConvertedItem[] {
  return parsed.items.map((item) => type.convert(item, parsed));
}
const saved = (over: Record<string, unknown> = {}) => convertAll(irKshookSv6c, parseSave(kshookSave(over)))[0];
const exported = (over: Record<string, unknown> = {}) => convertAll(irKshookSv6cStatic, parseExport({ scores: [kshookExportEntry(over)] }))[0];
const element = (c: ConvertedItem) => {
  if (c.kind !== 'score') throw new Error(`expected a score, got ${JSON.stringify(c)}`);
  return c.element as Record<string, unknown>;
};

function rejection(parse: () => unknown): ImportRejectedError {
  try {
    parse();
  } catch (err) {
    expect(err).toBeInstanceOf(ImportRejectedError);
    return err as ImportRejectedError;
  }
  throw new Error('accepted');
}

describe('kshook headers', () => {
  const MODEL = 'QCV:J:B:A:2023010100';
  it('accepts a kshook User-Agent and a Konaste SDVX software model', () => {
    expect(() => assertKshookHeaders('kshook/1.2.0', MODEL)).not.toThrow();
  });
  it.each([
    ['no User-Agent', undefined, MODEL, /User-Agent must start with 'kshook\/'/],
    ['another User-Agent', 'fervidex/1.3.0', MODEL, /User-Agent must start with 'kshook\/'/],
    ['a User-Agent that only contains kshook', 'not-kshook/1.0', MODEL, /User-Agent/],
    ['no X-Software-Model', 'kshook/1.0', undefined, /X-Software-Model header is required/],
    ['a malformed X-Software-Model', 'kshook/1.0', 'QCV:J:B:A', /Invalid X-Software-Model 'QCV:J:B:A'/],
    ['lower case', 'kshook/1.0', 'qcv:j:b:a:2023010100', /Invalid X-Software-Model/],
    ['a short date code', 'kshook/1.0', 'QCV:J:B:A:202301010', /Invalid X-Software-Model/],
    ['another model (the arcade SDVX)', 'kshook/1.0', 'KFC:J:A:A:2022083000', /Unsupported software model KFC/],
    ['an IIDX model', 'kshook/1.0', 'LDJ:J:B:A:2021091500', /Unsupported software model LDJ/],
  ])('refuses %s with a 400', (_name, userAgent, model, message) => {
    let thrown: unknown;
    try {
      assertKshookHeaders(userAgent, model);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(BadRequestException);
    expect((thrown as BadRequestException).message).toMatch(message);
  });
});

describe('ir/kshook-sv6c (score/save)', () => {
  it('is one sdvx Single score in version konaste, service "kshook SV6C"', () => {
    const parsed = parseSave(kshookSave());
    expect(parsed.gpt).toBe(SDVX.gpts.Single);
    expect(parsed.context).toEqual({ service: 'kshook SV6C', version: 'konaste' });
    expect(parsed.items).toHaveLength(1);
  });

  it('maps the body onto the element; gauge is in hundredths of a percent; the time is the receive time', () => {
    expect(element(saved())).toEqual({
      matchType: 'sdvxInGameID',
      identifier: '1500',
      difficulty: 'ANY_INF',
      score: 9_950_000,
      lamp: 'EXCESSIVE CLEAR',
      timeAchieved: T,
      judgements: { critical: 1180, near: 15, miss: 5 },
      optional: { maxCombo: 1200, exScore: 3000, gauge: 84.37 },
    });
  });

  it('reads the body with the time it arrived', () => {
    const before = Date.now();
    const input = irKshookSv6c.read({ body: kshookSave(), fields: {} }) as { timeReceived: number; body: unknown };
    expect(input.timeReceived).toBeGreaterThanOrEqual(before);
    expect(input.body).toEqual(kshookSave());
  });

  it('allows keys it does not know, and ignores grade, rate, track_no and retry_count', () => {
    expect(element(saved({ newer_field: [1, 2], grade: 'GRADE_D', rate: 'RATE_BLASTIVE', track_no: 0, retry_count: 'x' }))).toEqual(element(saved()));
  });

  it('gives an element the shared validation accepts', () => {
    expect(validateScoreElement(element(saved()), 0, SDVX.gpts.Single, T)).toMatchObject({ ok: true });
  });

  it.each([
    ['no score', { score: undefined }, /score/],
    ['a score above 10M', { score: 10_000_001 }, /score/],
    ['a gauge above 10000', { gauge: 10_001 }, /gauge/],
    ['a fractional gauge', { gauge: 50.5 }, /gauge/],
    ['an unknown difficulty', { difficulty: 'DIFFICULTY_GRAVITY' }, /difficulty/],
    ['an unknown grade', { grade: 'GRADE_SSS' }, /grade/],
    ['an unknown rate', { rate: 'RATE_HARD' }, /rate/],
    ['a negative near', { near: -1 }, /near/],
    ['no error count', { error: undefined }, /error/],
    ['a music_id as a string', { music_id: '1500' }, /music_id/],
    ['a fractional track_no', { track_no: 1.5 }, /track_no/],
    ['clear not a string', { clear: 3 }, /clear/],
  ])('%s rejects the import with a 400 in the error', (_name, over, message) => {
    const err = rejection(() => parseSave(kshookSave(over)));
    expect(err.getStatus()).toBe(400);
    expect(err.message).toMatch(/^Invalid kshook score: /);
    expect(err.message).toMatch(message);
  });

  it.each([
    ['not an object', 'x'],
    ['null', null],
    ['an array', [kshookSave()]],
  ])('a body that is %s is a 400', (_name, body) => {
    expect(rejection(() => parseSave(body)).getStatus()).toBe(400);
  });
});

describe('the kshook tables, both routes', () => {
  it.each([
    ['CLEAR_PLAYED', 'FAILED'],
    ['CLEAR_EFFECTIVE', 'CLEAR'],
    ['CLEAR_EXCESSIVE', 'EXCESSIVE CLEAR'],
    ['CLEAR_MAXXIVE', 'MAXXIVE CLEAR'],
    ['CLEAR_ULTIMATE_CHAIN', 'ULTIMATE CHAIN'],
    ['CLEAR_PERFECT', 'PERFECT ULTIMATE CHAIN'],
  ])('clear %s is %s', (clear, lamp) => {
    expect(element(saved({ clear })).lamp).toBe(lamp);
    expect(element(exported({ clear })).lamp).toBe(lamp);
  });

  it('an unknown clear rejects only that score', () => {
    for (const c of [saved({ clear: 'CLEAR_NONE' }), exported({ clear: 'CLEAR_NONE' })]) {
      expect(c).toEqual({ kind: 'error', message: expect.stringMatching(/^Unknown clear 'CLEAR_NONE': expected one of CLEAR_PLAYED, /) });
    }
    // Not an inherited name either.
    expect(saved({ clear: 'constructor' }).kind).toBe('error');
  });

  it.each([
    ['DIFFICULTY_NOVICE', 'NOV'],
    ['DIFFICULTY_ADVANCED', 'ADV'],
    ['DIFFICULTY_EXHAUST', 'EXH'],
    ['DIFFICULTY_INFINITE', 'ANY_INF'],
    ['DIFFICULTY_MAXIMUM', 'MXM'],
  ])('difficulty %s is %s', (difficulty, expected) => {
    expect(element(saved({ difficulty })).difficulty).toBe(expected);
    expect(element(exported({ difficulty })).difficulty).toBe(expected);
  });

  it.each(['GRADE_D', 'GRADE_C', 'GRADE_B', 'GRADE_A', 'GRADE_A_PLUS', 'GRADE_AA', 'GRADE_AA_PLUS', 'GRADE_AAA', 'GRADE_AAA_PLUS', 'GRADE_S'])(
    'grade %s is accepted',
    (grade) => {
      expect(saved({ grade }).kind).toBe('score');
      expect(exported({ grade }).kind).toBe('score');
    },
  );

  it.each(['RATE_EFFECTIVE', 'RATE_PERMISSIVE', 'RATE_EXCESSIVE', 'RATE_BLASTIVE', 'RATE_MAXXIVE'])('rate %s is accepted', (rate) => {
    expect(saved({ rate }).kind).toBe('score');
  });
});

describe('ir/kshook-sv6c-static (score/export)', () => {
  it('is sdvx Single in version konaste, service "kshook SV6C Static"', () => {
    const parsed = parseExport({ scores: [kshookExportEntry()] });
    expect(parsed.context).toEqual({ service: 'kshook SV6C Static', version: 'konaste' });
    expect(parsed.gpt).toBe(SDVX.gpts.Single);
  });

  it("maps the reference's worked example: no judgements, max chain and EX score, timestamp seconds × 1000", () => {
    expect(element(exported())).toEqual({
      matchType: 'sdvxInGameID',
      identifier: '1500',
      difficulty: 'ANY_INF',
      score: 9_950_000,
      lamp: 'EXCESSIVE CLEAR',
      timeAchieved: 1_700_000_000_000,
      optional: { maxCombo: 1200, exScore: 3000 },
    });
    expect(new Date(1_700_000_000_000).toISOString()).toBe('2023-11-14T22:13:20.000Z');
  });

  it('stores the body as it came (its times are its own)', () => {
    const body = { scores: [kshookExportEntry()] };
    expect(irKshookSv6cStatic.read({ body, fields: {} })).toBe(body);
  });

  it('converts each entry on its own, in order', () => {
    const parsed = parseExport({ scores: [kshookExportEntry(), kshookExportEntry({ clear: 'CLEAR_NONE' }), kshookExportEntry({ music_id: 7 })] });
    expect(convertAll(irKshookSv6cStatic, parsed).map((c) => c.kind)).toEqual(['score', 'error', 'score']);
  });

  it('an empty export is no error', () => {
    expect(parseExport({ scores: [] }).items).toEqual([]);
  });

  it.each([
    ['not an object', 'x', /^Invalid kshook export: body: /],
    ['no scores', {}, /scores/],
    ['scores not an array', { scores: {} }, /scores/],
    ['an entry that is not an object', { scores: [kshookExportEntry(), 5] }, /scores\[1\]: body: /],
    ['an entry without timestamp', { scores: [kshookExportEntry({ timestamp: undefined })] }, /scores\[0\]: timestamp/],
    ['a negative timestamp', { scores: [kshookExportEntry({ timestamp: -1 })] }, /scores\[0\]: timestamp/],
    ['a timestamp as a string', { scores: [kshookExportEntry({ timestamp: '1700000000' })] }, /timestamp/],
    ['a bad difficulty in a later entry', { scores: [kshookExportEntry(), kshookExportEntry({ difficulty: 'EXH' })] }, /scores\[1\]: difficulty/],
    ['a score above 10M', { scores: [kshookExportEntry({ score: 10_000_001 })] }, /scores\[0\]: score/],
  ])('%s rejects the whole export with a 400', (_name, body, message) => {
    const err = rejection(() => parseExport(body));
    expect(err.getStatus()).toBe(400);
    expect(err.message).toMatch(message);
  });

  it('more entries than IMPORT_MAX_SCORES is a 413', () => {
    const err = rejection(() => parseExport({ scores: [kshookExportEntry(), kshookExportEntry()] }, 1));
    expect(err.getStatus()).toBe(413);
    expect(err.message).toMatch(/has 2 scores; the limit is 1/);
  });

  it('a timestamp of 0 gives no time; an old one is refused by the shared validation, for that score only', () => {
    expect(validateScoreElement(element(exported({ timestamp: 0 })), 0, SDVX.gpts.Single, T)).toMatchObject({ ok: true, candidate: { timeAchieved: null } });
    expect(validateScoreElement(element(exported({ timestamp: 999_999_999 })), 0, SDVX.gpts.Single, T)).toMatchObject({ ok: false });
  });
});

describe('random and truncated kshook bodies are either parsed or a 400, never another error', () => {
  let seed = 7;
  const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  const values = [0, -1, 1.5, 10_000_001, 'CLEAR_PERFECT', 'DIFFICULTY_NOVICE', 'x', null, true, [], {}];
  const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)];
  /** Truncated (keys dropped from a random point on), up to three values replaced, or left as it is. */
  const mutate = (base: Record<string, unknown>) => {
    const body = { ...base };
    const keys = Object.keys(body);
    const r = random();
    if (r < 0.3) for (const key of keys.slice(Math.floor(random() * keys.length))) delete body[key];
    else if (r < 0.9) for (let j = 0; j < 3; j++) body[pick(keys)] = pick(values);
    return body;
  };
  const outcomes = new Set<string>();
  const check = (run: () => ConvertedItem[]) => {
    try {
      for (const c of run()) {
        expect(['score', 'error']).toContain(c.kind);
        outcomes.add(c.kind);
      }
    } catch (err) {
      expect(err).toBeInstanceOf(ImportRejectedError);
      expect((err as ImportRejectedError).getStatus()).toBe(400);
      outcomes.add('400');
    }
  };
  it('score/save', () => {
    outcomes.clear();
    for (let i = 0; i < 300; i++) check(() => convertAll(irKshookSv6c, parseSave(mutate(kshookSave()))));
    expect(outcomes).toEqual(new Set(['score', 'error', '400']));
  });
  it('score/export', () => {
    outcomes.clear();
    for (let i = 0; i < 300; i++) {
      const scores = Array.from({ length: 1 + (i % 3) }, () => (random() < 0.5 ? kshookExportEntry() : mutate(kshookExportEntry())));
      check(() => convertAll(irKshookSv6cStatic, parseExport(random() < 0.1 ? mutate({ scores }) : { scores })));
    }
    expect([...outcomes]).toEqual(expect.arrayContaining(['score', '400']));
  });
});
