import { describe, expect, it } from '@jest/globals';
import { IIDX } from '../../../src/game-support/iidx/index.js';
import { JUBEAT } from '../../../src/game-support/jubeat/index.js';
import { MUSECA } from '../../../src/game-support/museca/index.js';
import { POPN } from '../../../src/game-support/popn/index.js';
import { SDVX } from '../../../src/game-support/sdvx/index.js';
import type { GptSupport } from '../../../src/game-support/types.js';
import { ImportRejectedError } from '../../../src/imports/import-errors.js';
import { cgPlayTime } from '../../../src/imports/import-types/api-cg/cg-common.js';
import { convertCgIidx } from '../../../src/imports/import-types/api-cg/iidx.js';
import { API_CG_TYPES } from '../../../src/imports/import-types/api-cg/index.js';
import { convertCgJubeat } from '../../../src/imports/import-types/api-cg/jubeat.js';
import { convertCgMuseca } from '../../../src/imports/import-types/api-cg/museca.js';
import { convertCgPopn } from '../../../src/imports/import-types/api-cg/popn.js';
import { convertCgSdvx } from '../../../src/imports/import-types/api-cg/sdvx.js';
import { findImportType } from '../../../src/imports/import-types/registry.js';
import type { ConvertedItem } from '../../../src/imports/import-types/types.js';
import { validateScoreElement } from '../../../src/imports/score-element.js';
import { cgPlays } from '../../support/fake-cg-server.js';

/** 2024-05-01 18:30:00, CG's default play time in the fake, read as UTC. */
const T = Date.UTC(2024, 4, 1, 18, 30, 0);

type Score = Extract<ConvertedItem, { kind: 'score' }>;

function score(converted: ConvertedItem): Score & { element: Record<string, unknown> } {
  if (converted.kind !== 'score') throw new Error(`expected a score, got ${JSON.stringify(converted)}`);
  return converted as Score & { element: Record<string, unknown> };
}

function errorOf(converted: ConvertedItem): string {
  if (converted.kind !== 'error') throw new Error(`expected an error, got ${JSON.stringify(converted)}`);
  return converted.message;
}

/** The element passes the GPT's own validation (lamp, judgements, metrics, lamp rules run later on the chart). */
function expectValid(converted: ConvertedItem, gpt: GptSupport) {
  const result = validateScoreElement(score(converted).element, 0, gpt, Date.now());
  expect(result).toMatchObject({ ok: true });
}

describe('CG play times', () => {
  it('reads a zone-less time as UTC, whatever the server zone', () => {
    expect(cgPlayTime('2024-05-01 18:30:00')).toBe(T);
    expect(cgPlayTime('2024-05-01T18:30:00')).toBe(T);
    expect(cgPlayTime('2024-05-01 18:30:00.250')).toBe(T + 250);
  });
  it('reads a time with a zone with it', () => {
    expect(cgPlayTime('2024-05-02T03:30:00+09:00')).toBe(T);
    expect(cgPlayTime('2024-05-01T18:30:00Z')).toBe(T);
  });
  it('refuses impossible dates and non-dates', () => {
    expect(cgPlayTime('2023-02-30 10:00:00')).toBeUndefined();
    expect(cgPlayTime('2023-01-01 25:00:00')).toBeUndefined();
    expect(cgPlayTime('yesterday')).toBeUndefined();
    expect(cgPlayTime(1714588200000)).toBeUndefined();
    expect(cgPlayTime(undefined)).toBeUndefined();
  });
});

