import { describe, expect, it } from '@jest/globals';
import { HttpStatus } from '@nestjs/common';
import { ImportRejectedError } from '../../../src/imports/import-errors.js';
import { apiMytFormat } from '../../../src/imports/import-types/api-myt/index.js';
import { CHUNITHM_SINGLE, convertChunithm } from '../../../src/imports/import-types/api-myt/chunithm.js';
import { parseMytInput } from '../../../src/imports/import-types/api-myt/common.js';
import { convertMaimaiDx, MAIMAIDX_SINGLE } from '../../../src/imports/import-types/api-myt/maimaidx.js';
import { convertOngeki, ONGEKI_SINGLE } from '../../../src/imports/import-types/api-myt/ongeki.js';
import { convertWacca, WACCA_SINGLE } from '../../../src/imports/import-types/api-myt/wacca.js';
import type { ConvertedItem } from '../../../src/imports/import-types/types.js';
import { validateScoreElement } from '../../../src/imports/score-element.js';
import { stageUpOf } from '../../../src/integrations/myt/myt-source.js';
import type { GptSupport } from '../../../src/game-support/types.js';
import { mytPlays } from '../../support/fake-myt-server.js';

/** 2026-11-20T20:00:00+09:00, the builders' default play date, is 11:00 UTC that day. */
const PLAYED = Date.UTC(2026, 10, 20, 11, 0, 0);
const NOW = Date.UTC(2026, 10, 27);

function elementOf(converted: ConvertedItem): Record<string, unknown> {
  if (converted.kind !== 'score') throw new Error(`expected a score, got ${JSON.stringify(converted)}`);
  return converted.element as Record<string, unknown>;
}

/** The element as the pipeline reads it for the GPT (tachi-common's names moved to this service's), or its problem. */
function validated(converted: ConvertedItem, gpt: GptSupport) {
  const result = validateScoreElement(elementOf(converted), 0, gpt, NOW);
  if (!result.ok) throw new Error(result.message);
  return result.candidate;
}

