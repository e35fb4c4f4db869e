import { describe, expect, it } from '@jest/globals';
import { headNamesOf, headOptionalMetricsOf, toHeadScoreData } from '../../../src/game-support/common/head-names.js';
import { canonicalMatchType, headMatchTypeName } from '../../../src/game-support/match-types.js';
import { allGpts, findGpt } from '../../../src/game-support/registry.js';
import type { ScoreData } from '../../../src/game-support/types.js';

const gptOf = (game: string, playtype = 'Single') => findGpt(game, playtype)!;
const fromHead = (game: string, playtype: string, element: Record<string, unknown>) => headNamesOf(gptOf(game, playtype)).fromHead(element);

/** A scoreData with these fields; indexes as the test states them. */
function data(fields: Partial<ScoreData>): ScoreData {
  return { score: 0, percent: 0, lamp: 'FAILED', lampIndex: 0, grade: 'D', gradeIndex: 0, judgements: {}, optional: {}, ...fields };
}

describe('CHUNITHM: HEAD’s noteLamp + clearLamp and the single lamp', () => {
  it.each([
    // [noteLamp, clearLamp] → the single lamp, and what optional keeps
    ['NONE', 'CLEAR', 'CLEAR', { clearLamp: 'CLEAR' }],
    ['NONE', 'HARD', 'CLEAR', { clearLamp: 'HARD' }],
    ['FULL COMBO', 'BRAVE', 'FULL COMBO', { clearLamp: 'BRAVE' }],
    ['ALL JUSTICE', 'CATASTROPHY', 'ALL JUSTICE', { clearLamp: 'CATASTROPHY' }],
    ['ALL JUSTICE CRITICAL', 'CLEAR', 'ALL JUSTICE CRITICAL', { clearLamp: 'CLEAR' }],
    ['NONE', 'FAILED', 'FAILED', { clearLamp: 'FAILED' }],
    // A failed full combo: the single lamp is FAILED; the combo stays as optional.noteLamp.
    ['FULL COMBO', 'FAILED', 'FAILED', { clearLamp: 'FAILED', noteLamp: 'FULL COMBO' }],
  ])('noteLamp %s + clearLamp %s is lamp %s', (noteLamp, clearLamp, lamp, optional) => {
    expect(fromHead('chunithm', 'Single', { score: 1, noteLamp, clearLamp, optional: { fast: 3 } })).toEqual({
      score: 1,
      lamp,
      optional: { fast: 3, ...optional },
    });
  });

  it('puts the clear lamp into hitMeta when the element sends its optional metrics by that older name', () => {
    expect(fromHead('chunithm', 'Single', { noteLamp: 'NONE', clearLamp: 'HARD', hitMeta: { slow: 1 } })).toEqual({
      lamp: 'CLEAR',
      hitMeta: { slow: 1, clearLamp: 'HARD' },
    });
  });

  it('leaves an element with the single lamp as it was', () => {
    const element = { score: 5, lamp: 'CLEAR', optional: { clearLamp: 'HARD' } };
    expect(fromHead('chunithm', 'Single', element)).toBe(element);
  });

  it.each([
    [{ lamp: 'CLEAR', noteLamp: 'NONE', clearLamp: 'CLEAR' }, 'Give lamp, or noteLamp and clearLamp, not both.'],
    [{ clearLamp: 'CLEAR' }, 'noteLamp and clearLamp go together: give both (or lamp alone).'],
    [{ noteLamp: 'NONE', clearLamp: 'EASY' }, 'Invalid clearLamp "EASY": expected one of FAILED, CLEAR, HARD, BRAVE, ABSOLUTE, CATASTROPHY.'],
    [
      { noteLamp: 'NONE', clearLamp: 'HARD', optional: { clearLamp: 'CLEAR' } },
      'clearLamp is given twice, differently: "HARD" and optional.clearLamp "CLEAR".',
    ],
  ])('refuses %j', (element, message) => {
    expect(fromHead('chunithm', 'Single', element)).toBe(message);
  });

  it.each([
    // [lamp, optional] → [noteLamp, clearLamp] and their indexes in HEAD's lists
    ['FAILED', {}, 'NONE', 'FAILED', 0, 0],
    ['FAILED', { clearLamp: 'FAILED', noteLamp: 'ALL JUSTICE' }, 'ALL JUSTICE', 'FAILED', 2, 0],
    ['CLEAR', {}, 'NONE', 'CLEAR', 0, 1],
    ['CLEAR', { clearLamp: 'ABSOLUTE' }, 'NONE', 'ABSOLUTE', 0, 4],
    ['FULL COMBO', { clearLamp: 'HARD' }, 'FULL COMBO', 'HARD', 1, 2],
    ['ALL JUSTICE CRITICAL', {}, 'ALL JUSTICE CRITICAL', 'CLEAR', 3, 1],
    // optional.noteLamp is read only on a FAILED lamp (a PB's lamp can come from another play than its optional metrics).
    ['CLEAR', { noteLamp: 'FULL COMBO' }, 'NONE', 'CLEAR', 0, 1],
  ])('lamp %s with %j is noteLamp %s, clearLamp %s', (lamp, optional, noteLamp, clearLamp, noteIndex, clearIndex) => {
    const gpt = gptOf('chunithm');
    const lampIndex = gpt.lamps.indexOf(lamp);
    expect(toHeadScoreData(gpt, data({ lamp, lampIndex, gradeIndex: 7, optional }))).toEqual({
      metrics: { noteLamp, clearLamp },
      enumIndexes: { lamp: lampIndex, grade: 7, noteLamp: noteIndex, clearLamp: clearIndex },
    });
  });

  it('the optional noteLamp of a failed play passes deriveScore; on another lamp it is refused', () => {
    const gpt = gptOf('chunithm');
    const chart = { chartID: 'c', songID: 1, playtype: 'Single', difficulty: 'MASTER', level: '14', levelNum: 14, isPrimary: true, versions: [], data: {} };
    expect(
      gpt.deriveScore({ score: 960_000, lamp: 'FAILED', judgements: { miss: 0 }, optional: { clearLamp: 'FAILED', noteLamp: 'FULL COMBO' } }, chart).ok,
    ).toBe(true);
    expect(gpt.deriveScore({ score: 960_000, lamp: 'FAILED', judgements: { miss: 2 }, optional: { noteLamp: 'FULL COMBO' } }, chart)).toEqual({
      ok: false,
      error: 'A FULL COMBO cannot have miss judgements.',
    });
    expect(gpt.deriveScore({ score: 960_000, lamp: 'CLEAR', judgements: {}, optional: { noteLamp: 'FULL COMBO' } }, chart)).toEqual({
      ok: false,
      error: "optional.noteLamp is only for a FAILED score; a CLEAR score's lamp already says its combo.",
    });
  });
});