describe('api/cg-* import types', () => {
  it('registers the 15 types, one per service and game', () => {
    const names = API_CG_TYPES.map((t) => t.name);
    expect(names).toHaveLength(15);
    for (const service of ['dev', 'nag', 'gan']) {
      for (const game of ['sdvx', 'popn', 'museca', 'jubeat', 'iidx']) expect(findImportType(`api/cg-${service}-${game}`)).toBeDefined();
    }
  });

  it('parses the fetched plays: the game GPT, service "CG Dev" for dev and "CG" for nag and gan, no classes', () => {
    const items = [cgPlays.sdvx()];
    const dev = findImportType('api/cg-dev-sdvx')!;
    expect(dev.parse(dev.read({ body: { items }, fields: {} }), { maxScores: 10 })).toEqual({
      gpt: SDVX.gpts.Single,
      context: { service: 'CG Dev', version: null },
      classes: {},
      items,
    });
    expect(findImportType('api/cg-nag-popn')!.parse({ items }, { maxScores: 10 })).toMatchObject({ gpt: POPN.gpts['9B'], context: { service: 'CG' } });
    expect(findImportType('api/cg-gan-jubeat')!.parse({ items }, { maxScores: 10 })).toMatchObject({ gpt: JUBEAT.gpts.Single, context: { service: 'CG' } });
    expect(findImportType('api/cg-gan-museca')!.parse({ items }, { maxScores: 10 }).gpt).toBe(MUSECA.gpts.Single);
    expect(findImportType('api/cg-gan-iidx')!.parse({ items }, { maxScores: 10 }).gpt).toBe(IIDX.gpts.SP);
  });

  it('refuses an input without a list of plays (400), and more plays than the import limit (413)', () => {
    const type = findImportType('api/cg-nag-sdvx')!;
    expect(() => type.parse({ plays: [] }, { maxScores: 10 })).toThrow(ImportRejectedError);
    expect(() => type.parse(null, { maxScores: 10 })).toThrow(/items array/);
    try {
      type.parse({ items: [1, 2, 3] }, { maxScores: 2 });
      throw new Error('accepted');
    } catch (err) {
      expect(err).toBeInstanceOf(ImportRejectedError);
      expect((err as ImportRejectedError).getStatus()).toBe(413);
    }
  });

  it('converts one malformed play to its own error, not the import', () => {
    const type = findImportType('api/cg-nag-sdvx')!;
    const parsed = type.parse({ items: [{ internalId: 'one' }, cgPlays.sdvx()] }, { maxScores: 10 });
    expect(type.convert(parsed.items[0], parsed)).toMatchObject({ kind: 'error', message: expect.stringMatching(/^Invalid CG SDVX score: internalId: /) });
    expect(type.convert(parsed.items[1], parsed).kind).toBe('score');
    expect(errorOf(type.convert('not a play', parsed))).toMatch(/Invalid CG SDVX score/);
  });
});

describe('SDVX', () => {
  it('maps every field: EXH of EXCEED GEAR, CLEAR, critical/near/miss, max chain, EX score, UTC time', () => {
    const converted = convertCgSdvx(cgPlays.sdvx());
    expect(converted).toEqual({
      kind: 'score',
      version: 'exceed',
      element: {
        matchType: 'sdvxInGameID',
        identifier: '1',
        difficulty: 'EXH',
        score: 9_123_000,
        lamp: 'CLEAR',
        timeAchieved: T,
        judgements: { critical: 100, near: 50, miss: 10 },
        optional: { maxCombo: 300, exScore: 1234 },
      },
    });
    expectValid(converted, SDVX.gpts.Single);
  });

  it('maps difficulties 0–5 (3 is any INF, 5 is ULT) and versions 1–6', () => {
    const difficulty = (d: number) => score(convertCgSdvx(cgPlays.sdvx({ difficulty: d }))).element.difficulty;
    expect([0, 1, 2, 3, 4, 5].map(difficulty)).toEqual(['NOV', 'ADV', 'EXH', 'ANY_INF', 'MXM', 'ULT']);
    const version = (v: number) => score(convertCgSdvx(cgPlays.sdvx({ version: v }))).version;
    expect([1, 2, 3, 4, 5, 6].map(version)).toEqual(['booth', 'inf', 'gw', 'heaven', 'vivid', 'exceed']);
  });

  it('maps clearType 1–6, MAXXIVE CLEAR included', () => {
    const lamp = (c: number) => score(convertCgSdvx(cgPlays.sdvx({ clearType: c, score: 10_000_000, near: 0, error: 0 }))).element.lamp;
    expect([1, 2, 3, 4, 5, 6].map(lamp)).toEqual(['FAILED', 'CLEAR', 'EXCESSIVE CLEAR', 'ULTIMATE CHAIN', 'PERFECT ULTIMATE CHAIN', 'MAXXIVE CLEAR']);
  });

  it('an EX score of 0 is "not recorded": null', () => {
    expect(score(convertCgSdvx(cgPlays.sdvx({ exScore: 0 }))).element.optional).toEqual({ maxCombo: 300, exScore: null });
  });

  it('an unknown difficulty, version or clear type, a score above 10,000,000 or an unreadable time is that play’s error', () => {
    expect(errorOf(convertCgSdvx(cgPlays.sdvx({ difficulty: 6 })))).toBe('Unknown difficulty 6: expected 0 (NOV) to 5 (ULT).');
    expect(errorOf(convertCgSdvx(cgPlays.sdvx({ version: 7 })))).toBe('Unknown version 7: expected 1 (BOOTH) to 6 (EXCEED GEAR).');
    expect(errorOf(convertCgSdvx(cgPlays.sdvx({ clearType: 0 })))).toBe('Unknown clearType 0: expected 1 (FAILED) to 6 (MAXXIVE CLEAR).');
    expect(errorOf(convertCgSdvx(cgPlays.sdvx({ score: 10_000_001 })))).toMatch(/^Invalid CG SDVX score: score: /);
    expect(errorOf(convertCgSdvx(cgPlays.sdvx({ critical: -1 })))).toMatch(/critical/);
    expect(errorOf(convertCgSdvx(cgPlays.sdvx({ dateTime: '2024-02-30 10:00:00' })))).toMatch(/^Invalid dateTime '2024-02-30 10:00:00'/);
  });
});

