import { describe, expect, it } from '@jest/globals';
import type { ClassDelta } from '../../../src/database/schema.js';
import { importEvents, newlyAchievedGoals, newlyAchievedQuests, raisedClasses, type ImportEventLookups } from '../../../src/webhooks/webhook-events.js';

/** Hand-made goalInfo/questInfo entries in the ImportDocument's shape (reference import-pipeline §8). */
const stat = (progress: number | null, outOf: number, achieved: boolean) => ({
  progress,
  progressHuman: progress === null ? 'NO DATA' : String(progress),
  outOf,
  outOfHuman: String(outOf),
  achieved,
});

const DANS = ['DAN_1', 'DAN_2', 'DAN_3'];
const lookups: ImportEventLookups = {
  classOrder: (game, playtype, set) => (game === 'sdvx' && playtype === 'Single' && set === 'dan' ? DANS : undefined),
  goalGpt: (id) => ({ g1: { game: 'iidx', playtype: 'SP' }, g2: { game: 'iidx', playtype: 'DP' }, g3: { game: 'iidx', playtype: 'SP' } })[id],
  questGpt: (id) => (id === 'q1' ? { game: 'iidx', playtype: 'SP' } : undefined),
};

describe('newlyAchievedGoals', () => {
  it('keeps only entries that go from not achieved to achieved', () => {
    const info = [
      { goalID: 'up', old: stat(1, 2, false), new: stat(2, 2, true) },
      { goalID: 'still', old: stat(2, 2, true), new: stat(3, 2, true) },
      { goalID: 'lost', old: stat(2, 2, true), new: stat(1, 2, false) },
      { goalID: 'progress', old: stat(0, 3, false), new: stat(1, 3, false) },
      { goalID: 'fromNothing', old: null, new: stat(5, 5, true) },
      { goalID: 7, old: stat(0, 1, false), new: stat(1, 1, true) },
      'garbage',
    ];
    expect(newlyAchievedGoals(info).map((g) => g.goalID)).toEqual(['up', 'fromNothing']);
  });
});

describe('newlyAchievedQuests', () => {
  it('keeps only quests that became achieved', () => {
    const info = [
      { questID: 'a', old: { progress: 2, achieved: false }, new: { progress: 3, achieved: true } },
      { questID: 'b', old: { progress: 3, achieved: true }, new: { progress: 4, achieved: true } },
      { questID: 'c', old: { progress: 1, achieved: false }, new: { progress: 2, achieved: false } },
      { questID: 'd', old: { progress: 3, achieved: true }, new: { progress: 2, achieved: false } },
    ];
    expect(newlyAchievedQuests(info).map((q) => q.questID)).toEqual(['a']);
  });
});

describe('raisedClasses', () => {
  const delta = (old: string | null, value: string, set = 'dan'): ClassDelta => ({ game: 'sdvx', playtype: 'Single', set, old, new: value });

  it('counts a first value and a higher one, never a lowered (downgradable) or unchanged one', () => {
    const deltas = [delta(null, 'DAN_1'), delta('DAN_1', 'DAN_3'), delta('DAN_3', 'DAN_2'), delta('DAN_2', 'DAN_2')];
    expect(raisedClasses(deltas, lookups.classOrder)).toEqual([delta(null, 'DAN_1'), delta('DAN_1', 'DAN_3')]);
  });

  it('counts only a first value of a set whose order is unknown', () => {
    expect(raisedClasses([delta(null, 'X', 'unknown'), delta('X', 'Y', 'unknown')], lookups.classOrder)).toEqual([delta(null, 'X', 'unknown')]);
  });
});

describe('importEvents', () => {
  it("builds Tachi's three payloads with stable keys", () => {
    const events = importEvents(
      {
        importID: 'imp1',
        userID: 42,
        classDeltas: [
          { game: 'sdvx', playtype: 'Single', set: 'dan', old: 'DAN_1', new: 'DAN_2' },
          { game: 'sdvx', playtype: 'Single', set: 'dan', old: 'DAN_3', new: 'DAN_1' },
        ],
        goalInfo: [
          { goalID: 'g1', old: stat(null, 1, false), new: stat(1, 1, true) },
          { goalID: 'g2', old: stat(500, 1000, false), new: stat(1000, 1000, true) },
          { goalID: 'g3', old: stat(1, 1, true), new: stat(1, 1, true) },
          { goalID: 'gone', old: stat(0, 1, false), new: stat(1, 1, true) },
        ],
        questInfo: [
          { questID: 'q1', old: { progress: 1, achieved: false }, new: { progress: 2, achieved: true } },
          { questID: 'unknown', old: { progress: 1, achieved: false }, new: { progress: 2, achieved: true } },
        ],
      },
      lookups,
    );
    expect(events).toEqual([
      {
        key: 'imp1:class-update/v1:sdvx:Single:dan',
        payload: { type: 'class-update/v1', content: { userID: 42, set: 'dan', old: 'DAN_1', new: 'DAN_2', game: 'sdvx', playtype: 'Single' } },
      },
      {
        key: 'imp1:goals-achieved/v1:iidx',
        payload: {
          type: 'goals-achieved/v1',
          content: {
            userID: 42,
            game: 'iidx',
            goals: [
              { goalID: 'g1', old: stat(null, 1, false), new: stat(1, 1, true), playtype: 'SP' },
              { goalID: 'g2', old: stat(500, 1000, false), new: stat(1000, 1000, true), playtype: 'DP' },
            ],
          },
        },
      },
      {
        key: 'imp1:quest-achieved/v1:q1',
        payload: {
          type: 'quest-achieved/v1',
          content: { userID: 42, questID: 'q1', old: { progress: 1, achieved: false }, new: { progress: 2, achieved: true }, game: 'iidx', playtype: 'SP' },
        },
      },
    ]);
  });

  it('has no event for an import that raised nothing', () => {
    expect(importEvents({ importID: 'i', userID: 1, classDeltas: [], goalInfo: [], questInfo: [] }, lookups)).toEqual([]);
  });
});
