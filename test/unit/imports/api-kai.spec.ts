import { describe, expect, it } from '@jest/globals';
import { convertKaiIidx, convertKaiSdvx } from '../../../src/imports/import-types/api-kai/convert.js';

describe('KAI converters', () => {
  it("remaps a legacy † music_id to its base song's LEGGENDARIA (the reference's worked example)", () => {
    const item = {
      music_id: 14101,
      play_style: 'SINGLE',
      difficulty: 'ANOTHER',
      version_played: 27,
      lamp: 6,
      ex_score: 2500,
      miss_count: -1,
      fast_count: 20,
      slow_count: 31,
      timestamp: '2020-11-01T12:00:00Z',
    };
    expect(convertKaiIidx(item)).toEqual({
      kind: 'score',
      playtype: 'SP',
      version: '27',
      element: {
        matchType: 'inGameID',
        identifier: '14046',
        difficulty: 'LEGGENDARIA',
        score: 2500,
        lamp: 'EX HARD CLEAR',
        judgements: {},
        optional: { fast: 20, slow: 31, bp: null },
        timeAchieved: Date.UTC(2020, 10, 1, 12),
      },
    });
  });

  it('skips BEGINNER, and refuses only the bad item (unknown version, bad lamp)', () => {
    const base = { music_id: 1, play_style: 'DOUBLE', difficulty: 'HYPER', version_played: 28, lamp: 1, ex_score: 0, timestamp: '2026-01-01T00:00:00Z' };
    expect(convertKaiIidx({ ...base, difficulty: 'BEGINNER' })).toEqual({ kind: 'skip', reason: 'on BEGINNER charts, which are not tracked' });
    expect(convertKaiIidx({ ...base, version_played: 19 })).toEqual({ kind: 'error', message: 'Unsupported version 19.' });
    expect(convertKaiIidx({ ...base, lamp: 8 }).kind).toBe('error');
    const ok = convertKaiIidx({ ...base, miss_count: 7 });
    expect(ok).toMatchObject({ kind: 'score', playtype: 'DP', element: { lamp: 'FAILED', optional: { bp: 7, fast: null, slow: null } } });
  });

  it('maps an SDVX play: difficulty 3 is ANY_INF, version 6 is exceed, clear_type 6 is MAXXIVE CLEAR', () => {
    const item = {
      music_id: 1203,
      music_difficulty: 3,
      played_version: 6,
      clear_type: 6,
      score: 9_912_345,
      max_chain: 1500,
      critical: 1400,
      near: 90,
      error: 10,
      early: 40,
      late: 50,
      gauge_rate: 72.5,
      timestamp: '2026-02-03T04:05:06Z',
    };
    expect(convertKaiSdvx(item)).toEqual({
      kind: 'score',
      version: 'exceed',
      element: {
        matchType: 'sdvxInGameID',
        identifier: '1203',
        difficulty: 'ANY_INF',
        score: 9_912_345,
        lamp: 'MAXXIVE CLEAR',
        judgements: { critical: 1400, near: 90, miss: 10 },
        optional: { fast: 40, slow: 50, maxCombo: 1500, gauge: 72.5 },
        timeAchieved: Date.UTC(2026, 1, 3, 4, 5, 6),
      },
    });
    expect(convertKaiSdvx({ ...item, score: 10_000_001 }).kind).toBe('error');
    expect(convertKaiSdvx({ ...item, played_version: 7 }).kind).toBe('error');
  });
});
