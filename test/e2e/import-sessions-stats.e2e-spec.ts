import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestApp, type TestApp } from '../support/app.js';
import { batchManual, HOUR, imported, loadFixtureCatalog, player, T0, type Player } from '../support/imports.js';
import { classAchievements, storedGameStats, storedScore, storedScores, storedSessions } from '../support/stored.js';
import { bearer } from '../support/users.js';

const DAY = 24 * HOUR;
/** A play of fixture song `song` (in-game id 1000 + song) on the given difficulty. */
const play = (song: number, score: number, lamp: string, timeAchieved: number | null, difficulty = 'MXM') => ({
  matchType: 'sdvxInGameID',
  identifier: String(1000 + song),
  difficulty,
  score,
  lamp,
  timeAchieved,
});

describe('sessions through imports', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
    await loadFixtureCatalog(t.database, 'catalog', ['sdvx']);
  });
  afterAll(async () => {
    await t.close();
  });

  describe('grouping and appending', () => {
    let p: Player;
    let first: string;
    let second: string;

    beforeAll(async () => {
      p = await player(t);
    });

    it('splits plays exactly two hours apart, keeps plays 2 h − 1 ms apart together, and names each new session', async () => {
      const doc = await imported(
        t,
        p.token,
        batchManual('sdvx', 'Single', [
          play(3, 9_000_000, 'CLEAR', T0),
          play(4, 9_000_000, 'CLEAR', T0 + 2 * HOUR - 1),
          play(5, 9_000_000, 'CLEAR', T0 + 4 * HOUR - 1),
        ]),
      );
      expect(doc.createdSessions.map((s) => s.type)).toEqual(['Created', 'Created']);
      const rows = await storedSessions(t, p.user.id);
      expect(rows.map((s) => [s.timeStarted, s.timeEnded])).toEqual([
        [T0, T0 + 2 * HOUR - 1],
        [T0 + 4 * HOUR - 1, T0 + 4 * HOUR - 1],
      ]);
      [first, second] = rows.map((s) => s.sessionID);
      expect(doc.createdSessions.map((s) => s.sessionID).sort()).toEqual([first, second].sort());
      for (const s of rows) {
        expect(s.name).toMatch(/^[A-Z][a-z]+ [A-Z][a-z]+ [A-Z][a-z]+$/);
        expect(s).toMatchObject({ userID: p.user.id, game: 'sdvx', playtype: 'Single', desc: null, highlighted: false });
        expect(s.sessionID).toMatch(/^Q[0-9a-f]{40}$/);
      }
      // Each play is in the session its time falls in.
      const stored = await storedScores(t, p.user.id);
      expect(stored.map((score) => rows.find((s) => s.scores.includes(score.scoreID))?.sessionID)).toEqual([first, first, second]);
    });

    it('appends a later import’s plays to the session they are within two hours of, widening it, and reports Appended', async () => {
      const doc = await imported(
        t,
        p.token,
        batchManual('sdvx', 'Single', [
          play(6, 9_000_000, 'CLEAR', T0 + 6 * HOUR - 2), // 2 h − 1 ms after the second session
          play(7, 9_000_000, 'CLEAR', T0 - 2 * HOUR + 1), // 2 h − 1 ms before the first
        ]),
      );
      expect(doc.createdSessions).toEqual(
        expect.arrayContaining([
          { sessionID: first, type: 'Appended' },
          { sessionID: second, type: 'Appended' },
        ]),
      );
      expect(doc.createdSessions).toHaveLength(2);
      const rows = await storedSessions(t, p.user.id);
      expect(rows.map((s) => [s.sessionID, s.timeStarted, s.timeEnded])).toEqual([
        [first, T0 - 2 * HOUR + 1, T0 + 2 * HOUR - 1],
        [second, T0 + 4 * HOUR - 1, T0 + 6 * HOUR - 2],
      ]);
    });

    it('starts a new session for a play exactly two hours after a session ended', async () => {
      const doc = await imported(t, p.token, batchManual('sdvx', 'Single', [play(8, 9_000_000, 'CLEAR', T0 + 8 * HOUR - 2)]));
      expect(doc.createdSessions).toEqual([{ sessionID: expect.any(String), type: 'Created' }]);
      expect(await storedSessions(t, p.user.id)).toHaveLength(3);
    });

    it('puts plays without a timeAchieved in no session', async () => {
      const doc = await imported(t, p.token, batchManual('sdvx', 'Single', [play(9, 9_000_000, 'CLEAR', null), play(10, 9_000_000, 'CLEAR', 0)]));
      expect(doc.scoreIDs).toHaveLength(2);
      expect(doc.createdSessions).toEqual([]);
      const sessions = await storedSessions(t, p.user.id);
      for (const id of doc.scoreIDs) {
        expect(await storedScore(t, id)).toMatchObject({ timeAchieved: null });
        expect(sessions.filter((s) => s.scores.includes(id))).toEqual([]);
      }
      expect(sessions).toHaveLength(3);
    });
  });

  describe('calculatedData (sdvx ProfileVF6 = mean of the best 10 VF6 × 50)', () => {
    // Level 17, CLEAR (100): VF6 = floor(34 × score/1e7 × grade coefficient × 100 / 1000) / 1000.
    const TWELVE: [number, number][] = [
      [9_900_000, 0.353], // S 105
      [9_800_000, 0.339], // AAA+ 102
      [9_700_000, 0.329], // AAA 100
      [9_500_000, 0.313], // AA+ 97
      [9_300_000, 0.297], // AA 94
      [9_000_000, 0.278], // A+ 91
      [9_000_000, 0.278],
      [9_000_000, 0.278],
      [8_000_000, 0.231], // B 85
      [8_000_000, 0.231],
      [7_000_000, 0.195], // C 82
      [7_000_000, 0.195],
    ];

    it('is null with fewer than 10 rated plays, then the mean of the best 10 × 50 once the session reaches 10', async () => {
      const p = await player(t);
      const plays = TWELVE.map(([score], i) => play(3 + i, score, 'CLEAR', T0 + i * 60_000));
      const nine = await imported(t, p.token, batchManual('sdvx', 'Single', plays.slice(0, 9)));
      const [session] = await storedSessions(t, p.user.id);
      expect(session.calculatedData).toEqual({ ProfileVF6: null });
      for (const id of nine.scoreIDs) {
        const s = (await storedScore(t, id))!;
        expect(s.calculatedData.VF6).toBe(TWELVE[nine.scoreIDs.indexOf(id)][1]);
      }

      const rest = await imported(t, p.token, batchManual('sdvx', 'Single', plays.slice(9)));
      expect(rest.createdSessions).toEqual([{ sessionID: session.sessionID, type: 'Appended' }]);
      const [after] = await storedSessions(t, p.user.id);
      // Best 10: 0.353 + 0.339 + 0.329 + 0.313 + 0.297 + 3 × 0.278 + 2 × 0.231 = 2.927; / 10 × 50 = 14.635.
      expect(after.calculatedData.ProfileVF6).toBeCloseTo(14.635, 10);
      expect(after).toMatchObject({ timeStarted: T0, timeEnded: T0 + 11 * 60_000 });
    });
  });
});

