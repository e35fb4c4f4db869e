import { describe, expect, it } from '@jest/globals';
import { IIDX } from '../../../src/game-support/iidx/index.js';
import { ImportRejectedError } from '../../../src/imports/import-errors.js';
import { checkUserAgent, gameBuildOf } from '../../../src/imports/import-types/fervidex/headers.js';
import { CHART_CODES, danOfIndex, LAMPS, scoreMetaOf, splitChartCode } from '../../../src/imports/import-types/fervidex/mapping.js';
import { convertFervidexScore, irFervidex, parseFervidexScore, type FervidexItem } from '../../../src/imports/import-types/fervidex/score.js';
import { convertStaticScore, irFervidexStatic, parseFervidexStatic } from '../../../src/imports/import-types/fervidex/static.js';
import { validateScoreElement } from '../../../src/imports/score-element.js';

const UA = 'fervidex/1.3.0';
const MODEL = 'LDJ:J:B:A:2021091500';
const T = 1_700_000_000_000;

/** The reference's worked example (§2.1). */
const EXAMPLE = {
  chart: 'spa',
  entry_id: 28001,
  pgreat: 900,
  great: 150,
  good: 10,
  bad: 3,
  poor: 7,
  fast: 40,
  slow: 30,
  combo_break: 5,
  ex_score: 1950,
  clear_type: 5,
  gauge: [80, 75, 255, 62],
  ghost: [],
  option: { style: 'RANDOM' },
};

const input = (body: unknown, extra: Record<string, unknown> = {}) => ({ userAgent: UA, softwareModel: MODEL, receivedAt: T, body, ...extra });

/** The rejection message of a call, or undefined when it passes. Anything else than ImportRejectedError fails the test. */
function rejection(fn: () => unknown): { status: number; message: string } | undefined {
  try {
    fn();
    return undefined;
  } catch (err) {
    if (!(err instanceof ImportRejectedError)) throw err;
    return { status: err.getStatus(), message: err.message };
  }
}

/** Parses and converts one play; the element it becomes. */
function elementOf(body: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  const parsed = parseFervidexScore(input(body, extra));
  return irFervidex.convert(parsed.items[0], parsed);
}

describe('User-Agent', () => {
  it.each([
    ['fervidex/1.3.0'],
    ['fervidex/1.3.1'],
    ['fervidex/1.10.0'],
    ['fervidex/1.3.0.5'],
    ['fervidex/01.03.000'],
    ['fervidex/2.0.0'],
    ['fervidex/2.1.0'],
    ['fervidex/0.1.0'],
  ])('accepts %s', (ua) => {
    expect(rejection(() => checkUserAgent(ua))).toBeUndefined();
  });

  it.each([
    [null, /Invalid User-Agent/],
    ['', /Invalid User-Agent/],
    ['Mozilla/5.0', /Invalid User-Agent/],
    ['Fervidex/1.3.0', /Invalid User-Agent/],
    ['fervidex', /Invalid User-Agent/],
    ['fervidex/', /Invalid fervidex version ''/],
    ['fervidex/1.3', /Invalid fervidex version '1\.3'/],
    ['fervidex/1', /Invalid fervidex version/],
    ['fervidex/1.3.0-beta', /Invalid fervidex version/],
    ['fervidex/1.a.0', /Invalid fervidex version/],
    ['fervidex/1..0', /Invalid fervidex version/],
    ['fervidex/ 1.3.0', /Invalid fervidex version/],
    ['fervidex/1.2.9', /^Versions of fervidex < 1\.3\.0 are not supported\.$/],
    ['fervidex/1.0.0', /^Versions of fervidex < 1\.3\.0 are not supported\.$/],
    ['fervidex/1.2.99.1', /^Versions of fervidex < 1\.3\.0 are not supported\.$/],
  ])('refuses %p', (ua, message) => {
    const r = rejection(() => checkUserAgent(ua));
    expect(r?.status).toBe(400);
    expect(r?.message).toMatch(message);
  });
});

