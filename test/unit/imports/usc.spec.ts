import { describe, expect, it } from '@jest/globals';
import { ImportRejectedError } from '../../../src/imports/import-errors.js';
import { convertUsc, parseUsc, uscIr, uscLamp, uscNoteMod, uscTimeAchieved } from '../../../src/imports/import-types/usc/usc-ir.js';
import { pbServerScore, playServerScore, uscErrorShape, uscStatusOf } from '../../../src/ir/usc/usc-replies.js';
import type { PbReadRow, ScoreRow } from '../../../src/database/schema.js';

const HASH = '55f5f3a19f5864d9fd8693419404ee818d499e51';
const RECEIVED = Date.UTC(2024, 0, 15, 12);
const PLAYED_S = Math.floor(RECEIVED / 1000) - 600;

function submission(score: Record<string, unknown> = {}, chart: Record<string, unknown> = {}) {
  return {
    chart: {
      chartHash: HASH,
      artist: 'USC Tester',
      title: 'IR Test Song',
      effector: 'fixture',
      illustrator: 'someone',
      bpm: '180',
      level: 17,
      difficulty: 2,
      ...chart,
    },
    score: {
      score: 9_512_345,
      gauge: 0.83,
      timestamp: PLAYED_S,
      crit: 1200,
      near: 40,
      error: 3,
      early: 25,
      late: 15,
      combo: 800,
      options: { gaugeType: 0, mirror: false, random: false, autoFlags: 0 },
      windows: { perfect: 46, good: 150, hold: 150, miss: 300, slam: 84 },
      ...score,
    },
  };
}

const parse = (body: unknown, playtype = 'Controller') => parseUsc({ playtype, receivedAt: RECEIVED, body });
const convert = (body: unknown) => convertUsc(parse(body).items[0]);
const scoreOf = (over: Record<string, unknown>) => parse(submission(over)).items[0].submission.score;

