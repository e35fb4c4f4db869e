import { describe, expect, it } from '@jest/globals';
import { SDVX } from '../../../src/game-support/sdvx/index.js';
import { ImportRejectedError } from '../../../src/imports/import-errors.js';
import { irBarbatos } from '../../../src/imports/import-types/barbatos/barbatos.type.js';
import { validateScoreElement } from '../../../src/imports/score-element.js';
import { sdvx5, sdvx6 } from '../../fixtures/imports/sdvx-hooks/payloads.js';

const T = Date.UTC(2024, 2, 1, 20);

const parse = (body: unknown, timeReceived = T) => irBarbatos.parse({ timeReceived, body }, { maxScores: 100 });

function convert(body: unknown) {
  const parsed = parse(body);
  expect(parsed.items).toHaveLength(1);
  const converted = irBarbatos.convert(parsed.items[0], parsed);
  if (converted.kind !== 'score') throw new Error(`expected a score, got ${JSON.stringify(converted)}`);
  return converted.element as Record<string, unknown>;
}

function rejection(body: unknown): ImportRejectedError {
  try {
    parse(body);
  } catch (err) {
    expect(err).toBeInstanceOf(ImportRejectedError);
    return err as ImportRejectedError;
  }
  throw new Error(`accepted: ${JSON.stringify(body)}`);
}