describe('X-Software-Model → version', () => {
  // [date codes, rev A, rev X, rev E]; undefined: that build does not exist.
  const table: [string[], string, string | undefined, string | undefined][] = [
    [['2018091900'], '25', undefined, undefined],
    [['2019090200', '2019100700'], '26', '26-omni', undefined],
    [['2020092900'], '27', '27-omni', '27-2dxtra'],
    [['2021091500'], '28', '28-omni', '28-2dxtra'],
    [['2022082400'], '29', '29-omni', undefined],
    [['2022103100', '2022120800', '2023022000', '2023040400', '2023090500'], '30', '30-omni', '30-2dxtra'],
    [['2023101800', '2023103000', '2023121800', '2024021300', '2024082600'], '31', '31-omni', '31-2dxtra'],
    [['2025011400', '2025032500', '2025041500', '2025072900', '2025082500'], '32', '32-omni', undefined],
  ];
  const cases = table.flatMap(([exts, a, x, e]) =>
    exts.flatMap((ext) =>
      ['LDJ', 'TDJ'].flatMap((model) =>
        (
          [
            ['A', a],
            ['X', x],
            ['E', e],
          ] as const
        ).map(([rev, version]) => [`${model}:J:B:${rev}:${ext}`, version] as const),
      ),
    ),
  );

  it.each(cases.filter(([, v]) => v !== undefined))('%s is version %s, a version of the IIDX GPTs', (model, version) => {
    expect(gameBuildOf(model)).toEqual({ version, infinitas: false });
    expect(Object.keys(IIDX.gpts.SP.versions)).toContain(version);
    expect(Object.keys(IIDX.gpts.DP.versions)).toContain(version);
  });

  it.each(cases.filter(([, v]) => v === undefined))('%s (no such build) is unsupported', (model) => {
    expect(rejection(() => gameBuildOf(model))).toEqual({ status: 400, message: `Unsupported Software Model ${model}.` });
  });

  it.each(['P2D:J:B:A:2022010100', 'P2D:J:A:X:2099123100', 'P2D:K:B:E:0000000000'])('%s (INFINITAS) is always inf', (model) => {
    expect(gameBuildOf(model)).toEqual({ version: 'inf', infinitas: true });
  });

  it.each([
    ['LDJ:J:B:Z:2021091500', /^2DX_BMS is not supported\.$/],
    ['P2D:J:B:Z:2021091500', /^2DX_BMS is not supported\.$/],
    ['LDJ:J:B:B:2021091500', /^Unsupported Software Model LDJ:J:B:B:2021091500\.$/],
    ['LDJ:J:B:A:2021091501', /^Invalid extension 2021091501/],
    ['TDJ:J:B:A:2017000000', /^Invalid extension 2017000000/],
    ['KFC:J:A:A:2021091500', /^Unsupported Software Model KFC:J:A:A:2021091500: KFC is not an IIDX model/],
    [null, /X-Software-Model header is required/],
    ['', /Invalid X-Software-Model ''/],
    ['LDJ:J:B:A:202109150', /Invalid X-Software-Model/],
    ['LDJ:J:B:A:20210915000', /Invalid X-Software-Model/],
    ['ldj:J:B:A:2021091500', /Invalid X-Software-Model/],
    ['LDJ:j:B:A:2021091500', /Invalid X-Software-Model/],
    ['LDJ:J:B:1:2021091500', /Invalid X-Software-Model/],
    ['LDJ:J:B:A', /Invalid X-Software-Model/],
    ['LDJJ:J:B:A:2021091500', /Invalid X-Software-Model/],
    ['LDJ-J-B-A-2021091500', /Invalid X-Software-Model/],
    [' LDJ:J:B:A:2021091500', /Invalid X-Software-Model/],
  ])('refuses %p', (model, message) => {
    const r = rejection(() => gameBuildOf(model));
    expect(r?.status).toBe(400);
    expect(r?.message).toMatch(message);
  });

  it('checks the User-Agent before the model, and both before the body', () => {
    expect(rejection(() => parseFervidexScore({ ...input('nonsense'), userAgent: 'x', softwareModel: 'y' }))?.message).toMatch(/User-Agent/);
    expect(rejection(() => parseFervidexScore({ ...input('nonsense'), softwareModel: 'y' }))?.message).toMatch(/X-Software-Model/);
    expect(rejection(() => parseFervidexScore(input('nonsense')))?.message).toMatch(/^Invalid Fervidex Request\?/);
  });
});

