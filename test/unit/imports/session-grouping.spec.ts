import { describe, expect, it } from '@jest/globals';
import { extendsSession, groupIntoSessions, SESSION_GAP_MS } from '../../../src/scoring/sessions/session-grouping.js';

const T = 1_700_000_000_000;
const HOUR = 60 * 60 * 1000;
const at = (...offsets: number[]) => offsets.map((o, i) => ({ id: i, timeAchieved: T + o }));
const ids = (groups: { id: number }[][]) => groups.map((g) => g.map((s) => s.id));

describe('groupIntoSessions: the two-hour gap rule', () => {
  it('uses a gap of exactly two hours', () => {
    expect(SESSION_GAP_MS).toBe(2 * HOUR);
  });

  it('starts a new session when two scores are exactly two hours apart', () => {
    expect(ids(groupIntoSessions(at(0, 2 * HOUR)))).toEqual([[0], [1]]);
  });

  it('keeps two scores 2 h − 1 ms apart in one session', () => {
    expect(ids(groupIntoSessions(at(0, 2 * HOUR - 1)))).toEqual([[0, 1]]);
  });

  it('measures the gap from the previous score, so a long chain of close plays is one session', () => {
    const chain = at(0, 1.5 * HOUR, 3 * HOUR, 4.5 * HOUR, 6 * HOUR);
    expect(ids(groupIntoSessions(chain))).toEqual([[0, 1, 2, 3, 4]]);
  });

  it('sorts by time first, whatever the order of the input', () => {
    const shuffled = at(5 * HOUR, 0, 5 * HOUR + 1000, 1000);
    expect(ids(groupIntoSessions(shuffled))).toEqual([
      [1, 3],
      [0, 2],
    ]);
  });

  it('returns no group for no scores', () => {
    expect(groupIntoSessions([])).toEqual([]);
  });
});

describe('extendsSession: a group joins an existing session within two hours of its span', () => {
  const session = { timeStarted: T, timeEnded: T + HOUR };

  it('joins a group starting 2 h − 1 ms after the session ended, not one starting exactly 2 h after', () => {
    expect(extendsSession(session, T + 3 * HOUR - 1, T + 3 * HOUR - 1)).toBe(true);
    expect(extendsSession(session, T + 3 * HOUR, T + 4 * HOUR)).toBe(false);
  });

  it('joins a group ending 2 h − 1 ms before the session started, not one ending exactly 2 h before', () => {
    expect(extendsSession(session, T - 5 * HOUR, T - 2 * HOUR + 1)).toBe(true);
    expect(extendsSession(session, T - 5 * HOUR, T - 2 * HOUR)).toBe(false);
  });

  it('joins a group that overlaps or contains the session', () => {
    expect(extendsSession(session, T + 0.5 * HOUR, T + 0.6 * HOUR)).toBe(true);
    expect(extendsSession(session, T - HOUR, T + 2 * HOUR)).toBe(true);
  });
});
