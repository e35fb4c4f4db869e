import { describe, expect, it } from '@jest/globals';
import { SDVX } from '../../../src/game-support/sdvx/index.js';
import { computeOrphanID, computeScoreID } from '../../../src/imports/import-pipeline.js';
import { irBarbatos } from '../../../src/imports/import-types/barbatos/barbatos.type.js';
import { beatorajaType } from '../../../src/imports/import-types/beatoraja/beatoraja.type.js';
import { irFervidex } from '../../../src/imports/import-types/fervidex/score.js';
import { irKshookSv6c } from '../../../src/imports/import-types/kshook-sv6c/kshook-sv6c.type.js';
import { lr2hook } from '../../../src/imports/import-types/lr2hook/lr2hook.js';
import { uscIr } from '../../../src/imports/import-types/usc/usc-ir.js';
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

describe('computeScoreID when times do not identify plays', () => {
  const timeless = (overrides: Record<string, unknown> = {}) => computeScoreID(1, 'chart-a', candidate(overrides), gpt, false);

  it('leaves the time out: the same result at another time, or with none, is the same score', () => {
    expect(timeless({ timeAchieved: T + 600_000 })).toBe(timeless());
    expect(timeless({ timeAchieved: null })).toBe(timeless());
    expect(timeless()).toBe(id({ timeAchieved: null }));
  });

  it('still tells apart another score, lamp, judgements or identity metric', () => {
    expect(timeless({ score: 9_500_001 })).not.toBe(timeless());
    expect(timeless({ lamp: 'CLEAR' })).not.toBe(timeless());
    expect(timeless({ judgements: { critical: 1201, near: 28, miss: 3 } })).not.toBe(timeless());
    expect(timeless({ optional: { exScore: 3001 } })).not.toBe(timeless({ optional: { exScore: 3000 } }));
  });

  it('is the rule of every hook whose time is the receive time, not of USC (its time is the client record of the play)', () => {
    for (const type of [irFervidex, irBarbatos, irKshookSv6c, beatorajaType, lr2hook]) expect([type.name, type.timesIdentifyPlays]).toEqual([type.name, false]);
    expect(uscIr.timesIdentifyPlays).toBeUndefined();
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

  it('leaves the time of the element out when times do not identify plays', () => {
    const timeless = (raw: Record<string, unknown>) => computeOrphanID(1, 'ir/beatoraja', gpt, context, raw, false);
    expect(timeless({ ...base, timeAchieved: T + 600_000 })).toBe(timeless(base));
    expect(timeless({ ...base, score: 1 })).not.toBe(timeless(base));
    expect(computeOrphanID(1, 'ir/beatoraja', gpt, context, { ...base, timeAchieved: T + 1 })).not.toBe(computeOrphanID(1, 'ir/beatoraja', gpt, context, base));
  });
});