describe('mapping tables', () => {
  it('maps clear_type 0–7 to the IIDX lamps, each one a lamp of the GPT', () => {
    expect([...LAMPS]).toEqual(['NO PLAY', 'FAILED', 'ASSIST CLEAR', 'EASY CLEAR', 'CLEAR', 'HARD CLEAR', 'EX HARD CLEAR', 'FULL COMBO']);
    for (const lamp of LAMPS) expect(IIDX.gpts.SP.lamps).toContain(lamp);
  });

  it('splits every chart code into playtype and difficulty', () => {
    expect(CHART_CODES.map((c) => [c, splitChartCode(c)])).toEqual([
      ['spb', { playtype: 'SP', difficulty: 'BEGINNER' }],
      ['spn', { playtype: 'SP', difficulty: 'NORMAL' }],
      ['sph', { playtype: 'SP', difficulty: 'HYPER' }],
      ['spa', { playtype: 'SP', difficulty: 'ANOTHER' }],
      ['spl', { playtype: 'SP', difficulty: 'LEGGENDARIA' }],
      ['dpb', { playtype: 'DP', difficulty: 'BEGINNER' }],
      ['dpn', { playtype: 'DP', difficulty: 'NORMAL' }],
      ['dph', { playtype: 'DP', difficulty: 'HYPER' }],
      ['dpa', { playtype: 'DP', difficulty: 'ANOTHER' }],
      ['dpl', { playtype: 'DP', difficulty: 'LEGGENDARIA' }],
    ]);
  });

  it('maps the course index 0–18 to the dans, and nothing else', () => {
    const expected = ['KYU_7', 'KYU_6', 'KYU_5', 'KYU_4', 'KYU_3', 'KYU_2', 'KYU_1'];
    for (let d = 1; d <= 10; d++) expected.push(`DAN_${d}`);
    expected.push('CHUUDEN', 'KAIDEN');
    expect(Array.from({ length: 19 }, (_, i) => danOfIndex(i))).toEqual(expected);
    for (const bad of [-1, 19, 1.5, Number.NaN, 1e9]) expect(danOfIndex(bad)).toBeUndefined();
  });

  it.each([
    [undefined, 'NORMAL'],
    [null, 'NORMAL'],
    ['ASSISTED_EASY', 'ASSISTED EASY'],
    ['EASY', 'EASY'],
    ['HARD', 'HARD'],
    ['EX_HARD', 'EX-HARD'],
    ['EROSION_LV1', 'NORMAL'],
    ['EROSION_LV2', 'NORMAL'],
    ['EROSION_LV3', 'NORMAL'],
    ['EROSION_LV4', 'NORMAL'],
    ['EROSION_LV5', 'NORMAL'],
  ] as const)('option.gauge %p → %s', (gauge, expected) => {
    expect(scoreMetaOf({ gauge }, 'SP').gauge).toBe(expected);
  });

  it.each([
    [undefined, 'NONE'],
    [null, 'NONE'],
    ['SUDDEN_PLUS', 'SUDDEN+'],
    ['HIDDEN_PLUS', 'HIDDEN+'],
    ['SUD_PLUS_HID_PLUS', 'SUD+ HID+'],
    ['LIFT', 'LIFT'],
    ['LIFT_SUD_PLUS', 'LIFT SUD+'],
  ] as const)('option.range %p → %s', (range, expected) => {
    expect(scoreMetaOf({ range }, 'SP').range).toBe(expected);
  });

  it.each([
    [undefined, 'NONRAN'],
    [null, 'NONRAN'],
    ['RANDOM', 'RANDOM'],
    ['R_RANDOM', 'R-RANDOM'],
    ['S_RANDOM', 'S-RANDOM'],
    ['MIRROR', 'MIRROR'],
  ] as const)('option.style %p → %s (SP: one value; DP: one per side)', (style, expected) => {
    expect(scoreMetaOf({ style }, 'SP').random).toBe(expected);
    expect(scoreMetaOf({ style, style_2p: 'MIRROR' }, 'DP').random).toEqual([expected, 'MIRROR']);
    expect(scoreMetaOf({ style: 'MIRROR', style_2p: style }, 'DP').random).toEqual(['MIRROR', expected]);
  });

  it.each([
    [undefined, 'NO ASSIST'],
    [null, 'NO ASSIST'],
    ['AUTO_SCRATCH', 'AUTO SCRATCH'],
    ['LEGACY_NOTE', 'LEGACY NOTE'],
    ['ASCR_LEGACY', 'FULL ASSIST'],
    ['FULL_ASSIST', 'FULL ASSIST'],
  ] as const)('option.assist %p → %s', (assist, expected) => {
    expect(scoreMetaOf({ assist }, 'SP').assist).toBe(expected);
  });

  it('gives every key its default without options, and every value passes the GPT scoreMeta', () => {
    expect(scoreMetaOf(undefined, 'SP')).toEqual({ random: 'NONRAN', gauge: 'NORMAL', range: 'NONE', assist: 'NO ASSIST' });
    expect(scoreMetaOf(undefined, 'DP')).toEqual({ random: ['NONRAN', 'NONRAN'], gauge: 'NORMAL', range: 'NONE', assist: 'NO ASSIST' });
    const all = { gauge: 'EX_HARD', range: 'LIFT_SUD_PLUS', style: 'S_RANDOM', style_2p: 'R_RANDOM', assist: 'ASCR_LEGACY' } as const;
    expect(IIDX.gpts.SP.scoreMeta.safeParse(scoreMetaOf(all, 'SP')).success).toBe(true);
    expect(IIDX.gpts.DP.scoreMeta.safeParse(scoreMetaOf(all, 'DP')).success).toBe(true);
  });
});