describe("pop'n", () => {
  it('maps every field: Hyper of UniLab, clearFlag 6 → clearDiamond (CLEAR), cool/great/good/bad', () => {
    const converted = convertCgPopn(cgPlays.popn());
    expect(converted).toEqual({
      kind: 'score',
      version: 'unilab',
      element: {
        matchType: 'inGameID',
        identifier: '1000',
        difficulty: 'Hyper',
        score: 95_000,
        lamp: 'CLEAR',
        timeAchieved: T,
        judgements: { cool: 500, great: 100, good: 20, bad: 10 },
        optional: { clearMedal: 'clearDiamond' },
      },
    });
    expectValid(converted, POPN.gpts['9B']);
  });

  it('maps clearFlag 1–11 to the medals and their lamps', () => {
    const medal = (flag: number) => {
      const s = score(convertCgPopn(cgPlays.popn({ clearFlag: flag })));
      return [(s.element.optional as { clearMedal: string }).clearMedal, s.element.lamp];
    };
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11].map(medal)).toEqual([
      ['failedCircle', 'FAILED'],
      ['failedDiamond', 'FAILED'],
      ['failedStar', 'FAILED'],
      ['easyClear', 'EASY CLEAR'],
      ['clearCircle', 'CLEAR'],
      ['clearDiamond', 'CLEAR'],
      ['clearStar', 'CLEAR'],
      ['fullComboCircle', 'FULL COMBO'],
      ['fullComboDiamond', 'FULL COMBO'],
      ['fullComboStar', 'FULL COMBO'],
      ['perfect', 'PERFECT'],
    ]);
  });

  it('maps difficulties 0–3 and versions 25–27', () => {
    const difficulty = (d: number) => score(convertCgPopn(cgPlays.popn({ difficulty: d }))).element.difficulty;
    expect([0, 1, 2, 3].map(difficulty)).toEqual(['Easy', 'Normal', 'Hyper', 'EX']);
    const version = (v: number) => score(convertCgPopn(cgPlays.popn({ version: v }))).version;
    expect([25, 26, 27].map(version)).toEqual(['peace', 'kaimei', 'unilab']);
  });

  it('skips battle mode plays (difficulty 4 and 5), whose score may pass 100,000', () => {
    expect(convertCgPopn(cgPlays.popn({ difficulty: 4, score: 123_456 }))).toEqual({ kind: 'skip' });
    expect(convertCgPopn(cgPlays.popn({ difficulty: 5 }))).toEqual({ kind: 'skip' });
  });

  it('a score above 100,000 outside battle mode, an unknown version, difficulty or clearFlag is that play’s error', () => {
    expect(errorOf(convertCgPopn(cgPlays.popn({ score: 100_001 })))).toBe("Invalid score 100001: a pop'n score is at most 100,000.");
    expect(errorOf(convertCgPopn(cgPlays.popn({ version: 24 })))).toMatch(/^Unknown version 24/);
    expect(errorOf(convertCgPopn(cgPlays.popn({ difficulty: 6 })))).toMatch(/^Unknown difficulty 6/);
    expect(errorOf(convertCgPopn(cgPlays.popn({ clearFlag: 0 })))).toMatch(/^Unknown clearFlag 0/);
    expect(errorOf(convertCgPopn(cgPlays.popn({ clearFlag: 12 })))).toMatch(/^Unknown clearFlag 12/);
  });
});

