import { describe, expect, it } from '@jest/globals';
import { SDVX } from '../../../src/game-support/sdvx/index.js';
import { computeOrphanID, computeScoreID } from '../../../src/imports/import-pipeline.js';
import { validateScoreElement, type ScoreCandidate } from '../../../src/imports/score-element.js';

const gpt = SDVX.gpts.Single;
const T = 1_700_000_000_000;
const base = {
  matchType: 'sdvxInGameID',
  identifier: '1001',
  difficulty: 'EXH',
  score: 9_500_000,
  lamp: 'EXCESSIVE CLEAR',
  timeAchieved: T,
  judgements: { critical: 1200, near: 30, miss: 2 },
};

/** A candidate exactly as the import builds it from a batch-manual element. */
function candidate(overrides: Record<string, unknown> = {}): ScoreCandidate {
  const v = validateScoreElement({ ...base, ...overrides }, 0, gpt, T + 1000);
  if (!v.ok) throw new Error(v.message);
  return v.candidate;
}

const id = (overrides: Record<string, unknown> = {}, userID = 1, chartID = 'chart-a') => computeScoreID(userID, chartID, candidate(overrides), gpt);

describe('computeScoreID', () => {
  it('is the same for the same play: deterministic, and blind to key order, comment and scoreMeta', () => {
    expect(id()).toBe(id());
    expect(id()).toMatch(/^S[0-9a-f]{64}$/);
    const reordered = computeScoreID(1, 'chart-a', candidate({ judgements: { miss: 2, near: 30, critical: 1200 } }), gpt);
    expect(reordered).toBe(id());
    expect(id({ comment: 'what a run' })).toBe(id());
    expect(id({ scoreMeta: { inSkillAnalyser: true } })).toBe(id());
    expect(id({ optional: { gauge: 55 } })).toBe(id());
  });

  it('differs for another user or chart', () => {
    expect(id({}, 2)).not.toBe(id());
    expect(id({}, 1, 'chart-b')).not.toBe(id());
  });

  it('differs for another timeAchieved, including an unknown one (Tachi #1467: equal numbers at another time are another play)', () => {
    expect(id({ timeAchieved: T + 1 })).not.toBe(id());
    expect(id({ timeAchieved: null })).not.toBe(id());
    expect(id({ timeAchieved: 0 })).toBe(id({ timeAchieved: null }));
  });

  it('differs for other judgements with equal numbers (Tachi #1467)', () => {
    expect(id({ judgements: { critical: 1201, near: 28, miss: 3 } })).not.toBe(id());
    expect(id({ judgements: {} })).not.toBe(id());
  });

  it('differs for another score or lamp', () => {
    expect(id({ score: 9_500_001 })).not.toBe(id());
    expect(id({ lamp: 'CLEAR' })).not.toBe(id());
  });

  it('differs for another identity metric (SDVX exScore) but not for other optional metrics', () => {
    expect(gpt.identityMetrics).toEqual(['exScore']);
    expect(id({ optional: { exScore: 3001 } })).not.toBe(id({ optional: { exScore: 3000 } }));
    expect(id({ optional: { exScore: 3000, gauge: 10 } })).toBe(id({ optional: { exScore: 3000, gauge: 90 } }));
    expect(id({ optional: { exScore: 3000 } })).not.toBe(id());
  });
});

describe('computeOrphanID', () => {
  const context = { service: 'pipeline-test', version: null };
  it('is the same for the same element from the same source, and differs for another user, source or element', () => {
    const orphan = (userID: number, importType: string, ctx: typeof context | { service: string; version: string }, raw: unknown) =>
      computeOrphanID(userID, importType, gpt, ctx, raw);
    const a = orphan(1, 'file/batch-manual', context, base);
    expect(orphan(1, 'file/batch-manual', context, { ...base })).toBe(a);
    expect(a).toMatch(/^O[0-9a-f]{64}$/);
    expect(orphan(2, 'file/batch-manual', context, base)).not.toBe(a);
    expect(orphan(1, 'ir/direct-manual', context, base)).not.toBe(a);
    expect(orphan(1, 'file/batch-manual', { service: 'pipeline-test', version: 'booth' }, base)).not.toBe(a);
    expect(orphan(1, 'file/batch-manual', context, { ...base, score: 1 })).not.toBe(a);
  });
});