describe('ir/fervidex: parse', () => {
  it('reads the worked example: SP, version 28 from the header, service Fervidex', () => {
    const parsed = parseFervidexScore(input(EXAMPLE));
    expect(parsed.gpt).toBe(IIDX.gpts.SP);
    expect(parsed.context).toEqual({ service: 'Fervidex', version: '28' });
    expect(parsed.classes).toEqual({});
    expect(parsed.items).toHaveLength(1);
  });

  it('takes the playtype from the chart code, and the version from the model (INFINITAS: inf)', () => {
    expect(parseFervidexScore(input({ ...EXAMPLE, chart: 'dph' })).gpt).toBe(IIDX.gpts.DP);
    expect(parseFervidexScore({ ...input(EXAMPLE), softwareModel: 'P2D:J:B:A:2022010100' }).context.version).toBe('inf');
    expect(parseFervidexScore({ ...input(EXAMPLE), softwareModel: 'TDJ:J:B:X:2023101800' }).context.version).toBe('31-omni');
  });

  it('allows keys it does not read (pacemaker, anything new)', () => {
    expect(rejection(() => parseFervidexScore(input({ ...EXAMPLE, pacemaker: { type: 'x' }, future_field: 1, max_combo: 12 })))).toBeUndefined();
  });

  const bad: [string, Record<string, unknown>, RegExp][] = [
    ['a chart code that does not exist', { chart: 'spx' }, /chart/],
    ['an upper-case chart code', { chart: 'SPA' }, /chart/],
    ['no chart', { chart: undefined }, /chart/],
    ['a negative entry_id', { entry_id: -1 }, /entry_id/],
    ['a fractional entry_id', { entry_id: 1.5 }, /entry_id/],
    ['entry_id as a string', { entry_id: '28001' }, /entry_id/],
    ['a negative judgement', { great: -1 }, /great/],
    ['no poor', { poor: undefined }, /poor/],
    ['fast as a string', { fast: '1' }, /fast/],
    ['a negative combo_break', { combo_break: -2 }, /combo_break/],
    ['a negative ex_score', { ex_score: -1 }, /ex_score/],
    ['clear_type 8', { clear_type: 8 }, /clear_type/],
    ['clear_type -1', { clear_type: -1 }, /clear_type/],
    ['no gauge', { gauge: undefined }, /gauge/],
    ['a gauge sample of 256', { gauge: [10, 256] }, /gauge\.1/],
    ['a negative gauge sample', { gauge: [-1] }, /gauge\.0/],
    ['a gauge that is no array', { gauge: 50 }, /gauge/],
    ['an unknown option', { option: { gauge: 'SUPER_HARD' } }, /option\.gauge/],
    ['an unknown random', { option: { style: 'H_RANDOM' } }, /option\.style/],
    ['an unknown range', { option: { range: 'SUDDEN' } }, /option\.range/],
    ['an unknown assist', { option: { assist: 'AUTO' } }, /option\.assist/],
    ['custom as a string', { custom: 'yes' }, /custom/],
    ['dead as a number', { dead: 5 }, /dead/],
    ['a gsm missing a gauge', { '2dx-gsm': { EASY: [], NORMAL: [], HARD: [] } }, /2dx-gsm\.EX_HARD/],
    ['highlight as a string', { highlight: 'true' }, /highlight/],
  ];
  it.each(bad)('refuses %s with a 400 naming the field', (_, change, field) => {
    const r = rejection(() => parseFervidexScore(input({ ...EXAMPLE, ...change })));
    expect(r?.status).toBe(400);
    expect(r?.message).toMatch(/^Invalid Fervidex Request\? /);
    expect(r?.message).toMatch(field);
  });

  it.each([
    ['null', null],
    ['an array', [EXAMPLE]],
    ['a string', 'spa'],
    ['an empty object', {}],
  ])('refuses a body that is %s', (_, body) => {
    expect(rejection(() => parseFervidexScore(input(body)))?.message).toMatch(/^Invalid Fervidex Request\? /);
  });
});