describe('game stats: profile ratings and classes', () => {
  let t: TestApp;
  let p: Player;

  beforeAll(async () => {
    t = await createTestApp();
    await loadFixtureCatalog(t.database, 'catalog', ['sdvx']);
    p = await player(t, ['submit_score', 'delete_score']);
  });
  afterAll(async () => {
    await t.close();
  });

  const achievements = () => classAchievements(t, p.user.id);
  const stats = async () => (await storedGameStats(t, p.user.id, 'sdvx', 'Single'))!;
  const SCORES = [9_900_000, 9_800_000, 9_700_000, 9_500_000, 9_300_000, 9_000_000, 9_000_000, 9_000_000, 8_000_000, 8_000_000, 7_000_000, 7_000_000];

  it('computes the profile VF6 (sum of the best 50 PB VF6) and derives vfClass; a first value is a raise, with an achievement', async () => {
    const doc = await imported(
      t,
      p.token,
      batchManual(
        'sdvx',
        'Single',
        SCORES.map((score, i) => play(3 + i, score, 'CLEAR', T0 + i * 60_000)),
        { classes: { dan: 'DAN_5' } },
      ),
    );
    // The twelve VF6 of the session test above: 0.353 + 0.339 + 0.329 + 0.313 + 0.297 + 3 × 0.278 + 4 × (0.231 | 0.195) = 3.317.
    expect((await stats()).ratings.VF6).toBeCloseTo(3.317, 10);
    // 2.5 ≤ 3.317 < 5: SIENNA_II.
    expect(doc.classDeltas).toEqual([
      { game: 'sdvx', playtype: 'Single', set: 'dan', old: null, new: 'DAN_5' },
      { game: 'sdvx', playtype: 'Single', set: 'vfClass', old: null, new: 'SIENNA_II' },
    ]);
    expect((await stats()).classes).toEqual({ dan: 'DAN_5', vfClass: 'SIENNA_II' });
    expect((await achievements()).map((a) => [a.classSet, a.classOldValue, a.classValue])).toEqual([
      ['dan', null, 'DAN_5'],
      ['vfClass', null, 'SIENNA_II'],
    ]);
    const res = await t.http().get(`/api/v1/users/${p.user.id}/game-stats`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      expect.objectContaining({ userID: p.user.id, game: 'sdvx', playtype: 'Single', classes: { dan: 'DAN_5', vfClass: 'SIENNA_II' } }),
    ]);
  });

  it('raises the derived class as the rating grows, and ignores a lower provided dan (no delta, no change)', async () => {
    const pucs = [
      ...SCORES.map((_, i) => play(3 + i, 10_000_000, 'PERFECT ULTIMATE CHAIN', T0 + DAY + i * 60_000)),
      play(1, 10_000_000, 'PERFECT ULTIMATE CHAIN', T0 + DAY + HOUR),
      play(2, 10_000_000, 'PERFECT ULTIMATE CHAIN', T0 + DAY + HOUR, 'GRV'),
    ];
    const doc = await imported(t, p.token, batchManual('sdvx', 'Single', pucs, { classes: { dan: 'DAN_3' } }));
    // PUC (S 105, PUC 110): level 17 → 34 × 105 × 110 = 392,700 → 0.392; 18 → 0.415; 19 → 0.438.
    // 12 × 0.392 + 0.415 + 0.438 = 5.557: SIENNA_III (5 ≤ VF < 7.5).
    expect((await stats()).ratings.VF6).toBeCloseTo(5.557, 10);
    expect(doc.classDeltas).toEqual([{ game: 'sdvx', playtype: 'Single', set: 'vfClass', old: 'SIENNA_II', new: 'SIENNA_III' }]);
    expect((await stats()).classes).toEqual({ dan: 'DAN_5', vfClass: 'SIENNA_III' });
    expect((await achievements()).map((a) => [a.classSet, a.classOldValue, a.classValue]).slice(2)).toEqual([['vfClass', 'SIENNA_II', 'SIENNA_III']]);
  });

  it('applies a higher provided dan from an import without scores, and reports nothing for the same dan', async () => {
    const same = await imported(t, p.token, batchManual('sdvx', 'Single', [], { classes: { dan: 'DAN_5' } }));
    expect(same.classDeltas).toEqual([]);
    const higher = await imported(t, p.token, batchManual('sdvx', 'Single', [], { classes: { dan: 'DAN_7' } }));
    expect(higher.classDeltas).toEqual([{ game: 'sdvx', playtype: 'Single', set: 'dan', old: 'DAN_5', new: 'DAN_7' }]);
    expect((await stats()).classes).toEqual({ dan: 'DAN_7', vfClass: 'SIENNA_III' });
    expect((await achievements()).map((a) => a.classValue).slice(3)).toEqual(['DAN_7']);
  });

  it('lets a derived class go down when its rating does, while the provided dan stays', async () => {
    const [mxm, grv] = (await storedScores(t, p.user.id)).filter((s) => s.scoreData.score === 10_000_000 && (s.songID === 1 || s.songID === 2));
    for (const s of [mxm, grv]) expect((await t.http().delete(`/api/v1/scores/${s.scoreID}`).set(bearer(p.token))).status).toBe(200);
    // Back to 12 × 0.392 = 4.704: SIENNA_II.
    expect((await stats()).ratings.VF6).toBeCloseTo(4.704, 10);
    expect((await stats()).classes).toEqual({ dan: 'DAN_7', vfClass: 'SIENNA_II' });
    // A lowering is no achievement.
    expect(await achievements()).toHaveLength(4);
    // The next import finds the class where it is: no delta.
    const next = await imported(t, p.token, batchManual('sdvx', 'Single', [play(1, 5_000_000, 'FAILED', T0 + 2 * DAY)]));
    expect(next.classDeltas).toEqual([]);
  });
});