describe('ir/barbatos', () => {
  it('reads the body with the time it arrived', () => {
    const before = Date.now();
    const input = irBarbatos.read({ body: { a: 1 }, fields: {} }) as { timeReceived: number; body: unknown };
    expect(input.body).toEqual({ a: 1 });
    expect(input.timeReceived).toBeGreaterThanOrEqual(before);
    expect(input.timeReceived).toBeLessThanOrEqual(Date.now());
  });

  describe('SDVX5 (VIVID WAVE) payloads', () => {
    it('are version vivid, service "Barbatos (vivid)", sdvx Single', () => {
      const parsed = parse(sdvx5());
      expect(parsed.gpt).toBe(SDVX.gpts.Single);
      expect(parsed.context).toEqual({ service: 'Barbatos (vivid)', version: 'vivid' });
      expect(parsed.classes).toEqual({});
    });

    it('map to the element: judgements, fast/slow, gauge, skill analyser, no EX score, the receive time', () => {
      expect(convert(sdvx5())).toEqual({
        matchType: 'sdvxInGameID',
        identifier: '1500',
        difficulty: 'MXM',
        score: 9_612_345,
        lamp: 'EXCESSIVE CLEAR',
        timeAchieved: T,
        judgements: { critical: 1300, near: 60, miss: 12 },
        optional: { fast: 35, slow: 25, maxCombo: 1402, gauge: 73.5, exScore: null },
        scoreMeta: { inSkillAnalyser: true },
      });
    });

    it('do not use did_fail, level or gauge_type', () => {
      expect(convert(sdvx5({ did_fail: true, level: 1, gauge_type: 3 }))).toEqual(convert(sdvx5()));
    });
  });

  describe('SDVX6 (EXCEED GEAR) payloads, told apart by ex_score', () => {
    it('are version exceed, service "Barbatos (exceed)"', () => {
      expect(parse(sdvx6()).context).toEqual({ service: 'Barbatos (exceed)', version: 'exceed' });
    });

    it('sum early, S and late criticals; near is chip_near; miss is early + late errors; fast/slow are early/late nears', () => {
      expect(convert(sdvx6())).toEqual({
        matchType: 'sdvxInGameID',
        identifier: '1500',
        difficulty: 'EXH',
        score: 9_900_000,
        lamp: 'CLEAR',
        timeAchieved: T,
        judgements: { critical: 1050, near: 11, miss: 3 },
        optional: { fast: 7, slow: 4, maxCombo: 1200, gauge: 82, exScore: 3210 },
        scoreMeta: { inSkillAnalyser: null },
      });
    });

    it('accept any grade value (unused)', () => {
      expect(convert(sdvx6({ grade: 'S' }))).toEqual(convert(sdvx6()));
      expect(convert(sdvx6({ grade: null }))).toEqual(convert(sdvx6()));
    });
  });

  it.each([
    [0, 'NOV'],
    [1, 'ADV'],
    [2, 'EXH'],
    [3, 'ANY_INF'],
    [4, 'MXM'],
  ])('difficulty %i is %s (0 is accepted, unlike Tachi at first)', (index, difficulty) => {
    expect(convert(sdvx5({ difficulty: index })).difficulty).toBe(difficulty);
    expect(convert(sdvx6({ difficulty: index })).difficulty).toBe(difficulty);
  });

  it.each([
    [1, 'FAILED'],
    [2, 'CLEAR'],
    [3, 'EXCESSIVE CLEAR'],
    [4, 'ULTIMATE CHAIN'],
    [5, 'PERFECT ULTIMATE CHAIN'],
  ])('clear_type %i is %s', (clearType, lamp) => {
    expect(convert(sdvx5({ clear_type: clearType })).lamp).toBe(lamp);
    expect(convert(sdvx6({ clear_type: clearType })).lamp).toBe(lamp);
  });

  it('gives elements the shared validation accepts for sdvx Single', () => {
    for (const body of [sdvx5(), sdvx6(), sdvx5({ difficulty: 3 }), sdvx6({ clear_type: 5, score: 10_000_000, chip_near: 0, early_error: 0, late_error: 0 })]) {
      const v = validateScoreElement(convert(body), 0, SDVX.gpts.Single, T);
      expect(v).toMatchObject({ ok: true });
    }
  });

  it('leaves a negative SDVX6 EX score to the shared validation, which rejects only that score', () => {
    const v = validateScoreElement(convert(sdvx6({ ex_score: -1 })), 0, SDVX.gpts.Single, T);
    expect(v).toMatchObject({ ok: false, message: expect.stringMatching(/exScore/) });
  });

  describe('a malformed payload rejects the import with a 400 naming the field', () => {
    const cases: [string, unknown, RegExp][] = [
      ['not an object', 'score', /SDVX5 \(VIVID WAVE\) score: body: /],
      ['null', null, /SDVX5/],
      ['an array', [sdvx6()], /SDVX5/],
      ['an unknown key (SDVX5)', sdvx5({ extra: 1 }), /Unrecognized key.*extra/],
      ['an unknown key (SDVX6)', sdvx6({ extra: 1 }), /SDVX6 \(EXCEED GEAR\) score: .*Unrecognized key.*extra/],
      ['SDVX5 keys beside ex_score', sdvx6({ did_fail: false }), /SDVX6.*did_fail/],
      ['no did_fail', sdvx5({ did_fail: undefined }), /did_fail/],
      ['did_fail not a boolean', sdvx5({ did_fail: 0 }), /did_fail/],
      ['no chip_near (SDVX6)', sdvx6({ chip_near: undefined }), /chip_near/],
      ['difficulty 5', sdvx5({ difficulty: 5 }), /difficulty/],
      ['difficulty -1', sdvx6({ difficulty: -1 }), /difficulty/],
      ['difficulty 1.5', sdvx5({ difficulty: 1.5 }), /difficulty/],
      ['level 0', sdvx5({ level: 0 }), /level/],
      ['level 21', sdvx6({ level: 21 }), /level/],
      ['score above 10,000,000', sdvx5({ score: 10_000_001 }), /score/],
      ['a negative score', sdvx6({ score: -1 }), /score/],
      ['a score as a string', sdvx5({ score: '9000000' }), /score/],
      ['percent above 100', sdvx5({ percent: 100.5 }), /percent/],
      ['clear_type 0', sdvx5({ clear_type: 0 }), /clear_type/],
      ['clear_type 6', sdvx6({ clear_type: 6 }), /clear_type/],
      ['gauge_type 4', sdvx5({ gauge_type: 4 }), /gauge_type/],
      ['a negative song_id', sdvx5({ song_id: -3 }), /song_id/],
      ['a negative judgement', sdvx5({ critical: -1 }), /critical/],
      ['a fractional ex_score', sdvx6({ ex_score: 1.5 }), /ex_score/],
      ['a negative max_chain', sdvx6({ max_chain: -1 }), /max_chain/],
    ];
    it.each(cases)('%s', (_name, body, message) => {
      const err = rejection(body);
      expect(err.getStatus()).toBe(400);
      expect(err.message).toMatch(message);
    });
  });

  it('random and truncated payloads are either a score or a 400, never another error', () => {
    let seed = 42;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)];
    const values = [0, 1, -1, 3, 1.5, 10_000_001, 'x', null, true, [], {}];
    const outcomes = new Set<string>();
    for (let i = 0; i < 500; i++) {
      const body: Record<string, unknown> = i % 2 ? sdvx5() : sdvx6();
      const keys = Object.keys(body);
      const r = random();
      if (r < 0.3) for (const key of keys.slice(Math.floor(random() * keys.length))) delete body[key];
      else if (r < 0.9) for (let j = 0; j < 3; j++) body[pick(keys)] = pick(values);
      try {
        const parsed = parse(body);
        expect(irBarbatos.convert(parsed.items[0], parsed).kind).toBe('score');
        outcomes.add('score');
      } catch (err) {
        expect(err).toBeInstanceOf(ImportRejectedError);
        expect((err as ImportRejectedError).getStatus()).toBe(400);
        outcomes.add('400');
      }
    }
    expect(outcomes).toEqual(new Set(['score', '400']));
  });
});