describe('ir/fervidex: convert', () => {
  it('converts the worked example as the reference works it out', () => {
    expect(elementOf(EXAMPLE)).toEqual({
      kind: 'score',
      element: {
        matchType: 'inGameID',
        identifier: '28001',
        difficulty: 'ANOTHER',
        score: 1950,
        lamp: 'HARD CLEAR',
        judgements: { pgreat: 900, great: 150, good: 10, bad: 3, poor: 7 },
        optional: { fast: 40, slow: 30, comboBreak: 5, bp: 10, gauge: 62, gaugeHistory: [80, 75, null, 62] },
        scoreMeta: { random: 'RANDOM', gauge: 'NORMAL', range: 'NONE', assist: 'NO ASSIST' },
        timeAchieved: T,
      },
    });
  });

  it('produces an element the IIDX GPT accepts', () => {
    const c = elementOf({ ...EXAMPLE, '2dx-gsm': { EASY: [10, 255], NORMAL: [20], HARD: [30], EX_HARD: [40] }, ghost: [1, 2, 3] });
    if (c.kind !== 'score') throw new Error('expected a score');
    const v = validateScoreElement(c.element, 0, IIDX.gpts.SP, T);
    expect(v.ok).toBe(true);
  });

  it('skips BEGINNER charts silently (SP and DP)', () => {
    expect(elementOf({ ...EXAMPLE, chart: 'spb' })).toEqual({ kind: 'skip' });
    expect(elementOf({ ...EXAMPLE, chart: 'dpb' })).toEqual({ kind: 'skip' });
  });

  it.each([
    ['spn', 'NORMAL'],
    ['sph', 'HYPER'],
    ['spl', 'LEGGENDARIA'],
    ['dpa', 'ANOTHER'],
  ])('%s is difficulty %s', (chart, difficulty) => {
    const c = elementOf({ ...EXAMPLE, chart });
    expect(c.kind === 'score' && (c.element as Record<string, unknown>).difficulty).toBe(difficulty);
  });

  it.each([0, 1, 2, 3, 4, 5, 6, 7])('clear_type %i is lamp LAMPS[%i]', (clear) => {
    const c = elementOf({ ...EXAMPLE, clear_type: clear });
    expect(c.kind === 'score' && (c.element as Record<string, unknown>).lamp).toBe(LAMPS[clear]);
  });

  it('remaps in-game id 21201 ANOTHER to 12250 LEGGENDARIA, and only that chart', () => {
    const at = (entry_id: number, chart: string) => {
      const c = elementOf({ ...EXAMPLE, entry_id, chart });
      const e = c.kind === 'score' ? (c.element as Record<string, unknown>) : {};
      return [e.identifier, e.difficulty];
    };
    expect(at(21201, 'spa')).toEqual(['12250', 'LEGGENDARIA']);
    expect(at(21201, 'dpa')).toEqual(['12250', 'LEGGENDARIA']);
    expect(at(21201, 'sph')).toEqual(['21201', 'HYPER']);
    expect(at(21202, 'spa')).toEqual(['21202', 'ANOTHER']);
  });

  it('sets bp to null when the play died (dead present), else bad + poor', () => {
    const bp = (change: Record<string, unknown>) => {
      const c = elementOf({ ...EXAMPLE, ...change });
      return c.kind === 'score' ? (c.element as { optional: Record<string, unknown> }).optional.bp : 'not a score';
    };
    expect(bp({})).toBe(10);
    expect(bp({ dead: { measure: 12, note: 340 } })).toBeNull();
    expect(bp({ dead: {} })).toBeNull();
    expect(bp({ dead: null })).toBe(10);
    expect(bp({ bad: 0, poor: 0 })).toBe(0);
  });

  it('keeps the gauge history with samples above 200 as gaps, and the last sample as the gauge', () => {
    const opt = (gauge: number[]) => {
      const c = elementOf({ ...EXAMPLE, gauge });
      return c.kind === 'score' ? (c.element as { optional: Record<string, unknown> }).optional : c;
    };
    expect(opt([200, 201, 0, 100])).toMatchObject({ gaugeHistory: [200, null, 0, 100], gauge: 100 });
    expect(opt([])).toMatchObject({ gaugeHistory: [], gauge: null });
    expect(opt([22])).toMatchObject({ gaugeHistory: [22], gauge: 22 });
  });

  it('refuses the play (a per-score error) when the final gauge is above 100', () => {
    expect(elementOf({ ...EXAMPLE, gauge: [50, 101] })).toEqual({ kind: 'error', message: 'The final gauge value 101 is above 100.' });
    expect(elementOf({ ...EXAMPLE, gauge: [50, 255] })).toEqual({ kind: 'error', message: 'The final gauge value 255 is above 100.' });
  });

  it('stores the ghost as scoreHistory when the GPT graph holds it, and leaves it out otherwise', () => {
    const history = (ghost: unknown) => {
      const c = elementOf({ ...EXAMPLE, ghost });
      return c.kind === 'score' ? (c.element as { optional: Record<string, unknown> }).optional.scoreHistory : c;
    };
    expect(history([0, 5, 100])).toEqual([0, 5, 100]);
    expect(history([])).toBeUndefined();
    expect(history(undefined)).toBeUndefined();
    expect(history([5, 300])).toBeUndefined();
    expect(history('abc')).toBeUndefined();
  });

  it('splits 2dx-gsm into the four gsm graphs, with the gauge history rule', () => {
    const c = elementOf({ ...EXAMPLE, '2dx-gsm': { EASY: [1, 255], NORMAL: [2], HARD: [3], EX_HARD: [4, 201] } });
    expect(c.kind === 'score' && (c.element as { optional: Record<string, unknown> }).optional).toMatchObject({
      gsmEasy: [1, null],
      gsmNormal: [2],
      gsmHard: [3],
      gsmEXHard: [4, null],
    });
  });

  it('does not store max_combo', () => {
    const c = elementOf({ ...EXAMPLE, max_combo: 500 });
    expect(c.kind === 'score' && (c.element as { optional: Record<string, unknown> }).optional).not.toHaveProperty('maxCombo');
  });

  describe('custom charts (2dxtra) are found by their SHA256', () => {
    const sha = 'a'.repeat(64);
    it('refuses a custom play without chart_sha256', () => {
      expect(elementOf({ ...EXAMPLE, custom: true })).toEqual({
        kind: 'error',
        message: 'custom is true but chart_sha256 is missing: a custom chart is found by its SHA256.',
      });
    });
    it('names the chart by the iidxChartHash match type (lower case, no difficulty), for the shared matcher', () => {
      const c = elementOf({ ...EXAMPLE, custom: true, chart_sha256: sha.toUpperCase() });
      expect(c.kind === 'score' && c.element).toMatchObject({ matchType: 'iidxChartHash', identifier: sha, difficulty: null });
      expect(c.kind === 'score' && validateScoreElement(c.element, 0, IIDX.gpts.SP, T).ok).toBe(true);
    });
    it.each([['xyz'], ['a'.repeat(63)], ['g'.repeat(64)]])('refuses chart_sha256 %p, which is no SHA256', (bad) => {
      expect(elementOf({ ...EXAMPLE, custom: true, chart_sha256: bad })).toEqual({ kind: 'error', message: expect.stringMatching(/is not a SHA256/) });
    });
    it('ignores chart_sha256 when custom is false or absent', () => {
      const c = elementOf({ ...EXAMPLE, custom: false, chart_sha256: sha });
      expect(c.kind === 'score' && c.element).toMatchObject({ matchType: 'inGameID', identifier: '28001' });
    });
  });

  it('marks a play sent with highlight, so that its score (or the stored one it re-sends) is highlighted', () => {
    expect(elementOf({ ...EXAMPLE, highlight: true })).toMatchObject({ kind: 'score', highlight: true });
    expect(elementOf({ ...EXAMPLE, highlight: false })).not.toHaveProperty('highlight');
  });

  it('reads the route fields (headers, arrival time) through read()', () => {
    const stored = irFervidex.read({ body: EXAMPLE, fields: { userAgent: UA, softwareModel: MODEL, receivedAt: T } });
    expect(stored).toEqual({ userAgent: UA, softwareModel: MODEL, receivedAt: T, body: EXAMPLE });
    expect(rejection(() => irFervidex.parse({ ...(stored as object), receivedAt: undefined }, { maxScores: 1 }))?.message).toMatch(/receivedAt/);
  });
});

