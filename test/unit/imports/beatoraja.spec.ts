import { describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import { findGpt } from '../../../src/game-support/registry.js';
import { ImportRejectedError } from '../../../src/imports/import-errors.js';
import { beatorajaType } from '../../../src/imports/import-types/beatoraja/beatoraja.type.js';
import {
  convertBeatoraja,
  isQueueable,
  orphanChartRecords,
  parseBeatoraja,
  parseBeatorajaScore,
  type BeatorajaItem,
} from '../../../src/imports/import-types/beatoraja/beatoraja.parser.js';
import { CLEAR_ID_OF_LAMP_INDEX, toBeatorajaRankingScore } from '../../../src/ir/beatoraja/leaderboard.js';
import type { ParsedImport } from '../../../src/imports/import-types/types.js';
import { validateScoreElement } from '../../../src/imports/score-element.js';

const SHA = createHash('sha256').update('unit-chart').digest('hex');
const MD5 = createHash('md5').update('unit-chart').digest('hex');
const T = Date.UTC(2024, 5, 1, 20);

const chart = (over: Record<string, unknown> = {}) => ({
  md5: MD5,
  sha256: SHA,
  title: 'Unit Song',
  subtitle: '[ANOTHER]',
  genre: 'TECHNO',
  artist: 'Unit Artist',
  subartist: 'obj: someone',
  total: 300,
  judge: 100,
  lntype: 0,
  mode: 'BEAT_7K',
  notes: 1000,
  hasUndefinedLN: false,
  hasRandom: false,
  ...over,
});

// EX = (400 + 350) × 2 + 100 + 80 = 1680
const score = (over: Record<string, unknown> = {}) => ({
  sha256: SHA,
  exscore: 1680,
  passnotes: 1000,
  gauge: 85.5,
  deviceType: 'BM_CONTROLLER',
  minbp: 12,
  option: 2,
  lntype: 0,
  clear: 'Hard',
  assist: 0,
  maxcombo: 300,
  epg: 400,
  lpg: 350,
  egr: 100,
  lgr: 80,
  egd: 20,
  lgd: 15,
  ebd: 5,
  lbd: 4,
  epr: 3,
  lpr: 2,
  ems: 1,
  lms: 0,
  ...over,
});

const body = (chartOver: Record<string, unknown> = {}, scoreOver: Record<string, unknown> = {}, client: unknown = 'LR2oraja 0.8.5') => ({
  client,
  chart: chart(chartOver),
  score: score(scoreOver),
});
const pmsBody = (chartOver: Record<string, unknown> = {}, scoreOver: Record<string, unknown> = {}) =>
  body({ mode: 'POPN_9K', ...chartOver }, scoreOver, 'beatoraja 0.8.7');

function rejection(fn: () => unknown): ImportRejectedError {
  try {
    fn();
  } catch (err) {
    if (err instanceof ImportRejectedError) return err;
    throw err;
  }
  throw new Error('expected a rejection');
}

function convert(b: unknown) {
  const parsed = parseBeatorajaScore(b, T);
  return { parsed, converted: convertBeatoraja(parsed.items[0], parsed) };
}

function element(b: unknown): Record<string, unknown> {
  const { converted } = convert(b);
  if (converted.kind !== 'score') throw new Error(`not a score: ${JSON.stringify(converted)}`);
  return converted.element as Record<string, unknown>;
}

describe('ir/beatoraja parser: whole-import (FATAL 400) rules', () => {
  const cases: [string, unknown, RegExp][] = [
    ['an array body', [body()], /Invalid Beatoraja Import - the body must be a JSON object/],
    ['a null body', null, /Invalid Beatoraja Import - the body must be a JSON object/],
    ['no score', { client: 'LR2oraja', chart: chart() }, /^Invalid Beatoraja Import - Score: /],
    ['no chart', { client: 'LR2oraja', score: score() }, /^Invalid Beatoraja Import - Chart: /],
    ['a negative exscore', body({}, { exscore: -1 }), /Score: exscore/],
    ['a fractional epg', body({}, { epg: 1.5 }), /Score: epg/],
    ['a gauge above 100', body({}, { gauge: 100.5 }), /Score: gauge/],
    ['a gauge of -2', body({}, { gauge: -2 }), /Score: gauge/],
    ['a minbp of -2', body({}, { minbp: -2 }), /Score: minbp/],
    ['an unknown deviceType', body({}, { deviceType: 'GAMEPAD' }), /Score: deviceType/],
    ['a fractional option', body({}, { option: 1.5 }), /Score: option/],
    ['a score lntype of 2', body({}, { lntype: 2 }), /Score: lntype/],
    ['an unknown clear', body({}, { clear: 'Clear' }), /Score: clear/],
    ['assist on', body({}, { assist: 1 }), /Score: assist/],
    ['a negative maxcombo', body({}, { maxcombo: -1 }), /Score: maxcombo/],
    ['a missing lms', body({}, { lms: undefined }), /Score: lms/],
    ['a score sha256 that is no hash', body({}, { sha256: 'abc' }), /Score: sha256: must be a SHA256 hash/],
    ['an unknown mode', body({ mode: 'BEAT_5K' }), /Chart: mode/],
    ['a chart lntype of 3', body({ lntype: 3 }), /Chart: lntype/],
    ['a total of 0', body({ total: 0 }), /Chart: total/],
    ['a judge of -1', body({ judge: -1 }), /Chart: judge/],
    ['a negative notecount', body({ notes: -1 }), /Chart: notes/],
    ['hasRandom not a boolean', body({ hasRandom: 'no' }), /Chart: hasRandom/],
    ['a NUL in the title', body({ title: 'a\u0000b' }), /Chart: title: must not contain a NUL character/],
    ['hashes naming two charts', body({}, { sha256: 'f'.repeat(64) }), /score\.sha256 and chart\.sha256 name different charts/],
  ];
  it.each(cases)('%s', (_, b, message) => {
    const err = rejection(() => parseBeatorajaScore(b, T));
    expect(err.getStatus()).toBe(400);
    expect(err.message).toMatch(message);
  });

  it('takes extra keys in the body, chart and score', () => {
    const b = { ...body(), extra: 1, chart: { ...chart(), url: 'x' }, score: { ...score(), playcount: 4 } };
    expect(parseBeatorajaScore(b, T).items).toHaveLength(1);
  });

  it('accepts -1 for gauge and minbp, and hash case differences between score and chart', () => {
    expect(() => parseBeatorajaScore(body({ sha256: SHA.toUpperCase() }, { gauge: -1, minbp: -1 }), T)).not.toThrow();
  });

  describe('the client rule', () => {
    const clients: [string, unknown, unknown, string | null][] = [
      ['LR2oraja for BMS', body(), 'LR2oraja 0.8.5', null],
      ['an LR2oraja variant for BMS', body(), 'LR2oraja-Endless-Dream', null],
      ['beatoraja for BMS', body(), 'beatoraja 0.8.7', 'Unsupported client beatoraja 0.8.7 -- Expected a variant of LR2oraja.'],
      ['lowercase lr2oraja for BMS', body(), 'lr2oraja', 'Unsupported client lr2oraja -- Expected a variant of LR2oraja.'],
      ['no client', body(), undefined, 'Unsupported client undefined -- Expected a variant of LR2oraja.'],
      ['a number as client', body(), 5, 'Unsupported client 5 -- Expected a variant of LR2oraja.'],
      ['beatoraja for PMS', pmsBody(), 'beatoraja 0.8.7', null],
      ['LR2oraja for PMS', pmsBody(), 'LR2oraja 0.8.5', 'Unsupported client LR2oraja 0.8.5 -- Expected a variant of beatoraja.'],
    ];
    it.each(clients)('%s', (_, b, client, message) => {
      const withClient = { ...(b as object), client };
      if (message === null) expect(() => parseBeatorajaScore(withClient, T)).not.toThrow();
      else expect(rejection(() => parseBeatorajaScore(withClient, T)).message).toBe(message);
    });
  });

  it('maps mode and device to the GPT', () => {
    const gptOf = (b: unknown) => {
      const p = parseBeatorajaScore(b, T).gpt;
      return `${p.game}:${p.playtype}`;
    };
    expect(gptOf(body({ mode: 'BEAT_7K' }))).toBe('bms:7K');
    expect(gptOf(body({ mode: 'BEAT_14K' }, { deviceType: 'KEYBOARD' }))).toBe('bms:14K');
    expect(gptOf(pmsBody({}, { deviceType: 'BM_CONTROLLER' }))).toBe('pms:Controller');
    expect(gptOf(pmsBody({}, { deviceType: 'KEYBOARD' }))).toBe('pms:Keyboard');
  });

  it('gives the context and keeps the receive time for the converter', () => {
    const parsed = parseBeatorajaScore(body(), T);
    expect(parsed.context).toEqual({ service: 'Beatoraja IR', version: null });
    expect(parsed.classes).toEqual({});
    expect(parsed.items[0].timeReceived).toBe(T);
    expect(parsed.items[0].client).toBe('lr2oraja');
  });

  it('reads the request into an input that parses again to the same import (the receive time comes from the fields)', () => {
    const input = beatorajaType.read({ body: body(), fields: { timeReceived: T } });
    expect(JSON.parse(JSON.stringify(beatorajaType.parse(JSON.parse(JSON.stringify(input)), { maxScores: 1 }).items))).toEqual(
      JSON.parse(JSON.stringify(parseBeatorajaScore(body(), T).items)),
    );
  });
});

describe('ir/beatoraja course input', () => {
  it('becomes a provided class of the course playtype, with no score', () => {
    const parsed = parseBeatoraja({ course: { playtype: '7K', set: 'genocideDan', value: 'INSANE_3' } });
    expect(`${parsed.gpt.game}:${parsed.gpt.playtype}`).toBe('bms:7K');
    expect(parsed.classes).toEqual({ genocideDan: 'INSANE_3' });
    expect(parsed.items).toEqual([]);
  });
  it.each([
    ['an unknown playtype', { playtype: '5K', set: 'genocideDan', value: 'NORMAL_1' }],
    ['a set of another playtype', { playtype: '14K', set: 'lnDan', value: 'NORMAL_1' }],
    ['an unknown value', { playtype: '7K', set: 'genocideDan', value: 'NORMAL_11' }],
    ['an inherited set name', { playtype: '7K', set: 'constructor', value: 'NORMAL_1' }],
    ['no object', 'genocideDan'],
  ])('refuses %s', (_, course) => {
    expect(rejection(() => parseBeatoraja({ course })).getStatus()).toBe(400);
  });
});

describe('ir/beatoraja converter: per-score (INVALID) rules', () => {
  it.each([
    ['a CN chart (lntype 1)', body({ lntype: 1 }), 'CN or HCN mode is not supported by this IR.'],
    ['an HCN chart (lntype 2)', body({ lntype: 2 }), 'CN or HCN mode is not supported by this IR.'],
    ['a chart lntype of -1', body({ lntype: -1 }), 'CN or HCN mode is not supported by this IR.'],
    ['a #RANDOM chart', body({ hasRandom: true }), 'Charts with #RANDOM declarations are not supported by this IR.'],
    ['PMS on MIDI', pmsBody({}, { deviceType: 'MIDI' }), 'MIDI input is not supported for PMS.'],
  ])('%s', (_, b, message) => {
    expect(convert(b).converted).toEqual({ kind: 'error', message });
  });

  it("trusts the chart's lntype, not the score's (beatoraja always sends 0 there)", () => {
    expect(convert(body({ lntype: 0 }, { lntype: 1 })).converted.kind).toBe('score');
  });

  it('accepts BMS on MIDI and 14K on a keyboard', () => {
    expect(convert(body({}, { deviceType: 'MIDI' })).converted.kind).toBe('score');
    expect(convert(body({ mode: 'BEAT_14K' }, { deviceType: 'KEYBOARD' })).converted.kind).toBe('score');
  });
});

describe('ir/beatoraja converter: mapping', () => {
  it('maps a 7K score field by field (worked by hand)', () => {
    expect(element(body())).toEqual({
      score: 1680,
      lamp: 'HARD CLEAR',
      matchType: 'bmsChartHash',
      identifier: SHA,
      timeAchieved: T,
      // pgreat 400+350, great 100+80, good 20+15, bad 5+4, poor 3+2+1+0
      judgements: { pgreat: 750, great: 180, good: 35, bad: 9, poor: 6 },
      optional: {
        fast: 129, // egr 100 + egd 20 + ebd 5 + epr 3 + ems 1
        slow: 101, // lgr 80 + lgd 15 + lbd 4 + lpr 2 + lms 0
        maxCombo: 300,
        bp: 12,
        gauge: 85.5,
        epg: 400,
        egr: 100,
        egd: 20,
        ebd: 5,
        epr: 4, // epr 3 + ems 1
        lpg: 350,
        lgr: 80,
        lgd: 15,
        lbd: 4,
        lpr: 2, // lpr 2 + lms 0
      },
      scoreMeta: { client: 'lr2oraja', random: 'RANDOM', inputDevice: 'BM_CONTROLLER' },
    });
  });

  it('leaves out gauge and bp when beatoraja sends -1', () => {
    const optional = element(body({}, { gauge: -1, minbp: -1 })).optional as Record<string, unknown>;
    expect(optional).not.toHaveProperty('gauge');
    expect(optional).not.toHaveProperty('bp');
  });

  it('lowercases the hash it matches on', () => {
    expect(element(body({ sha256: SHA.toUpperCase() }, { sha256: SHA.toUpperCase() })).identifier).toBe(SHA);
  });

  it.each([
    ['NoPlay', 'NO PLAY'],
    ['Failed', 'FAILED'],
    ['AssistEasy', 'ASSIST CLEAR'],
    ['LightAssistEasy', 'ASSIST CLEAR'],
    ['Easy', 'EASY CLEAR'],
    ['Normal', 'CLEAR'],
    ['Hard', 'HARD CLEAR'],
    ['ExHard', 'EX HARD CLEAR'],
    ['FullCombo', 'FULL COMBO'],
    ['Perfect', 'FULL COMBO'],
    ['Max', 'FULL COMBO'],
  ])('clear %s is the lamp %s', (clear, lamp) => {
    expect(element(body({}, { clear })).lamp).toBe(lamp);
  });

  it.each([
    [0, 'NONRAN'],
    [1, 'MIRROR'],
    [2, 'RANDOM'],
    [3, 'R-RANDOM'],
    [4, 'S-RANDOM'],
  ])('7K option %i is %s', (option, random) => {
    expect((element(body({}, { option })).scoreMeta as Record<string, unknown>).random).toBe(random);
  });

  it('keeps no random for other options, nor for 14K (whose options are unreliable)', () => {
    expect(element(body({}, { option: 5 })).scoreMeta).toEqual({ client: 'lr2oraja', inputDevice: 'BM_CONTROLLER' });
    expect(element(body({}, { option: -1 })).scoreMeta).toEqual({ client: 'lr2oraja', inputDevice: 'BM_CONTROLLER' });
    expect(element(body({ mode: 'BEAT_14K' }, { option: 1 })).scoreMeta).toEqual({ client: 'lr2oraja', inputDevice: 'BM_CONTROLLER' });
  });

  it('maps PMS with COOL for the top judgement, its client and random, and no inputDevice (the playtype says it)', () => {
    const e = element(pmsBody({}, { deviceType: 'KEYBOARD', option: 1 }));
    expect(e.judgements).toEqual({ cool: 750, great: 180, good: 35, bad: 9, poor: 6 });
    expect(e.scoreMeta).toEqual({ client: 'beatoraja', random: 'MIRROR' });
  });

  it('gives elements the shared validation accepts for each of the four GPTs', () => {
    const cases: [unknown, string, string][] = [
      [body(), 'bms', '7K'],
      [body({ mode: 'BEAT_14K' }), 'bms', '14K'],
      [pmsBody(), 'pms', 'Controller'],
      [pmsBody({}, { deviceType: 'KEYBOARD' }), 'pms', 'Keyboard'],
    ];
    for (const [b, game, playtype] of cases) {
      const v = validateScoreElement(element(b), 0, findGpt(game, playtype)!, T);
      expect(v.ok ? 'ok' : v.message).toBe('ok');
    }
  });
});

describe('ir/beatoraja orphan-chart records', () => {
  it('queues a chart only with a real MD5 and notes', () => {
    expect(isQueueable(chart() as never)).toBe(true);
    expect(isQueueable(chart({ md5: '' }) as never)).toBe(false);
    expect(isQueueable(chart({ md5: 'abc' }) as never)).toBe(false);
    expect(isQueueable(chart({ notes: 0 }) as never)).toBe(false);
  });

  it("describes the song and chart from the client's metadata", () => {
    const parsed = parseBeatorajaScore(body({ md5: MD5.toUpperCase() }), T);
    const records = orphanChartRecords(parsed.gpt, parsed.items[0].chart);
    expect(records).toEqual({
      song: {
        title: 'Unit Song',
        artist: 'Unit Artist',
        altTitles: [],
        searchTerms: [],
        data: { genre: 'TECHNO', subtitle: '[ANOTHER]', subartist: 'obj: someone' },
      },
      chart: {
        chartID: createHash('sha1').update(`bms:7K:${SHA}`).digest('hex'),
        level: '?',
        levelNum: 0,
        isPrimary: true,
        difficulty: 'CHART',
        versions: [],
        data: { notecount: 1000, hashMD5: MD5, hashSHA256: SHA, tableFolders: [] },
      },
    });
    expect(findGpt('bms', '7K')!.chartData.safeParse(records.chart.data).success).toBe(true);
  });
});

describe('ir/beatoraja chart ranking entries', () => {
  it.each([
    [0, 'NO PLAY', 0],
    [1, 'FAILED', 1],
    [2, 'ASSIST CLEAR', 3],
    [3, 'EASY CLEAR', 4],
    [4, 'CLEAR', 5],
    [5, 'HARD CLEAR', 6],
    [6, 'EX HARD CLEAR', 7],
    [7, 'FULL COMBO', 8],
  ])("lamp %i (%s) is beatoraja's clear %i", (lampIndex, _, clear) => {
    expect(CLEAR_ID_OF_LAMP_INDEX[lampIndex]).toBe(clear);
  });

  const pb = (optional: Record<string, unknown>, score = 1680) => ({
    scoreData: { score, percent: 84, lamp: 'HARD CLEAR', lampIndex: 5, grade: 'AAA', gradeIndex: 7, judgements: {}, optional },
    timeAchieved: T,
  });

  it('keeps timing counts that add up to the score', () => {
    const entry = toBeatorajaRankingScore(
      pb({ epg: 400, lpg: 350, egr: 100, lgr: 80, egd: 20, lgd: 15, ebd: 5, lbd: 4, epr: 4, lpr: 2, bp: 12, gauge: 85.5, maxCombo: 300 }),
      SHA,
      '',
      1000,
    );
    expect(entry).toEqual({
      sha256: SHA,
      player: '',
      playcount: 0,
      clear: 6,
      date: T,
      deviceType: null,
      random: null,
      gauge: 85.5,
      passnotes: 0,
      minbp: 12,
      notes: 1000,
      maxcombo: 300,
      epg: 400,
      lpg: 350,
      egr: 100,
      lgr: 80,
      egd: 20,
      lgd: 15,
      ebd: 5,
      lbd: 4,
      epr: 4,
      lpr: 2,
      ems: 0,
      lms: 0,
    });
  });

  it('replaces PGREAT/GREAT counts that do not add up to the score with ones that do (1681 = 840 × 2 + 1)', () => {
    const entry = toBeatorajaRankingScore(pb({ epg: 1, lpg: 1, egr: 1, lgr: 1, egd: 7 }, 1681), SHA, 'rival', 1000);
    expect(entry).toMatchObject({ player: 'rival', epg: 840, egr: 1, lpg: 0, lgr: 0, egd: 7, minbp: 0, gauge: 0, maxcombo: 0 });
  });
});

/** A small deterministic generator, so that a failure can be replayed. */
function prng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ODD_VALUES: unknown[] = [null, -1, 0, 1.5, 1e300, '', 'x', true, [], {}, [1, 2], { a: 1 }, 'BEAT_7K', 'Max', -0.5, 2 ** 53];

/** A valid body with a few fields removed or replaced by odd values, at any depth. */
function mutatedBody(random: () => number): unknown {
  const b = JSON.parse(JSON.stringify(random() < 0.5 ? body() : pmsBody())) as Record<string, Record<string, unknown>>;
  const edits = Math.floor(random() * 3);
  for (let i = 0; i < edits; i++) {
    const pick = random() < 0.2 ? (b as Record<string, unknown>) : random() < 0.5 ? b.chart : b.score;
    // an earlier edit may have replaced the chart or score itself
    if (typeof pick !== 'object' || pick === null || Array.isArray(pick)) continue;
    const part = pick as Record<string, unknown>;
    const keys = Object.keys(part);
    const key = keys[Math.floor(random() * keys.length)];
    if (random() < 0.3) delete part[key];
    else part[key] = ODD_VALUES[Math.floor(random() * ODD_VALUES.length)];
  }
  return b;
}

describe('ir/beatoraja parser on random input', () => {
  it('only ever accepts or rejects with a 400; the converter never throws', () => {
    const random = prng(11);
    let accepted = 0;
    for (let i = 0; i < 3000; i++) {
      const b = i % 10 === 0 ? ODD_VALUES[i % ODD_VALUES.length] : mutatedBody(random);
      let parsed: ParsedImport<BeatorajaItem> | undefined;
      try {
        parsed = parseBeatoraja(beatorajaType.read({ body: b, fields: { timeReceived: T } }));
      } catch (err) {
        expect(err).toBeInstanceOf(ImportRejectedError);
        expect((err as ImportRejectedError).getStatus()).toBe(400);
      }
      if (parsed) {
        accepted++;
        expect(['score', 'error']).toContain(convertBeatoraja(parsed.items[0], parsed).kind);
      }
    }
    expect(accepted).toBeGreaterThan(100);
  });
});
