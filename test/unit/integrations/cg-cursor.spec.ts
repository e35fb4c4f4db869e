import { describe, expect, it } from '@jest/globals';
import { CG_LOOKBACK_MS, fingerprint, readCgCursor, selectNewPlays, type CgCursor } from '../../../src/integrations/cg/cg-cursor.js';

const play = (dateTime: unknown, score = 1) => ({ internalId: 1, score, dateTime });

describe('the CG sync cursor', () => {
  it('the first sync keeps every play; the cursor is the newest time and the plays of the look-back window', () => {
    const a = play('2024-05-01 10:00:00');
    const b = play('2024-05-03 12:00:00');
    const old = play('2024-04-01 12:00:00');
    const { fresh, cursor } = selectNewPlays([a, b, old], null);
    expect(fresh).toEqual([a, b, old]);
    // 2024-04-01 is 32 days before 2024-05-03: outside the 14-day window, so not listed.
    expect(cursor).toEqual({ v: 1, newest: '2024-05-03T12:00:00.000Z', seen: [fingerprint(a), fingerprint(b)], undated: [] });
  });

  it('the same answer again brings nothing; plays after the newest one are new', () => {
    const a = play('2024-05-01 10:00:00');
    const first = selectNewPlays([a], null).cursor;
    expect(selectNewPlays([a], first).fresh).toEqual([]);
    const c = play('2024-05-01 10:00:01');
    const second = selectNewPlays([a, c], first);
    expect(second.fresh).toEqual([c]);
    expect(second.cursor.newest).toBe('2024-05-01T10:00:01.000Z');
  });

  it('a second play at the very second of the newest synced one is still new (equal timestamps)', () => {
    const a = play('2024-05-01 10:00:00', 1);
    const first = selectNewPlays([a], null).cursor;
    const b = play('2024-05-01 10:00:00', 2);
    const { fresh, cursor } = selectNewPlays([a, b], first);
    expect(fresh).toEqual([b]);
    expect(selectNewPlays([a, b], cursor).fresh).toEqual([]);
  });

  it('a play CG lists late with an older time is new within the look-back window, and counts as synced beyond it', () => {
    const newest = play('2024-05-20 10:00:00');
    const first = selectNewPlays([newest], null).cursor;
    const late = play('2024-05-10 10:00:00'); // 10 days before
    const tooLate = play('2024-05-01 10:00:00'); // 19 days before
    expect(selectNewPlays([newest, late, tooLate], first).fresh).toEqual([late]);
    expect(Date.parse('2024-05-20T10:00:00Z') - Date.parse('2024-05-10T10:00:00Z')).toBeLessThan(CG_LOOKBACK_MS);
    expect(Date.parse('2024-05-20T10:00:00Z') - Date.parse('2024-05-01T10:00:00Z')).toBeGreaterThan(CG_LOOKBACK_MS);
  });

  it('the window follows the newest play: plays that fall out of it leave the cursor', () => {
    const a = play('2024-05-01 10:00:00');
    const b = play('2024-05-20 10:00:00');
    const { cursor } = selectNewPlays([a, b], selectNewPlays([a], null).cursor);
    expect(cursor.seen).toEqual([fingerprint(b)]);
  });

  it('a play whose time cannot be read is handed over once (its error shows once), and never moves the cursor', () => {
    const undated = play('not a date');
    const a = play('2024-05-01 10:00:00');
    const first = selectNewPlays([a, undated], null);
    expect(first.fresh).toEqual([a, undated]);
    expect(first.cursor).toMatchObject({ newest: '2024-05-01T10:00:00.000Z', undated: [fingerprint(undated)] });
    expect(selectNewPlays([a, undated], first.cursor).fresh).toEqual([]);
    const other = play(12345);
    expect(selectNewPlays([a, undated, other], first.cursor).fresh).toEqual([other]);
  });

  it('an empty answer keeps the cursor where it was', () => {
    const first = selectNewPlays([play('2024-05-01 10:00:00')], null).cursor;
    expect(selectNewPlays([], first)).toEqual({ fresh: [], cursor: { ...first, seen: [] } });
    expect(selectNewPlays([], null)).toEqual({ fresh: [], cursor: { v: 1, newest: null, seen: [], undated: [] } });
  });

  it('a fingerprint ignores key order; a changed play is another play', () => {
    expect(fingerprint({ a: 1, b: [1, { c: 2, d: 3 }] })).toBe(fingerprint({ b: [1, { d: 3, c: 2 }], a: 1 }));
    expect(fingerprint({ a: 1 })).not.toBe(fingerprint({ a: 2 }));
  });

  it('reads a stored cursor; anything else is no cursor (every play is sent again)', () => {
    const cursor: CgCursor = { v: 1, newest: '2024-05-01T10:00:00.000Z', seen: ['x'], undated: [] };
    expect(readCgCursor(JSON.parse(JSON.stringify(cursor)))).toEqual(cursor);
    expect(readCgCursor(null)).toBeNull();
    expect(readCgCursor('2024-05-01')).toBeNull();
    expect(readCgCursor({ ...cursor, v: 2 })).toBeNull();
    expect(readCgCursor({ ...cursor, newest: 'soon' })).toBeNull();
    expect(readCgCursor({ ...cursor, seen: [1] })).toBeNull();
    expect(readCgCursor({ ...cursor, newest: null })).toEqual({ ...cursor, newest: null });
  });

  it('with a cursor that has no newest time, every dated play is new', () => {
    const a = play('2024-05-01 10:00:00');
    expect(selectNewPlays([a], { v: 1, newest: null, seen: [], undated: [] }).fresh).toEqual([a]);
  });
});