describe('ir/fervidex-static', () => {
  const P2D = 'P2D:J:B:A:2022010100';
  const EXAMPLE_DUMP = { sp_dan: 16, scores: { '27010': { spa: { ex_score: 2100, miss_count: -1, clear_type: 4 } } } };
  const staticInput = (body: unknown, softwareModel = P2D, forceStaticImport = false) => ({ userAgent: UA, softwareModel, forceStaticImport, body });
  const parse = (body: unknown, softwareModel = P2D, maxScores = 100, forceStaticImport = false) =>
    parseFervidexStatic(staticInput(body, softwareModel, forceStaticImport), maxScores);

  it('reads the worked example: one INFINITAS SP ANOTHER score (CLEAR, bp null, no time) and SP dan DAN_10', () => {
    const parsed = parse(EXAMPLE_DUMP);
    expect(parsed.gpt).toBe(IIDX.gpts.SP);
    expect(parsed.context).toEqual({ service: 'Fervidex Static', version: 'inf' });
    expect(parsed.classes).toEqual({ dan: 'DAN_10' });
    expect(parsed.items.map((i) => irFervidexStatic.convert(i, parsed))).toEqual([
      {
        kind: 'score',
        playtype: 'SP',
        element: {
          matchType: 'inGameID',
          identifier: '27010',
          difficulty: 'ANOTHER',
          score: 2100,
          lamp: 'CLEAR',
          judgements: {},
          optional: { bp: null },
          timeAchieved: null,
        },
      },
    ]);
  });

  it('takes both playtypes in one import: each score names its playtype, the DP dan goes to the DP profile', () => {
    const dump = {
      sp_dan: 3,
      dp_dan: 18,
      scores: { '1': { spn: { ex_score: 1, clear_type: 1 }, dph: { ex_score: 2, clear_type: 2 } }, '2': { dpl: { ex_score: 3, clear_type: 3 } } },
    };
    const parsed = parse(dump);
    expect(parsed.gpt).toBe(IIDX.gpts.SP);
    expect(parsed.classes).toEqual({ dan: 'KYU_4' });
    expect(parsed.playtypeClasses).toEqual({ DP: { dan: 'KAIDEN' } });
    expect(parsed.items.map((i) => [i.songID, i.chart, (irFervidexStatic.convert(i, parsed) as { playtype?: string }).playtype])).toEqual([
      ['1', 'spn', 'SP'],
      ['1', 'dph', 'DP'],
      ['2', 'dpl', 'DP'],
    ]);
  });

  it('imports only the dans of an arcade dump, unless the user forced a static import', () => {
    const parsed = parse(EXAMPLE_DUMP, 'LDJ:J:B:A:2022082400');
    expect(parsed.items).toEqual([]);
    expect(parsed.classes).toEqual({ dan: 'DAN_10' });
    expect(parsed.context.version).toBe('29');
    const forced = parse(EXAMPLE_DUMP, 'LDJ:J:B:A:2022082400', 100, true);
    expect(forced.items.map((i) => [i.songID, i.chart])).toEqual([['27010', 'spa']]);
    expect(forced.context).toEqual({ service: 'Fervidex Static', version: '29' });
  });

  it('reads forceStaticImport from the route fields (true only when the route says so)', () => {
    expect(irFervidexStatic.read({ body: {}, fields: { userAgent: UA, softwareModel: P2D, forceStaticImport: true } })).toEqual(staticInput({}, P2D, true));
    expect(irFervidexStatic.read({ body: {}, fields: { userAgent: UA, softwareModel: P2D, forceStaticImport: 'yes' } })).toEqual(staticInput({}, P2D, false));
  });

  it.each([[-1], [19], [1.5], ['16'], [null], [true], [{}]])('ignores a dan of %p', (dan) => {
    const parsed = parse({ sp_dan: dan, dp_dan: dan, scores: {} });
    expect(parsed.classes).toEqual({});
    expect(parsed.playtypeClasses).toEqual({ DP: {} });
  });

  it.each([
    [0, 'KYU_7'],
    [6, 'KYU_1'],
    [7, 'DAN_1'],
    [16, 'DAN_10'],
    [17, 'CHUUDEN'],
    [18, 'KAIDEN'],
  ])('a cleared course %p (the class route) raises %p directly, creating the profile if need be', (index, dan) => {
    const parsed = parseFervidexStatic({ userAgent: UA, softwareModel: MODEL, course: { playtype: 'DP', index } }, 10);
    expect(parsed).toMatchObject({ gpt: IIDX.gpts.DP, classes: { dan }, items: [], classesCreateProfile: true });
  });

  it('refuses a course index that is no dan', () => {
    expect(rejection(() => parseFervidexStatic({ userAgent: UA, softwareModel: MODEL, course: { playtype: 'SP', index: 19 } }, 10))?.status).toBe(400);
  });

  it.each([
    [undefined, {}],
    [null, { bp: null }],
    [-1, { bp: null }],
    [0, { bp: 0 }],
    [12, { bp: 12 }],
  ])('miss_count %p gives optional %p', (miss, optional) => {
    const entry: Record<string, unknown> = { ex_score: 10, clear_type: 0 };
    if (miss !== undefined) entry.miss_count = miss;
    const c = convertStaticScore({
      ...(entry as { ex_score: number; clear_type: number }),
      miss_count: entry.miss_count as number | null | undefined,
      songID: '5',
      chart: 'sph',
    });
    expect(c.kind === 'score' && (c.element as Record<string, unknown>).optional).toEqual(optional);
  });

  it('skips BEGINNER charts', () => {
    expect(convertStaticScore({ songID: '5', chart: 'spb', ex_score: 10, clear_type: 4 })).toEqual({ kind: 'skip' });
  });

  it.each([
    ['a chart code that does not exist', { scores: { '1': { spx: { ex_score: 1, clear_type: 1 } } } }, /^Invalid chart spx\.$/],
    ['a song id that is no integer', { scores: { abc: {} } }, /'abc' is not a song id/],
    ['a negative song id', { scores: { '-1': {} } }, /'-1' is not a song id/],
    ['no scores', { sp_dan: 3 }, /scores/],
    ['scores as an array', { scores: [] }, /scores/],
    ['a negative ex_score', { scores: { '1': { spa: { ex_score: -1, clear_type: 1 } } } }, /ex_score/],
    ['miss_count -2', { scores: { '1': { spa: { ex_score: 1, miss_count: -2, clear_type: 1 } } } }, /miss_count/],
    ['clear_type 8', { scores: { '1': { spa: { ex_score: 1, clear_type: 8 } } } }, /clear_type/],
    ['a chart entry that is no object', { scores: { '1': { spa: 5 } } }, /spa/],
    ['a body that is no object', 'dump', /Invalid Fervidex Request\?/],
  ])('refuses %s as a whole (400)', (_, body, message) => {
    const r = rejection(() => parse(body));
    expect(r?.status).toBe(400);
    expect(r?.message).toMatch(message);
  });

  it('refuses a bad dump even from an arcade model, whose scores it would not import', () => {
    expect(rejection(() => parse({ scores: { '1': { spx: {} } } }, MODEL))?.message).toMatch(/Invalid chart spx/);
  });

  it('refuses more scores than the limit with a 413', () => {
    const scores = Object.fromEntries(Array.from({ length: 3 }, (_, i) => [String(i), { spa: { ex_score: 1, clear_type: 1 } }]));
    expect(rejection(() => parse({ scores }, P2D, 2))?.status).toBe(413);
    // The limit counts both playtypes.
    const mixed = { '1': { spa: { ex_score: 1, clear_type: 1 }, dpa: { ex_score: 1, clear_type: 1 } } };
    expect(rejection(() => parse({ scores: mixed }, P2D, 1))?.status).toBe(413);
    expect(parse({ scores: mixed }, P2D, 2).items).toHaveLength(2);
  });

  it('checks the same headers as the score route', () => {
    expect(rejection(() => parseFervidexStatic({ ...staticInput(EXAMPLE_DUMP), userAgent: 'fervidex/1.2.0' }, 10))?.message).toMatch(/< 1\.3\.0/);
    expect(rejection(() => parseFervidexStatic(staticInput(EXAMPLE_DUMP, 'LDJ:J:B:Z:2021091500'), 10))?.message).toBe('2DX_BMS is not supported.');
    expect(rejection(() => parseFervidexStatic({ ...staticInput(EXAMPLE_DUMP), playtype: 'SP' }, 10))?.message).toMatch(/playtype/);
  });
});