describe('jubeat', () => {
  it('maps every field: EXT, musicRate 955 → 95.5 as percent, clearFlag bit 1 → CLEAR; matched without a version', () => {
    const converted = convertCgJubeat(cgPlays.jb());
    expect(converted).toEqual({
      kind: 'score',
      version: null,
      element: {
        matchType: 'inGameID',
        identifier: '50000001',
        difficulty: 'EXT',
        score: 950_000,
        percent: 95.5,
        lamp: 'CLEAR',
        timeAchieved: T,
        judgements: { perfect: 400, great: 50, good: 10, poor: 5, miss: 3 },
      },
    });
    expectValid(converted, JUBEAT.gpts.Single);
  });

  it('hardMode gives the HARD difficulties', () => {
    const difficulty = (d: number, hardMode: boolean) => score(convertCgJubeat(cgPlays.jb({ difficulty: d, hardMode }))).element.difficulty;
    expect([0, 1, 2].map((d) => difficulty(d, false))).toEqual(['BSC', 'ADV', 'EXT']);
    expect([0, 1, 2].map((d) => difficulty(d, true))).toEqual(['HARD BSC', 'HARD ADV', 'HARD EXT']);
    expect(score(convertCgJubeat(cgPlays.jb({ hardMode: true, musicRate: 1200 }))).element.percent).toBe(120);
  });

  it('the lamp is the highest bit of clearFlag: 8 EXCELLENT, 4 FULL COMBO, 2 CLEAR, 1 FAILED', () => {
    const lamp = (flag: number) => score(convertCgJubeat(cgPlays.jb({ clearFlag: flag }))).element.lamp;
    expect([1, 2, 3, 4, 6, 7, 8, 10, 15].map(lamp)).toEqual([
      'FAILED',
      'CLEAR',
      'CLEAR',
      'FULL COMBO',
      'FULL COMBO',
      'FULL COMBO',
      'EXCELLENT',
      'EXCELLENT',
      'EXCELLENT',
    ]);
    expect(errorOf(convertCgJubeat(cgPlays.jb({ clearFlag: 0 })))).toMatch(/^Unknown clearFlag 0/);
    expect(errorOf(convertCgJubeat(cgPlays.jb({ clearFlag: 16 })))).toMatch(/^Unknown clearFlag 16/);
  });

  it('accepts versions 1–11 (9 and 10 are both festo) and refuses others', () => {
    for (const version of [1, 8, 9, 10, 11]) expect(convertCgJubeat(cgPlays.jb({ version })).kind).toBe('score');
    expect(errorOf(convertCgJubeat(cgPlays.jb({ version: 12 })))).toBe('Unknown version 12: expected 1 (jubeat) to 11 (Ave.).');
    expect(errorOf(convertCgJubeat(cgPlays.jb({ version: 0 })))).toMatch(/^Unknown version 0/);
  });

  it('a musicRate above 1200, an unknown difficulty or a hardMode that is no boolean is that play’s error', () => {
    expect(errorOf(convertCgJubeat(cgPlays.jb({ musicRate: 1201 })))).toMatch(/musicRate/);
    expect(errorOf(convertCgJubeat(cgPlays.jb({ difficulty: 3 })))).toMatch(/^Unknown difficulty 3/);
    expect(errorOf(convertCgJubeat(cgPlays.jb({ hardMode: 1 })))).toMatch(/hardMode/);
  });
});

describe('MÚSECA', () => {
  it('maps every field: Red of 1 + 1/2 Rev. B, critical/near/miss, max chain; 900,000 with errors is CLEAR', () => {
    const converted = convertCgMuseca(cgPlays.msc());
    expect(converted).toEqual({
      kind: 'score',
      version: '1.5-b',
      element: {
        matchType: 'inGameID',
        identifier: '10',
        difficulty: 'Red',
        score: 900_000,
        lamp: 'CLEAR',
        timeAchieved: T,
        judgements: { critical: 380, near: 15, miss: 5 },
        optional: { maxCombo: 400 },
      },
    });
    expectValid(converted, MUSECA.gpts.Single);
  });

  it('derives the lamp from score and error', () => {
    const lamp = (s: number, error: number) =>
      score(convertCgMuseca(cgPlays.msc({ score: s, error, near: error === 0 && s === 1_000_000 ? 0 : 15 }))).element.lamp;
    expect(lamp(1_000_000, 0)).toBe('PERFECT CONNECT ALL');
    expect(lamp(950_000, 0)).toBe('CONNECT ALL');
    expect(lamp(800_000, 3)).toBe('CLEAR');
    expect(lamp(799_999, 3)).toBe('FAILED');
  });

  it('maps the three difficulties; a version other than 2 or a fourth difficulty is that play’s error', () => {
    const difficulty = (d: number) => score(convertCgMuseca(cgPlays.msc({ difficulty: d }))).element.difficulty;
    expect([0, 1, 2].map(difficulty)).toEqual(['Green', 'Yellow', 'Red']);
    expect(errorOf(convertCgMuseca(cgPlays.msc({ version: 1 })))).toBe('Unknown version 1: expected 2 (1 + 1/2 Rev. B).');
    expect(errorOf(convertCgMuseca(cgPlays.msc({ difficulty: 3 })))).toMatch(/^Unknown difficulty 3/);
    expect(errorOf(convertCgMuseca(cgPlays.msc({ score: 1_000_001 })))).toMatch(/score/);
  });
});