describe('ONGEKI: noteLamp, bellLamp and platinumScore', () => {
  it('reads HEAD’s provided metrics into lamp and optional metrics', () => {
    expect(fromHead('ongeki', 'Single', { score: 1, noteLamp: 'ALL BREAK', bellLamp: 'FULL BELL', platinumScore: 2000, optional: { damage: 0 } })).toEqual({
      score: 1,
      lamp: 'ALL BREAK',
      optional: { damage: 0, bellLamp: 'FULL BELL', platinumScore: 2000 },
    });
    // bellLamp alone (with the older lamp) is read too.
    expect(fromHead('ongeki', 'Single', { lamp: 'CLEAR', bellLamp: 'NONE' })).toEqual({ lamp: 'CLEAR', optional: { bellLamp: 'NONE' } });
    expect(fromHead('ongeki', 'Single', { lamp: 'CLEAR', noteLamp: 'CLEAR' })).toBe('Give lamp or its HEAD name noteLamp, not both.');
  });

  it.each([
    // [score, optional] → bellLamp (index), platinumScore, platinumStars (derived with the chart when the play was stored; null without a platinumScore)
    [1_000_000, { bellLamp: 'FULL BELL', platinumScore: 2500, platinumStars: 2 }, 'FULL BELL', 1, 2500, 2],
    [1_000_000, { bellLamp: 'NONE' }, 'NONE', 0, null, null],
    // not reported: every counted bell caught is a FULL BELL; 1,010,000 needs every bell; else none is known
    [990_000, { bellCount: 40, totalBellCount: 40 }, 'FULL BELL', 1, null, null],
    [990_000, { bellCount: 39, totalBellCount: 40 }, 'NONE', 0, null, null],
    [1_010_000, {}, 'FULL BELL', 1, null, null],
    [1_009_999, {}, 'NONE', 0, null, null],
  ])('score %d with %j: bellLamp %s', (score, optional, bellLamp, bellIndex, platinumScore, platinumStars) => {
    expect(toHeadScoreData(gptOf('ongeki'), data({ score, lamp: 'FULL COMBO', lampIndex: 2, gradeIndex: 9, optional }))).toEqual({
      metrics: { noteLamp: 'FULL COMBO', bellLamp, platinumScore, platinumStars },
      enumIndexes: { lamp: 2, grade: 9, noteLamp: 2, bellLamp: bellIndex },
    });
  });
});