/** A small deterministic generator, so that a failure can be replayed. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function randomValue(next: () => number, depth = 0): unknown {
  const pick = Math.floor(next() * (depth > 2 ? 6 : 8));
  switch (pick) {
    case 0:
      return null;
    case 1:
      return Math.floor(next() * 600) - 100;
    case 2:
      return next() * 1000;
    case 3:
      return ['spa', 'dpb', 'spl', 'RANDOM', 'EX_HARD', 'x', ''][Math.floor(next() * 7)];
    case 4:
      return next() < 0.5;
    case 5:
      return undefined;
    case 6:
      return Array.from({ length: Math.floor(next() * 4) }, () => randomValue(next, depth + 1));
    default:
      return Object.fromEntries(
        Array.from({ length: Math.floor(next() * 4) }, () => [['spa', '123', 'EASY', 'style', 'x'][Math.floor(next() * 5)], randomValue(next, depth + 1)]),
      );
  }
}

/** The example with some fields replaced by random values or removed. */
function mutate(base: Record<string, unknown>, next: () => number): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const key of Object.keys(base)) if (next() < 0.2) out[key] = randomValue(next);
  return out;
}

describe('property: random and truncated inputs only ever give a 400/413 or a per-score result', () => {
  const gpts = [IIDX.gpts.SP, IIDX.gpts.DP];

  it('ir/fervidex', () => {
    const next = rng(11);
    const text = JSON.stringify(EXAMPLE);
    for (let i = 0; i < 1500; i++) {
      let body: unknown;
      if (i % 3 === 0) {
        try {
          body = JSON.parse(text.slice(0, Math.floor(next() * text.length)));
        } catch {
          body = text.slice(0, Math.floor(next() * text.length));
        }
      } else body = i % 3 === 1 ? mutate(EXAMPLE, next) : randomValue(next);
      const extra = next() < 0.1 ? { customChart: { songID: 1, difficulty: 'ANOTHER' } } : {};
      let parsed;
      try {
        parsed = parseFervidexScore(input(body, extra));
      } catch (err) {
        expect(err).toBeInstanceOf(ImportRejectedError);
        expect([400, 413]).toContain((err as ImportRejectedError).getStatus());
        continue;
      }
      expect(gpts).toContain(parsed.gpt);
      const c = convertFervidexScore(parsed.items[0] as FervidexItem, parsed.gpt.playtype as 'SP' | 'DP');
      expect(['score', 'error', 'skip']).toContain(c.kind);
      if (c.kind === 'score') expect(() => validateScoreElement(c.element, 0, parsed.gpt, T)).not.toThrow();
    }
  });

  it('ir/fervidex-static', () => {
    const next = rng(23);
    const dump = {
      sp_dan: 16,
      dp_dan: 4,
      scores: {
        '27010': { spa: { ex_score: 2100, miss_count: -1, clear_type: 4 }, dpn: { ex_score: 5, clear_type: 1 } },
        '1': { spb: { ex_score: 1, clear_type: 0 } },
      },
    };
    const text = JSON.stringify(dump);
    for (let i = 0; i < 1500; i++) {
      let body: unknown;
      if (i % 3 === 0) {
        try {
          body = JSON.parse(text.slice(0, Math.floor(next() * text.length)));
        } catch {
          body = text.slice(0, Math.floor(next() * text.length));
        }
      } else if (i % 3 === 1)
        body = {
          ...mutate(dump, next),
          scores: next() < 0.5 ? dump.scores : { [String(Math.floor(next() * 10))]: mutate({ spa: dump.scores['27010'].spa }, next) },
        };
      else body = randomValue(next);
      for (const forceStaticImport of [false, true]) {
        let parsed;
        try {
          parsed = parseFervidexStatic({ userAgent: UA, softwareModel: 'P2D:J:B:A:2022010100', forceStaticImport, body }, 3);
        } catch (err) {
          expect(err).toBeInstanceOf(ImportRejectedError);
          expect([400, 413]).toContain((err as ImportRejectedError).getStatus());
          continue;
        }
        for (const item of parsed.items) {
          const c = convertStaticScore(item);
          if (c.kind === 'score') expect(() => validateScoreElement(c.element, 0, IIDX.gpts[c.playtype as 'SP' | 'DP'], T)).not.toThrow();
        }
      }
    }
  });
});