describe('api/myt-chunithm', () => {
  it('converts a play: noteLamp and clearLamp in tachi-common names, JUSTICE CRITICAL = heaven + critical', () => {
    const converted = convertChunithm(mytPlays.chunithm('p1', {}, { judge_heaven: 25, judge_critical: 875 }));
    expect(elementOf(converted)).toEqual({
      score: 1_005_000,
      noteLamp: 'NONE',
      clearLamp: 'CLEAR',
      matchType: 'inGameID',
      identifier: '1',
      difficulty: 'MASTER',
      timeAchieved: PLAYED,
      judgements: { jcrit: 900, justice: 90, attack: 8, miss: 2 },
      optional: { maxCombo: 400 },
    });
    const candidate = validated(converted, CHUNITHM_SINGLE);
    // The single lamp game-support derives: a clear with no combo is CLEAR; the gauge stays as optional.clearLamp.
    expect([candidate.input.lamp, candidate.input.optional]).toEqual(['CLEAR', { clearLamp: 'CLEAR', maxCombo: 400 }]);
  });

  it('maps ABSOLUTE to BRAVE and ABSOLUTE_PLUS to ABSOLUTE, and the combo to the derived lamp', () => {
    const brave = convertChunithm(
      mytPlays.chunithm('p2', { clear_status: 'CHUNITHM_CLEAR_STATUS_ABSOLUTE', combo_status: 'CHUNITHM_COMBO_STATUS_FULL_COMBO' }, { judge_miss: 0 }),
    );
    expect(elementOf(brave)).toMatchObject({ noteLamp: 'FULL COMBO', clearLamp: 'BRAVE' });
    // 1,000 notes: 10 heaven + 990 critical, 5 justice → jcrit 1,000; fewer than 50 below JUSTICE CRITICAL fits ABSOLUTE.
    const absolute = convertChunithm(
      mytPlays.chunithm(
        'p3',
        {
          score: 1_008_000,
          clear_status: 'CHUNITHM_CLEAR_STATUS_ABSOLUTE_PLUS',
          combo_status: 'CHUNITHM_COMBO_STATUS_ALL_JUSTICE',
          level: 'CHUNITHM_LEVEL_ULTIMA',
        },
        { judge_heaven: 10, judge_critical: 990, judge_justice: 5, judge_attack: 0, judge_miss: 0, max_combo: 1005 },
      ),
    );
    expect(elementOf(absolute)).toMatchObject({
      noteLamp: 'ALL JUSTICE',
      clearLamp: 'ABSOLUTE',
      difficulty: 'ULTIMA',
      judgements: { jcrit: 1000, justice: 5, attack: 0, miss: 0 },
    });
    const candidate = validated(absolute, CHUNITHM_SINGLE);
    expect([candidate.input.lamp, candidate.input.optional.clearLamp]).toEqual(['ALL JUSTICE', 'ABSOLUTE']);
  });

  it('keeps the combo of a failed play as its noteLamp', () => {
    const failed = convertChunithm(
      mytPlays.chunithm(
        'p4',
        { score: 700_000, clear_status: 'CHUNITHM_CLEAR_STATUS_FAILED', combo_status: 'CHUNITHM_COMBO_STATUS_FULL_COMBO' },
        { judge_miss: 0 },
      ),
    );
    const candidate = validated(failed, CHUNITHM_SINGLE);
    expect([candidate.input.lamp, candidate.input.optional]).toEqual(['FAILED', { clearLamp: 'FAILED', noteLamp: 'FULL COMBO', maxCombo: 400 }]);
  });

  it("skips WORLD'S END and refuses UNSPECIFIED or unknown enums, that item only", () => {
    expect(convertChunithm(mytPlays.chunithm('we', { level: 'CHUNITHM_LEVEL_WORLDS_END' }))).toEqual({ kind: 'skip' });
    expect(convertChunithm(mytPlays.chunithm('u1', { level: 'CHUNITHM_LEVEL_UNSPECIFIED' }))).toEqual({
      kind: 'error',
      message: 'playlog u1: level is UNSPECIFIED.',
    });
    expect(convertChunithm(mytPlays.chunithm('u2', { clear_status: 0 }))).toEqual({ kind: 'error', message: 'playlog u2: clear_status is UNSPECIFIED.' });
    expect(convertChunithm(mytPlays.chunithm('u3', { combo_status: 'CHUNITHM_COMBO_STATUS_UNSPECIFIED' }))).toEqual({
      kind: 'error',
      message: 'playlog u3: combo_status is UNSPECIFIED.',
    });
    expect(convertChunithm(mytPlays.chunithm('u4', { level: 9 }))).toEqual({ kind: 'error', message: 'playlog u4: level has the unknown value 9.' });
  });

  it('refuses a malformed item (no info, a negative score, a date that is no date) with a message naming the field', () => {
    expect(convertChunithm({ playlog_api_id: 'n1', info: null, judge: null })).toEqual({
      kind: 'error',
      message: expect.stringMatching(/^playlog n1: malformed item \(info: .*judge: .*\)\.$/),
    });
    expect(convertChunithm(mytPlays.chunithm('n2', { score: -5 }))).toEqual({
      kind: 'error',
      message: expect.stringMatching(/^playlog n2: malformed item \(info\.score: /),
    });
    expect(convertChunithm(mytPlays.chunithm('n3', { user_play_date: 'yesterday' }))).toEqual({
      kind: 'error',
      message: 'playlog n3: its play date "yesterday" is not a date.',
    });
    expect(convertChunithm('nonsense')).toEqual({ kind: 'error', message: expect.stringMatching(/^a playlog without an id: malformed item/) });
  });
});

describe('api/myt-maimaidx', () => {
  it('converts a play: percent = achievement / 10,000, a DX chart for music ids from 10,000', () => {
    const converted = convertMaimaiDx(mytPlays.maimai('m1'));
    expect(elementOf(converted)).toEqual({
      score: 98.7654,
      lamp: 'CLEAR',
      matchType: 'inGameID',
      identifier: '11000',
      difficulty: 'DX Master',
      timeAchieved: PLAYED,
      judgements: { pcrit: 500, perfect: 200, great: 30, good: 5, miss: 3 },
      optional: { fast: 12, slow: 21, maxCombo: 300 },
    });
    expect(validated(converted, MAIMAIDX_SINGLE).input.score).toBe(98.7654);
  });

  it('names standard and DX difficulties around music id 10,000', () => {
    const difficulty = (music_id: number, level: string) => elementOf(convertMaimaiDx(mytPlays.maimai('d', { music_id, level }))).difficulty;
    expect(difficulty(9_999, 'MAIMAI_LEVEL_BASIC')).toBe('Basic');
    expect(difficulty(10_000, 'MAIMAI_LEVEL_BASIC')).toBe('DX Basic');
    expect(difficulty(800, 'MAIMAI_LEVEL_REMASTER')).toBe('Re:Master');
    expect(difficulty(10_800, 'MAIMAI_LEVEL_REMASTER')).toBe('DX Re:Master');
    expect(difficulty(10_800, 'MAIMAI_LEVEL_ADVANCED')).toBe('DX Advanced');
  });

  it('is FAILED when the play did not clear, whatever its combo; ALL PERFECT+ at 101%', () => {
    expect(elementOf(convertMaimaiDx(mytPlays.maimai('f', { is_clear: false, combo_status: 'MAIMAI_COMBO_STATUS_FULL_COMBO' }))).lamp).toBe('FAILED');
    const app = convertMaimaiDx(mytPlays.maimai('ap', { achievement: 1_010_000, combo_status: 'MAIMAI_COMBO_STATUS_ALL_PERFECT_PLUS' }));
    expect(elementOf(app)).toMatchObject({ score: 101, lamp: 'ALL PERFECT+' });
    expect(validated(app, MAIMAIDX_SINGLE).input.lamp).toBe('ALL PERFECT+');
    expect(elementOf(convertMaimaiDx(mytPlays.maimai('fcp', { combo_status: 'MAIMAI_COMBO_STATUS_FULL_COMBO_PLUS' }))).lamp).toBe('FULL COMBO+');
  });

  it('skips Utage and refuses an UNSPECIFIED combo', () => {
    expect(convertMaimaiDx(mytPlays.maimai('ut', { level: 'MAIMAI_LEVEL_UTAGE' }))).toEqual({ kind: 'skip' });
    expect(convertMaimaiDx(mytPlays.maimai('uc', { combo_status: 0 }))).toEqual({ kind: 'error', message: 'playlog uc: combo_status is UNSPECIFIED.' });
    expect(convertMaimaiDx(mytPlays.maimai('ul', { level: 0 }))).toEqual({ kind: 'error', message: 'playlog ul: level is UNSPECIFIED.' });
  });
});

describe('api/myt-ongeki', () => {
  it('converts a play: noteLamp, bellLamp and platinumScore in tachi-common names, damage and bells as optional', () => {
    expect(elementOf(convertOngeki(mytPlays.ongeki('o1')))).toEqual({
      score: 1_000_500,
      noteLamp: 'FULL COMBO',
      bellLamp: 'FULL BELL',
      platinumScore: 1800,
      matchType: 'inGameID',
      identifier: '100',
      difficulty: 'MASTER',
      timeAchieved: PLAYED,
      judgements: { cbreak: 950, break: 40, hit: 3, miss: 0 },
      optional: { damage: 0, bellCount: 120, totalBellCount: 120, maxCombo: 993 },
    });
    const candidate = validated(convertOngeki(mytPlays.ongeki('o1')), ONGEKI_SINGLE);
    expect([candidate.input.lamp, candidate.input.optional.bellLamp, candidate.input.optional.platinumScore]).toEqual(['FULL COMBO', 'FULL BELL', 1800]);
  });

  it('is ALL BREAK+ at 1,010,000, else the combo, else CLEAR (cleared or over-damage) or LOSS', () => {
    const lamp = (info: Record<string, unknown>) => elementOf(convertOngeki(mytPlays.ongeki('l', info))).noteLamp;
    expect(lamp({ tech_score: 1_010_000, combo_status: 'ONGEKI_COMBO_STATUS_ALL_BREAK' })).toBe('ALL BREAK+');
    expect(lamp({ tech_score: 1_009_000, combo_status: 'ONGEKI_COMBO_STATUS_ALL_BREAK' })).toBe('ALL BREAK');
    expect(lamp({ combo_status: 'ONGEKI_COMBO_STATUS_NONE', clear_status: 'ONGEKI_CLEAR_STATUS_OVER_DAMAGE' })).toBe('CLEAR');
    expect(lamp({ combo_status: 'ONGEKI_COMBO_STATUS_NONE', clear_status: 'ONGEKI_CLEAR_STATUS_CLEARED' })).toBe('CLEAR');
    expect(lamp({ combo_status: 'ONGEKI_COMBO_STATUS_NONE', clear_status: 'ONGEKI_CLEAR_STATUS_FAILED' })).toBe('LOSS');
    expect(elementOf(convertOngeki(mytPlays.ongeki('nb', { is_full_bell: false }))).bellLamp).toBe('NONE');
  });

  it('refuses UNSPECIFIED enums, that item only', () => {
    expect(convertOngeki(mytPlays.ongeki('uc', { clear_status: 'ONGEKI_CLEAR_STATUS_UNSPECIFIED' }))).toEqual({
      kind: 'error',
      message: 'playlog uc: clear_status is UNSPECIFIED.',
    });
    expect(convertOngeki(mytPlays.ongeki('ul', { level: 0 }))).toEqual({ kind: 'error', message: 'playlog ul: level is UNSPECIFIED.' });
    expect(convertOngeki(mytPlays.ongeki('ux', { combo_status: 0 }))).toEqual({ kind: 'error', message: 'playlog ux: combo_status is UNSPECIFIED.' });
  });
});

describe('api/myt-wacca', () => {
  it('converts a play: the best clear flag is the lamp, slow from late, maxCombo from combo', () => {
    const converted = convertWacca(mytPlays.wacca('w1'));
    expect(elementOf(converted)).toEqual({
      score: 975_000,
      lamp: 'FULL COMBO',
      matchType: 'inGameID',
      identifier: '1001',
      difficulty: 'EXPERT',
      timeAchieved: PLAYED,
      judgements: { marvelous: 600, great: 40, good: 5, miss: 0 },
      optional: { fast: 20, slow: 25, maxCombo: 645 },
    });
    expect(validated(converted, WACCA_SINGLE).input.lamp).toBe('FULL COMBO');
  });

  it('orders the flags ALL MARVELOUS > FULL COMBO > MISSLESS > CLEAR > FAILED', () => {
    const flags = (is_all_marvelous: boolean, is_full_combo: boolean, is_missless: boolean, is_clear: boolean) =>
      elementOf(convertWacca(mytPlays.wacca('f', { clear_status: { is_all_marvelous, is_full_combo, is_missless, is_clear, is_give_up: false } }))).lamp;
    expect(flags(true, true, true, true)).toBe('ALL MARVELOUS');
    expect(flags(false, true, true, true)).toBe('FULL COMBO');
    expect(flags(false, false, true, true)).toBe('MISSLESS');
    expect(flags(false, false, false, true)).toBe('CLEAR');
    expect(flags(false, false, false, false)).toBe('FAILED');
  });

  it('refuses an UNSPECIFIED difficulty and a play without its judge', () => {
    expect(convertWacca(mytPlays.wacca('ud', { music_difficulty: 'WACCA_MUSIC_DIFFICULTY_UNSPECIFIED' }))).toEqual({
      kind: 'error',
      message: 'playlog ud: music_difficulty is UNSPECIFIED.',
    });
    expect(convertWacca(mytPlays.wacca('nj', { judge: null }))).toEqual({
      kind: 'error',
      message: expect.stringMatching(/^playlog nj: malformed item \(info\.judge: /),
    });
  });

  it("reads the stage-up of GetData: PLUS's rank (version 5) before REVERSE's (4); 0, none or past XIV give no class", () => {
    expect(stageUpOf({ version_data: { 4: { rank: 9 }, 5: { rank: 11 } } })).toEqual({ stageUp: 'XI' });
    expect(stageUpOf({ version_data: { 4: { rank: 9 } } })).toEqual({ stageUp: 'IX' });
    expect(stageUpOf({ version_data: { 5: { rank: 1 } } })).toEqual({ stageUp: 'I' });
    expect(stageUpOf({ version_data: { 5: { rank: 14 } } })).toEqual({ stageUp: 'XIV' });
    expect(stageUpOf({ version_data: { 5: { rank: 0 }, 4: { rank: 3 } } })).toBeUndefined();
    expect(stageUpOf({ version_data: { 5: { rank: 15 } } })).toBeUndefined();
    expect(stageUpOf({ version_data: {} })).toBeUndefined();
    expect(stageUpOf({})).toBeUndefined();
  });
});

describe("api/myt-*'s input", () => {
  it('registers the four types under their names, each reading the fetched input from the body', () => {
    expect(apiMytFormat.types.map((t) => t.name)).toEqual(['api/myt-chunithm', 'api/myt-maimaidx', 'api/myt-ongeki', 'api/myt-wacca']);
    const input = { items: [], cursor: null };
    expect(apiMytFormat.types[0].read({ fields: {}, body: input })).toBe(input);
  });

  it('parses {items, classes} into the GPT, the MYT context and the classes', () => {
    const items = [mytPlays.wacca('w1')];
    expect(parseMytInput({ items, classes: { stageUp: 'XI' } }, WACCA_SINGLE, 10)).toEqual({
      gpt: WACCA_SINGLE,
      context: { service: 'MYT', version: null },
      classes: { stageUp: 'XI' },
      items,
    });
    expect(parseMytInput({ items: [] }, CHUNITHM_SINGLE, 10).classes).toEqual({});
  });

  it('refuses an input that is not {items}, a class the GPT does not have, and more items than the limit (413)', () => {
    const rejection = (input: unknown, max = 10) => {
      try {
        parseMytInput(input, WACCA_SINGLE, max);
      } catch (error) {
        if (error instanceof ImportRejectedError) return [error.getStatus(), error.message];
        throw error;
      }
      throw new Error('not rejected');
    };
    expect(rejection('nope')).toEqual([HttpStatus.BAD_REQUEST, 'The plays fetched from MYT could not be read: expected {items, classes?}.']);
    expect(rejection({ items: [], classes: { stageUp: 'XV' } })).toEqual([
      HttpStatus.BAD_REQUEST,
      "MYT reported the class stageUp = 'XV', which wacca Single does not have.",
    ]);
    expect(rejection({ items: [], classes: { dan: 'X' } })).toEqual([
      HttpStatus.BAD_REQUEST,
      "MYT reported the class dan = 'X', which wacca Single does not have.",
    ]);
    expect(rejection({ items: [1, 2, 3] }, 2)).toEqual([HttpStatus.PAYLOAD_TOO_LARGE, 'MYT sent 3 plays; the limit is 2 per import.']);
  });
});