describe('pop’n: clearMedal', () => {
  it.each([
    ['perfect', 'PERFECT'],
    ['fullComboStar', 'FULL COMBO'],
    ['clearCircle', 'CLEAR'],
    ['easyClear', 'EASY CLEAR'],
    ['failedDiamond', 'FAILED'],
  ])('the medal %s alone gives the lamp %s', (clearMedal, lamp) => {
    expect(fromHead('popn', '9B', { score: 1, clearMedal })).toEqual({ score: 1, lamp, optional: { clearMedal } });
  });

  it('keeps a lamp sent beside the medal (the game’s check compares them)', () => {
    expect(fromHead('popn', '9B', { lamp: 'PERFECT', clearMedal: 'clearStar' })).toEqual({ lamp: 'PERFECT', optional: { clearMedal: 'clearStar' } });
  });

  it.each([
    // a reported medal is served; else the lowest medal of the lamp
    ['CLEAR', { clearMedal: 'clearStar' }, 'clearStar', 6],
    ['CLEAR', {}, 'clearCircle', 4],
    ['FAILED', {}, 'failedCircle', 0],
    ['EASY CLEAR', {}, 'easyClear', 3],
    ['FULL COMBO', {}, 'fullComboCircle', 7],
    ['PERFECT', {}, 'perfect', 10],
  ])('lamp %s with %j is the medal %s', (lamp, optional, clearMedal, index) => {
    expect(toHeadScoreData(gptOf('popn', '9B'), data({ lamp, lampIndex: 1, gradeIndex: 2, optional }))).toEqual({
      metrics: { clearMedal },
      enumIndexes: { lamp: 1, grade: 2, clearMedal: index },
    });
  });
});