describe('ir/usc parse: whole-submission failures (FATAL, USC 40)', () => {
  it('reads a valid submission into the GPT of the route, service USC-IR, one item', () => {
    const parsed = parse(submission(), 'Keyboard');
    expect(parsed.gpt.game).toBe('usc');
    expect(parsed.gpt.playtype).toBe('Keyboard');
    expect(parsed.context).toEqual({ service: 'USC-IR', version: null });
    expect(parsed.classes).toEqual({});
    expect(parsed.items).toHaveLength(1);
    expect(parsed.items[0].receivedAt).toBe(RECEIVED);
  });

  it('allows extra keys (clients add fields between versions)', () => {
    expect(() =>
      parse({ ...submission({ newField: 1, options: { gaugeType: 0, mirror: false, random: false, autoFlags: 0, gaugeOption: 3 } }), extra: true }),
    ).not.toThrow();
  });

  it('refuses a playtype other than Controller and Keyboard', () => {
    expect(() => parse(submission(), 'Single')).toThrow(/playtype must be one of Controller, Keyboard/);
    expect(() => parse(submission(), 'constructor')).toThrow(ImportRejectedError);
  });

  const bad: [string, unknown, RegExp][] = [
    ['not an object', 'a score', /body: /],
    ['null', null, /body: /],
    ['an array', [submission()], /body: /],
    ['no chart', { score: submission().score }, /chart: /],
    ['no score', { chart: submission().chart }, /score: /],
    ['a chartHash that is no SHA1', submission({}, { chartHash: 'abc' }), /chart\.chartHash: must be the chart file SHA1/],
    ['a 64-character chartHash', submission({}, { chartHash: 'a'.repeat(64) }), /chart\.chartHash/],
    ['no artist', submission({}, { artist: undefined }), /chart\.artist/],
    ['a numeric bpm', submission({}, { bpm: 180 }), /chart\.bpm/],
    ['level 0', submission({}, { level: 0 }), /chart\.level/],
    ['level 21', submission({}, { level: 21 }), /chart\.level/],
    ['a fractional level', submission({}, { level: 17.5 }), /chart\.level/],
    ['difficulty -1', submission({}, { difficulty: -1 }), /chart\.difficulty/],
    ['difficulty 4', submission({}, { difficulty: 4 }), /chart\.difficulty/],
    ['a negative score', submission({ score: -1 }), /score\.score/],
    ['a score above 10,000,000', submission({ score: 10_000_001 }), /score\.score/],
    ['a fractional score', submission({ score: 9_000_000.5 }), /score\.score/],
    ['a string score', submission({ score: '9000000' }), /score\.score/],
    ['gauge above 1', submission({ gauge: 1.01 }), /score\.gauge/],
    ['gauge below 0', submission({ gauge: -0.1 }), /score\.gauge/],
    ['no timestamp', submission({ timestamp: undefined }), /score\.timestamp/],
    ['a fractional timestamp', submission({ timestamp: 1.5 }), /score\.timestamp/],
    ['negative crit', submission({ crit: -1 }), /score\.crit/],
    ['no near', submission({ near: undefined }), /score\.near/],
    ['a fractional error', submission({ error: 0.5 }), /score\.error/],
    ['negative early', submission({ early: -2 }), /score\.early/],
    ['a string combo', submission({ combo: '5' }), /score\.combo/],
    ['no options', submission({ options: undefined }), /score\.options/],
    ['gaugeType 3', submission({ options: { gaugeType: 3, mirror: false, random: false, autoFlags: 0 } }), /score\.options\.gaugeType/],
    ['mirror as a number', submission({ options: { gaugeType: 0, mirror: 1, random: false, autoFlags: 0 } }), /score\.options\.mirror/],
    ['no autoFlags', submission({ options: { gaugeType: 0, mirror: false, random: false } }), /score\.options\.autoFlags/],
    ['no windows', submission({ windows: undefined }), /score\.windows/],
    ['a window as a string', submission({ windows: { perfect: '46', good: 150, hold: 150, miss: 300, slam: 84 } }), /score\.windows\.perfect/],
    ['no slam window', submission({ windows: { perfect: 46, good: 150, hold: 150, miss: 300 } }), /score\.windows\.slam/],
  ];
  it.each(bad)('rejects %s with a 400 that says where', (_name, body, message) => {
    let thrown: unknown;
    try {
      parse(body);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(ImportRejectedError);
    expect((thrown as ImportRejectedError).getStatus()).toBe(400);
    expect((thrown as Error).message).toMatch(/^Invalid USC score submission: /);
    expect((thrown as Error).message).toMatch(message);
  });

  it('read keeps the route playtype, the receive time and the body as the input', () => {
    const before = Date.now();
    const input = uscIr.read({ body: { a: 1 }, fields: { playtype: 'Keyboard' } }) as { playtype: string; receivedAt: number; body: unknown };
    expect(input.playtype).toBe('Keyboard');
    expect(input.body).toEqual({ a: 1 });
    expect(input.receivedAt).toBeGreaterThanOrEqual(before);
    expect(input.receivedAt).toBeLessThanOrEqual(Date.now());
  });
});

describe('ir/usc convert', () => {
  it('maps a submission onto a batch-manual element, field by field', () => {
    expect(convert(submission())).toEqual({
      kind: 'score',
      element: {
        matchType: 'uscChartHash',
        identifier: HASH,
        score: 9_512_345,
        lamp: 'CLEAR',
        judgements: { critical: 1200, near: 40, miss: 3 },
        optional: { fast: 25, slow: 15, maxCombo: 800, gauge: 0.83 },
        scoreMeta: { noteMod: 'NORMAL', gaugeMod: 'NORMAL' },
        timeAchieved: PLAYED_S * 1000,
      },
    });
  });

  it('lowercases the chart hash', () => {
    const converted = convert(submission({}, { chartHash: HASH.toUpperCase() }));
    expect(converted.kind === 'score' && (converted.element as { identifier: string }).identifier).toBe(HASH);
  });

  it('sends fast, slow and maxCombo as null when early, late and combo are absent or null', () => {
    const converted = convert(submission({ early: undefined, late: null, combo: undefined }));
    expect(converted.kind === 'score' && (converted.element as { optional: unknown }).optional).toEqual({
      fast: null,
      slow: null,
      maxCombo: null,
      gauge: 0.83,
    });
  });

  it('rejects an autoplayed score (autoFlags not 0), whatever else it holds (INVALID)', () => {
    for (const autoFlags of [1, 2, 3, -1]) {
      const converted = convert(submission({ options: { gaugeType: 0, mirror: false, random: false, autoFlags } }));
      expect(converted).toEqual({ kind: 'error', message: `Autoplay was enabled (options.autoFlags ${autoFlags}): the score is not kept.` });
    }
  });

  it.each([
    ['perfect', 45],
    ['good', 151],
    ['hold', 100],
    ['miss', 250],
    ['slam', 85],
    ['perfect', 46.5],
  ])('rejects a score whose %s window is %d ms (INVALID)', (name, ms) => {
    const windows = { perfect: 46, good: 150, hold: 150, miss: 300, slam: 84, [name]: ms };
    expect(convert(submission({ windows }))).toEqual({
      kind: 'error',
      message: `HitWindows have been modified (${name} ${ms}); only the defaults are accepted (perfect 46, good 150, hold 150, miss 300, slam 84 ms).`,
    });
  });

  it('names every modified window', () => {
    const converted = convert(submission({ windows: { perfect: 40, good: 150, hold: 150, miss: 200, slam: 84 } }));
    expect(converted.kind === 'error' && converted.message).toMatch(/^HitWindows have been modified \(perfect 40, miss 200\)/);
  });

  it('checks autoplay before the windows', () => {
    const converted = convert(
      submission({ options: { gaugeType: 0, mirror: false, random: false, autoFlags: 1 }, windows: { perfect: 1, good: 1, hold: 1, miss: 1, slam: 1 } }),
    );
    expect(converted.kind === 'error' && converted.message).toMatch(/^Autoplay/);
  });
});

describe('ir/usc mapping tables', () => {
  // [score, error, gaugeType, gauge] → lamp, worked out from the rules in order.
  const lamps: [number, number, 0 | 1 | 2, number, string][] = [
    [10_000_000, 0, 0, 1, 'PERFECT ULTIMATE CHAIN'],
    [10_000_000, 0, 2, 0, 'PERFECT ULTIMATE CHAIN'], // a perfect score wins over a permissive gauge
    [9_990_000, 0, 0, 0.2, 'ULTIMATE CHAIN'], // no error wins over a failing gauge
    [9_990_000, 0, 2, 0.5, 'ULTIMATE CHAIN'],
    [9_000_000, 1, 0, 0.7, 'CLEAR'], // exactly 70% clears
    [9_000_000, 1, 0, 0.69, 'FAILED'],
    [9_000_000, 5, 0, 1, 'CLEAR'],
    [9_000_000, 1, 1, 0.01, 'EXCESSIVE CLEAR'],
    [9_000_000, 1, 1, 0, 'FAILED'],
    [9_000_000, 1, 2, 1, 'FAILED'], // permissive never clears
    [0, 100, 2, 0, 'FAILED'],
  ];
  it.each(lamps)('score %d, error %d, gaugeType %d, gauge %d → %s', (score, error, gaugeType, gauge, lamp) => {
    expect(uscLamp(scoreOf({ score, error, gauge, options: { gaugeType, mirror: false, random: false, autoFlags: 0 } }))).toBe(lamp);
  });

  it.each([
    [false, false, 'NORMAL'],
    [true, false, 'MIRROR'],
    [false, true, 'RANDOM'],
    [true, true, 'MIR-RAN'],
  ])('mirror %s, random %s → noteMod %s', (mirror, random, noteMod) => {
    expect(uscNoteMod({ gaugeType: 0, mirror, random, autoFlags: 0 })).toBe(noteMod);
  });

  it.each([
    [0, 'NORMAL'],
    [1, 'HARD'],
    [2, 'PERMISSIVE'],
  ])('gaugeType %d → gaugeMod %s', (gaugeType, gaugeMod) => {
    const converted = convert(submission({ gauge: 0.9, options: { gaugeType, mirror: false, random: false, autoFlags: 0 } }));
    expect(converted.kind === 'score' && (converted.element as { scoreMeta: unknown }).scoreMeta).toEqual({ noteMod: 'NORMAL', gaugeMod });
  });

  it("takes the client's timestamp (seconds → ms) when plausible, else the receive time", () => {
    expect(uscTimeAchieved(PLAYED_S, RECEIVED)).toBe(PLAYED_S * 1000);
    expect(uscTimeAchieved(0, RECEIVED)).toBe(RECEIVED); // no clock
    expect(uscTimeAchieved(999_999_999, RECEIVED)).toBe(RECEIVED); // before 2001-09-09
    expect(uscTimeAchieved(1_000_000_000, RECEIVED)).toBe(1_000_000_000_000);
    const day = 24 * 60 * 60;
    expect(uscTimeAchieved(RECEIVED / 1000 + day, RECEIVED)).toBe(RECEIVED + day * 1000); // within a day ahead (time zones)
    expect(uscTimeAchieved(RECEIVED / 1000 + day + 1, RECEIVED)).toBe(RECEIVED);
  });

  const scoreData = (lamp: string, judgements: Record<string, number | null> = { critical: 10, near: 2, miss: 1 }) =>
    ({ score: 9_000_000, percent: 90, lamp, lampIndex: 0, grade: 'A+', gradeIndex: 4, judgements, optional: {} }) as PbReadRow['scoreData'];

  it.each([
    ['FAILED', 1],
    ['CLEAR', 2],
    ['EXCESSIVE CLEAR', 3],
    ['ULTIMATE CHAIN', 4],
    ['PERFECT ULTIMATE CHAIN', 5],
  ])('lamp %s → USC clear mark %d', (lamp, mark) => {
    const play = { scoreData: scoreData(lamp), scoreMeta: {}, timeAchieved: null } as unknown as ScoreRow;
    expect(playServerScore(play, 1, 'x').lamp).toBe(mark);
  });

  it('builds a ServerScore from a play: seconds, judgements, ranking, modifiers', () => {
    const play = { scoreData: scoreData('CLEAR'), scoreMeta: { noteMod: 'MIRROR', gaugeMod: 'HARD' }, timeAchieved: 1_705_320_000_999 } as unknown as ScoreRow;
    expect(playServerScore(play, 4, 'alice')).toEqual({
      score: 9_000_000,
      timestamp: 1_705_320_000,
      crit: 10,
      near: 2,
      error: 1,
      ranking: 4,
      lamp: 2,
      username: 'alice',
      noteMod: 'MIRROR',
      gaugeMod: 'HARD',
    });
  });

  it('builds a ServerScore from a PB: the time of the play that set its score, NORMAL modifiers when a score has none, 0 for missing judgements', () => {
    const pb = {
      scoreData: scoreData('ULTIMATE CHAIN', { critical: 5, near: null }),
      rank: 2,
      rankTime: 1_705_000_000_000,
      timeAchieved: 1_705_300_000_000,
    } as PbReadRow;
    expect(pbServerScore({ pb, username: 'bob', scoreMeta: {} })).toEqual({
      score: 9_000_000,
      timestamp: 1_705_000_000,
      crit: 5,
      near: 0,
      error: 0,
      ranking: 2,
      lamp: 4,
      username: 'bob',
      noteMod: 'NORMAL',
      gaugeMod: 'NORMAL',
    });
    expect(pbServerScore({ pb: { ...pb, rankTime: null, timeAchieved: null }, username: 'bob', scoreMeta: {} }).timestamp).toBe(0);
  });
});

describe('ir/usc error shape: every HTTP error becomes a 200 with a USC code', () => {
  it.each([
    [400, 'Invalid USC score submission: chart: …', 40],
    [401, 'Authentication is required for this endpoint.', 40],
    [401, "Malformed Authorization header: expected 'Bearer <token>'.", 40],
    [401, 'The provided API token does not correspond to any key.', 41],
    [403, 'This account is banned.', 43],
    [403, 'You are missing the following permissions necessary for this request: submit_score.', 43],
    [404, 'Cannot GET /ir/usc/Controller/nothing', 44],
    [409, 'You already have an import in progress.', 40],
    [413, 'The uploaded file is too large.', 40],
    [429, 'Too many requests.', 40],
    [500, 'An internal server error occurred.', 50],
    [503, 'Unavailable.', 50],
  ])('HTTP %d (%s) → USC %d', (status, message, code) => {
    expect(uscStatusOf(status, message)).toBe(code);
    expect(uscErrorShape.render(status, message)).toEqual({ status: 200, body: { statusCode: code, description: message } });
  });

  it('applies under /ir/usc/ only', () => {
    expect(uscErrorShape.pathPrefix).toBe('/ir/usc/');
  });
});
