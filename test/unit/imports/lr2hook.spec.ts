import { describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import path from 'node:path';
import { BMS } from '../../../src/game-support/bms/index.js';
import { ImportRejectedError } from '../../../src/imports/import-errors.js';
import { courseCleared, lr2hookCourse } from '../../../src/imports/import-types/lr2hook/course.js';
import { checkLr2hookBody, lr2hook, type Lr2hookBody } from '../../../src/imports/import-types/lr2hook/lr2hook.js';
import { validateScoreElement } from '../../../src/imports/score-element.js';

const FIXTURE = JSON.parse(fs.readFileSync(path.resolve('test/fixtures/imports/lr2hook/score.json'), 'utf8')) as Lr2hookBody;
const RECEIVED = Date.UTC(2024, 5, 1, 20);
const LIMITS = { maxScores: 1000 };

type Body = Record<string, unknown> & { playerData: Record<string, unknown>; scoreData: Record<string, unknown> };
const body = (): Body => structuredClone(FIXTURE) as Body;
const graph = (last: number, fill = 50) => [...Array.from({ length: 999 }, () => fill), last];
const extended = (overrides: Record<string, number> = {}) => ({
  epg: 400,
  lpg: 300,
  egr: 120,
  lgr: 80,
  egd: 35,
  lgd: 25,
  ebd: 12,
  lbd: 8,
  epr: 11,
  lpr: 9,
  cb: 40,
  fast: 178,
  slow: 122,
  notesPlayed: 1000,
  ...overrides,
});

const parse = (b: unknown, receivedAt = RECEIVED) => lr2hook.parse({ body: b, receivedAt }, LIMITS);

/** The element the converter makes of this body. */
function elementOf(b: unknown, receivedAt = RECEIVED): Record<string, unknown> & { optional: Record<string, unknown>; scoreMeta: Record<string, unknown> } {
  const parsed = parse(b, receivedAt);
  const converted = lr2hook.convert(parsed.items[0], parsed);
  if (converted.kind !== 'score') throw new Error(`expected a score, got ${JSON.stringify(converted)}`);
  return converted.element as never;
}

function rejection(fn: () => unknown): { status: number; message: string } {
  try {
    fn();
  } catch (err) {
    if (err instanceof ImportRejectedError) return { status: err.getStatus(), message: err.message };
    throw err;
  }
  throw new Error('expected an ImportRejectedError');
}

describe('ir/lr2hook', () => {
  it('reads the body with its receive time', () => {
    const before = Date.now();
    const input = lr2hook.read({ body: { a: 1 }, fields: {} }) as { body: unknown; receivedAt: number };
    expect(input.body).toEqual({ a: 1 });
    expect(input.receivedAt).toBeGreaterThanOrEqual(before);
    expect(input.receivedAt).toBeLessThanOrEqual(Date.now());
  });

  it('converts the fixture into a BMS 7K score element, value by value', () => {
    const parsed = parse(FIXTURE);
    expect(`${parsed.gpt.game} ${parsed.gpt.playtype}`).toBe('bms 7K');
    expect(parsed.context).toEqual({ service: 'LR2Hook', version: null });
    expect(parsed.classes).toEqual({});
    expect(parsed.items).toHaveLength(1);
    expect(elementOf(FIXTURE)).toEqual({
      score: 1600,
      lamp: 'HARD CLEAR',
      matchType: 'bmsChartHash',
      identifier: '70f095d4df7fbc0e0f8e318f5603bec9',
      // unixTimestamp 1705320000 s
      timeAchieved: 1_705_320_000_000,
      judgements: { pgreat: 700, great: 200, good: 60, bad: 20, poor: 20 },
      optional: { maxCombo: 412, bp: 40, gauge: 64, gaugeHistory: FIXTURE.scoreData.hpGraph },
      scoreMeta: { client: 'LR2', random: 'RANDOM', gauge: 'HARD' },
    });
  });

  it('gives an element the shared validation accepts for BMS 7K', () => {
    expect(validateScoreElement(elementOf(FIXTURE), 0, BMS.gpts['7K'], RECEIVED)).toMatchObject({ ok: true });
    const b = body();
    b.scoreData.extendedJudgements = extended();
    b.scoreData.extendedHpGraphs = { groove: graph(1), hard: graph(2), hazard: graph(3), easy: graph(4), pattack: graph(5), gattack: graph(6) };
    expect(validateScoreElement(elementOf(b), 0, BMS.gpts['7K'], RECEIVED)).toMatchObject({ ok: true });
  });

  it.each([
    ['NO PLAY', 'NO PLAY'],
    ['FAIL', 'FAILED'],
    ['EASY', 'EASY CLEAR'],
    ['NORMAL', 'CLEAR'],
    ['HARD', 'HARD CLEAR'],
    ['FULL COMBO', 'FULL COMBO'],
  ])('maps the lamp %s to %s', (lamp, expected) => {
    const b = body();
    b.scoreData.lamp = lamp;
    expect(elementOf(b).lamp).toBe(expected);
  });

  it.each([
    ['NORAN', 'NONRAN'],
    ['MIRROR', 'MIRROR'],
    ['RAN', 'RANDOM'],
    ['S-RAN', 'S-RANDOM'],
  ])('maps the random option %s to %s', (random, expected) => {
    const b = body();
    b.playerData.random = random;
    expect(elementOf(b).scoreMeta.random).toBe(expected);
  });

  it.each([
    ['GROOVE', 'NORMAL'],
    ['EASY', 'EASY'],
    ['HARD', 'HARD'],
    ['HAZARD', 'HARD'],
    ['P-ATTACK', 'HARD'],
    ['G-ATTACK', 'HARD'],
  ])('maps the gauge %s to %s', (gauge, expected) => {
    const b = body();
    b.playerData.gauge = gauge;
    expect(elementOf(b).scoreMeta.gauge).toBe(expected);
  });

  describe('BP', () => {
    it('is bad + poor for a chart played to its end', () => {
      expect(elementOf(FIXTURE).optional.bp).toBe(40);
    });

    it('is unknown (null) when the play stopped early', () => {
      const b = body();
      b.scoreData.notesPlayed = 640;
      expect(elementOf(b).optional.bp).toBeNull();
    });

    it('with extended judgements, counts the notes not played: bad + poor + notesTotal − notesPlayed', () => {
      const b = body();
      b.scoreData.notesPlayed = 640;
      b.scoreData.extendedJudgements = extended({ notesPlayed: 640 });
      // 20 + 20 + 1000 − 640
      expect(elementOf(b).optional.bp).toBe(400);
      b.scoreData.extendedJudgements = extended({ notesPlayed: 1000 });
      expect(elementOf(b).optional.bp).toBe(40);
    });
  });

  it('takes the gauge from the last of the 1000 graph points', () => {
    const b = body();
    b.scoreData.hpGraph = graph(0, 100);
    expect(elementOf(b).optional).toMatchObject({ gauge: 0, gaugeHistory: graph(0, 100) });
  });

  it('copies extended judgements to early/late counts and fast/slow, and the easy, groove and hard graphs', () => {
    const b = body();
    b.scoreData.extendedJudgements = extended();
    b.scoreData.extendedHpGraphs = { groove: graph(1), hard: graph(2), hazard: graph(3), easy: graph(4), pattack: graph(5), gattack: graph(6) };
    expect(elementOf(b).optional).toEqual({
      maxCombo: 412,
      bp: 40,
      gauge: 64,
      gaugeHistory: FIXTURE.scoreData.hpGraph,
      fast: 178,
      slow: 122,
      epg: 400,
      lpg: 300,
      egr: 120,
      lgr: 80,
      egd: 35,
      lgd: 25,
      ebd: 12,
      lbd: 8,
      epr: 11,
      lpr: 9,
      gaugeHistoryEasy: graph(4),
      gaugeHistoryGroove: graph(1),
      gaugeHistoryHard: graph(2),
    });
  });

  it('dates the score by unixTimestamp (seconds), else by when it arrived', () => {
    const b = body();
    delete b.unixTimestamp;
    expect(elementOf(b, RECEIVED).timeAchieved).toBe(RECEIVED);
    b.unixTimestamp = null;
    expect(elementOf(b, RECEIVED).timeAchieved).toBe(RECEIVED);
    b.unixTimestamp = 1_717_000_000;
    expect(elementOf(b, RECEIVED).timeAchieved).toBe(1_717_000_000_000);
  });

  it('allows extra keys and accepts an absent rseed, gameMode of any kind', () => {
    const b = body();
    b.somethingNew = { x: 1 };
    b.playerData.extra = true;
    b.scoreData.extra = 'x';
    delete b.playerData.rseed;
    b.playerData.gameMode = { odd: [1] };
    expect(elementOf(b).score).toBe(1600);
  });

  describe('a malformed body rejects the request (400) with where', () => {
    const cases: [string, (b: Body) => void, RegExp][] = [
      ['autoScr on', (b) => (b.playerData.autoScr = 1), /playerData\.autoScr: must be 0: with auto-scratch on, LR2 counts a clear as an easy clear/],
      ['random ALLSCR', (b) => (b.playerData.random = 'ALLSCR'), /playerData\.random/],
      ['random H-RAN', (b) => (b.playerData.random = 'H-RAN'), /playerData\.random/],
      ['an unknown gauge', (b) => (b.playerData.gauge = 'EXHARD'), /playerData\.gauge/],
      ['rseed out of range', (b) => (b.playerData.rseed = 32767), /playerData\.rseed/],
      ['an unknown lamp', (b) => (b.scoreData.lamp = 'EXHARD'), /scoreData\.lamp/],
      ['a negative judgement', (b) => (b.scoreData.bad = -1), /scoreData\.bad/],
      ['a fractional exScore', (b) => (b.scoreData.exScore = 1.5), /scoreData\.exScore/],
      ['a string count', (b) => (b.scoreData.notesTotal = '1000'), /scoreData\.notesTotal/],
      ['no moneyScore', (b) => delete b.scoreData.moneyScore, /scoreData\.moneyScore/],
      ['999 graph points', (b) => (b.scoreData.hpGraph = graph(1).slice(1)), /scoreData\.hpGraph/],
      ['1001 graph points', (b) => (b.scoreData.hpGraph = [...graph(1), 1]), /scoreData\.hpGraph/],
      ['a graph point above 100', (b) => (b.scoreData.hpGraph = graph(101)), /scoreData\.hpGraph\.999/],
      ['a fractional graph point', (b) => (b.scoreData.hpGraph = graph(50.5)), /scoreData\.hpGraph\.999/],
      ['an incomplete extendedJudgements', (b) => (b.scoreData.extendedJudgements = { epg: 1 }), /scoreData\.extendedJudgements\.lpg/],
      ['an extended graph of the wrong length', (b) => (b.scoreData.extendedHpGraphs = { groove: [1] }), /scoreData\.extendedHpGraphs\.groove/],
      ['a negative unixTimestamp', (b) => (b.unixTimestamp = -1), /unixTimestamp/],
      ['no md5', (b) => delete b.md5, /md5/],
      ['no playerData', (b) => delete (b as Record<string, unknown>).playerData, /playerData/],
      ['no scoreData', (b) => delete (b as Record<string, unknown>).scoreData, /scoreData/],
    ];
    it.each(cases)('%s', (_, mutate, message) => {
      const b = body();
      mutate(b);
      const r = rejection(() => parse(b));
      expect(r.status).toBe(400);
      expect(r.message).toMatch(/^Invalid LR2Hook request: /);
      expect(r.message).toMatch(message);
    });

    it.each([null, [], 'text', 5])('the body %p', (b) => {
      expect(rejection(() => parse(b)).message).toMatch(/^Invalid LR2Hook request: body: /);
    });
  });

  it('leaves chart hash checks to the shared validation (a per-score error)', () => {
    const b = body();
    b.md5 = 'not-a-hash';
    const v = validateScoreElement(elementOf(b), 0, BMS.gpts['7K'], RECEIVED);
    expect(v).toMatchObject({ ok: false, message: expect.stringMatching(/identifier 'not-a-hash' must be an MD5/) });
  });
});

describe('ir/lr2hook-course', () => {
  it('counts a course as cleared only with every note played and a clear lamp', () => {
    const score = checkLr2hookBody(FIXTURE).scoreData;
    expect(courseCleared(score)).toBe(true);
    expect(courseCleared({ ...score, notesPlayed: 999 })).toBe(false);
    expect(courseCleared({ ...score, lamp: 'FAIL' })).toBe(false);
    expect(courseCleared({ ...score, lamp: 'NO PLAY' })).toBe(false);
    for (const lamp of ['EASY', 'NORMAL', 'HARD', 'FULL COMBO'] as const) expect(courseCleared({ ...score, lamp })).toBe(true);
  });

  it("gives the course's class, on the course's playtype, and no score", () => {
    const input = lr2hookCourse.read({
      fields: { course: { title: 'GENOSIDE 2018 段位認定 発狂初段', playtype: '7K', set: 'genocideDan', value: 'INSANE_1' } },
    });
    const parsed = lr2hookCourse.parse(input, LIMITS);
    expect(`${parsed.gpt.game} ${parsed.gpt.playtype}`).toBe('bms 7K');
    expect(parsed.classes).toEqual({ genocideDan: 'INSANE_1' });
    expect(parsed.items).toEqual([]);
    expect(parsed.context).toEqual({ service: 'LR2Hook', version: null });
    const dp = lr2hookCourse.parse({ title: 'x', playtype: '14K', set: 'stslDan', value: 'SL3' }, LIMITS);
    expect(`${dp.gpt.playtype} ${JSON.stringify(dp.classes)}`).toBe('14K {"stslDan":"SL3"}');
  });

  it.each([
    [{ title: 'x', playtype: '9K', set: 'genocideDan', value: 'INSANE_1' }],
    [{ title: 'x', playtype: '7K', set: 'dan', value: 'INSANE_1' }],
    [{ title: 'x', playtype: '7K', set: 'genocideDan', value: 'INSANE_11' }],
    [{ title: 'x', playtype: '14K', set: 'lnDan', value: 'DAN_1' }],
    [{ title: 'x', playtype: '7K', set: 'constructor', value: 'x' }],
    [null],
  ])('refuses a stored course that names no class: %p', (course) => {
    expect(rejection(() => lr2hookCourse.parse(course, LIMITS)).status).toBe(400);
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

describe('random and truncated bodies only ever give a 400 or a score element', () => {
  const VALUES: unknown[] = [null, -1, 0, 1, 1.5, 1000, 'x', '', 'FAIL', 'NORAN', true, [], {}, [1, 2], { a: 1 }, graph(1)];

  function run(b: unknown) {
    try {
      const parsed = parse(b);
      expect(lr2hook.convert(parsed.items[0], parsed).kind).toBe('score');
    } catch (err) {
      if (!(err instanceof ImportRejectedError)) throw err;
      expect(err.getStatus()).toBe(400);
    }
  }

  /** Every [path] of a value's keys, nested objects included (array elements left out). */
  const paths = (value: unknown, prefix: string[] = []): string[][] =>
    value && typeof value === 'object' && !Array.isArray(value) ? Object.entries(value).flatMap(([k, v]) => [[...prefix, k], ...paths(v, [...prefix, k])]) : [];

  it('random values at random places', () => {
    const next = random(7);
    const all = paths(FIXTURE);
    for (let k = 0; k < 500; k += 1) {
      const b = body() as Record<string, unknown>;
      for (let m = 0; m < 1 + Math.floor(next() * 3); m += 1) {
        const p = all[Math.floor(next() * all.length)];
        let holder = b;
        for (const key of p.slice(0, -1)) {
          if (!holder[key] || typeof holder[key] !== 'object') break;
          holder = holder[key] as Record<string, unknown>;
        }
        if (next() < 0.2) delete holder[p[p.length - 1]];
        else holder[p[p.length - 1]] = VALUES[Math.floor(next() * VALUES.length)];
      }
      run(b);
    }
  });

  it('truncated JSON text, parsed as far as it goes', () => {
    const text = JSON.stringify(FIXTURE);
    for (let n = 0; n < text.length; n += 37) {
      let value: unknown;
      try {
        value = JSON.parse(text.slice(0, n));
      } catch {
        value = text.slice(0, n);
      }
      run(value);
    }
  });
});