describe('jubeat musicRate, ITG percents, percent-scored games', () => {
  it('jubeat: musicRate is percent', () => {
    expect(fromHead('jubeat', 'Single', { score: 900_000, musicRate: 95.5 })).toEqual({ score: 900_000, percent: 95.5 });
    expect(fromHead('jubeat', 'Single', { musicRate: 95.5, percent: 95.5 })).toEqual({ percent: 95.5 });
    expect(toHeadScoreData(gptOf('jubeat'), data({ percent: 101.2 })).metrics).toEqual({ musicRate: 101.2 });
  });

  it('ITG: scorePercent is score, survivedPercent an optional metric; finalPercent derived', () => {
    expect(fromHead('itg', 'Stamina', { scorePercent: 97.5, survivedPercent: 60, lamp: 'FAILED' })).toEqual({
      score: 97.5,
      lamp: 'FAILED',
      optional: { survivedPercent: 60 },
    });
    expect(fromHead('itg', 'Stamina', { scorePercent: 97.5, score: 90 })).toBe('Give score or its HEAD name scorePercent, not both with different values.');
    const itg = gptOf('itg', 'Stamina');
    // a fail: its survivedPercent; a clear: 100 + its score, and it survived all of the chart
    expect(toHeadScoreData(itg, data({ score: 97.5, lamp: 'FAILED', optional: { survivedPercent: 60 } })).metrics).toEqual({
      scorePercent: 97.5,
      survivedPercent: 60,
      finalPercent: 60,
    });
    expect(toHeadScoreData(itg, data({ score: 88.25, lamp: 'CLEAR' })).metrics).toEqual({ scorePercent: 88.25, survivedPercent: 100, finalPercent: 188.25 });
    // a fail with no survivedPercent: unknown, and finalPercent counts it as surviving nothing
    expect(toHeadScoreData(itg, data({ score: 50, lamp: 'FAILED' })).metrics).toEqual({ scorePercent: 50, survivedPercent: null, finalPercent: 0 });
  });

  it.each(['maimai', 'maimaidx', 'gitadora'])('%s: HEAD’s percent is the score', (game) => {
    const gpt = allGpts().find((g) => g.game === game)!;
    expect(headNamesOf(gpt).fromHead({ percent: 99.5, lamp: 'CLEAR' })).toEqual({ score: 99.5, lamp: 'CLEAR' });
    // both given and different: left for the percent rule to refuse
    expect(headNamesOf(gpt).fromHead({ percent: 99.5, score: 98 })).toEqual({ percent: 99.5, score: 98 });
    expect(Object.keys(headNamesOf(gpt).providedMetrics)).toEqual(['percent', 'lamp']);
  });
});

describe('config metrics and match type names', () => {
  it('every GPT’s defaultMetric and preferredDefaultEnum name its provided or derived metrics, the enum an ENUM', () => {
    for (const gpt of allGpts()) {
      const head = headNamesOf(gpt);
      const metrics = { ...head.providedMetrics, ...head.derivedMetrics };
      expect([gpt.game, gpt.playtype, head.defaultMetric in metrics]).toEqual([gpt.game, gpt.playtype, true]);
      expect([gpt.game, gpt.playtype, metrics[head.preferredDefaultEnum]?.type]).toEqual([gpt.game, gpt.playtype, 'ENUM']);
    }
  });

  it('HEAD’s optional metrics leave out the provided ones and type each by its schema', () => {
    expect(headOptionalMetricsOf(gptOf('ongeki'))).toEqual({
      fast: { type: 'INTEGER' },
      slow: { type: 'INTEGER' },
      maxCombo: { type: 'INTEGER' },
      damage: { type: 'INTEGER' },
      bellCount: { type: 'INTEGER' },
      totalBellCount: { type: 'INTEGER' },
      scoreGraph: { type: 'NULLABLE_GRAPH' },
      platinumGraph: { type: 'NULLABLE_GRAPH' },
      bellGraph: { type: 'NULLABLE_GRAPH' },
      lifeGraph: { type: 'NULLABLE_GRAPH' },
    });
    expect(headOptionalMetricsOf(gptOf('popn', '9B'))).toEqual({
      fast: { type: 'INTEGER' },
      slow: { type: 'INTEGER' },
      maxCombo: { type: 'INTEGER' },
      gauge: { type: 'DECIMAL' },
    });
  });

  it('tachiSongID is serviceSongID, both ways; other names are unchanged', () => {
    expect(canonicalMatchType('tachiSongID')).toBe('serviceSongID');
    expect(canonicalMatchType('inGameID')).toBe('inGameID');
    expect(canonicalMatchType('toString')).toBe('toString');
    expect(headMatchTypeName('serviceSongID')).toBe('tachiSongID');
    expect(headMatchTypeName('popnChartHash')).toBe('popnChartHash');
  });
});