describe('IIDX', () => {
  it('maps every field: SPA of Epolis Omnimix, EX score, PGREAT/GREAT, BP, CLEAR; no guessed options', () => {
    const converted = convertCgIidx(cgPlays.iidx());
    expect(converted).toEqual({
      kind: 'score',
      playtype: 'SP',
      version: '31-omni',
      element: {
        matchType: 'inGameID',
        identifier: '1017',
        difficulty: 'ANOTHER',
        score: 1500,
        lamp: 'CLEAR',
        timeAchieved: T,
        judgements: { pgreat: 600, great: 300 },
        optional: { bp: 12 },
      },
    });
    expectValid(converted, IIDX.gpts.SP);
  });

  it('reads playtype and difficulty from the code; BEGINNER is skipped', () => {
    const chart = (code: string) => {
      const s = score(convertCgIidx(cgPlays.iidx({ difficulty: code })));
      return `${s.playtype} ${s.element.difficulty as string}`;
    };
    expect(['SPN', 'SPH', 'SPA', 'SPL', 'DPN', 'DPH', 'DPA', 'DPL'].map(chart)).toEqual([
      'SP NORMAL',
      'SP HYPER',
      'SP ANOTHER',
      'SP LEGGENDARIA',
      'DP NORMAL',
      'DP HYPER',
      'DP ANOTHER',
      'DP LEGGENDARIA',
    ]);
    expectValid(convertCgIidx(cgPlays.iidx({ difficulty: 'DPH' })), IIDX.gpts.DP);
    expect(convertCgIidx(cgPlays.iidx({ difficulty: 'SPB' }))).toEqual({ kind: 'skip' });
    expect(convertCgIidx(cgPlays.iidx({ difficulty: 'DPB' }))).toEqual({ kind: 'skip' });
    expect(errorOf(convertCgIidx(cgPlays.iidx({ difficulty: 'SPX' })))).toMatch(/^Unknown difficulty "SPX"/);
    expect(errorOf(convertCgIidx(cgPlays.iidx({ difficulty: 'spa' })))).toMatch(/^Unknown difficulty/);
  });

  it('maps versions 20–26 as they are, 27–32 to their Omnimix, 33 as it is', () => {
    const version = (v: number) => score(convertCgIidx(cgPlays.iidx({ version: v }))).version;
    expect([20, 26, 27, 28, 29, 30, 31, 32, 33].map(version)).toEqual(['20', '26', '27-omni', '28-omni', '29-omni', '30-omni', '31-omni', '32-omni', '33']);
    expect(errorOf(convertCgIidx(cgPlays.iidx({ version: 19 })))).toMatch(/^Unknown version 19/);
    expect(errorOf(convertCgIidx(cgPlays.iidx({ version: 34 })))).toMatch(/^Unknown version 34/);
  });

  it('maps clearType 0–7 to the lamps', () => {
    const lamp = (c: number) => score(convertCgIidx(cgPlays.iidx({ clearType: c }))).element.lamp;
    expect([0, 1, 2, 3, 4, 5, 6, 7].map(lamp)).toEqual([
      'NO PLAY',
      'FAILED',
      'ASSIST CLEAR',
      'EASY CLEAR',
      'CLEAR',
      'HARD CLEAR',
      'EX HARD CLEAR',
      'FULL COMBO',
    ]);
    expect(errorOf(convertCgIidx(cgPlays.iidx({ clearType: 8 })))).toMatch(/^Unknown clearType 8/);
  });

  it('a missCount of -1 (not recorded) is a null BP; below -1 is an error', () => {
    expect(score(convertCgIidx(cgPlays.iidx({ missCount: -1 }))).element.optional).toEqual({ bp: null });
    expect(errorOf(convertCgIidx(cgPlays.iidx({ missCount: -2 })))).toMatch(/missCount/);
  });

  it('an old "†" music id is its base song’s LEGGENDARIA', () => {
    const s = score(convertCgIidx(cgPlays.iidx({ internalId: 1100, difficulty: 'SPA' })));
    expect(s.element).toMatchObject({ identifier: '1017', difficulty: 'LEGGENDARIA' });
    expect(score(convertCgIidx(cgPlays.iidx({ internalId: 24101, difficulty: 'DPA' }))).element).toMatchObject({
      identifier: '24011',
      difficulty: 'LEGGENDARIA',
    });
  });
});
