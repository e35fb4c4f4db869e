import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestApp, type TestApp } from '../support/app.js';
import { batchManual, directManual, errorsByIndex, fixtureChart, imported, loadFixtureCatalog, MINUTE, player, T0, type Player } from '../support/imports.js';
import { countRows, storedGameStats, storedOrphans, storedPb, storedScores, storedSessions } from '../support/stored.js';
import { bearer } from '../support/users.js';

const sdvx = (identifier: string, difficulty: string, score: number, lamp: string, timeAchieved: number | null, extra: Record<string, unknown> = {}) => ({
  matchType: 'sdvxInGameID',
  identifier,
  difficulty,
  score,
  lamp,
  timeAchieved,
  ...extra,
});

describe('re-sent files and Tachi #1467', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
    await loadFixtureCatalog(t.database, 'catalog', ['sdvx']);
  });
  afterAll(async () => {
    await t.close();
  });

  it('imports nothing from a re-sent file and reports no errors, whichever route it comes through', async () => {
    const p = await player(t);
    const file = batchManual('sdvx', 'Single', [
      sdvx('1001', 'EXH', 9_200_000, 'CLEAR', T0),
      sdvx('1001', 'MXM', 9_400_000, 'EXCESSIVE CLEAR', T0 + 5 * MINUTE, { judgements: { critical: 1400, near: 40, miss: 5 } }),
      sdvx('1002', 'GRV', 8_800_000, 'FAILED', null),
    ]);
    const first = await imported(t, p.token, file);
    expect(first.scoreIDs).toHaveLength(3);
    expect(first.errors).toEqual([]);
    const before = {
      scores: await storedScores(t, p.user.id),
      sessions: await storedSessions(t, p.user.id),
      pb: await storedPb(t, p.user.id, fixtureChart('sdvx-1-MXM')),
    };

    const again = await imported(t, p.token, file);
    expect(again).toMatchObject({ scoreIDs: [], errors: [], createdSessions: [], classDeltas: [], idStrings: [] });
    expect(again.importID).not.toBe(first.importID);
    const viaHook = await directManual(t, p.token, file);
    expect(viaHook.status).toBe(200);
    expect(viaHook.body).toMatchObject({ scoreIDs: [], errors: [], createdSessions: [] });

    expect(await storedScores(t, p.user.id)).toEqual(before.scores);
    expect(await storedSessions(t, p.user.id)).toEqual(before.sessions);
    expect(await storedPb(t, p.user.id, fixtureChart('sdvx-1-MXM'))).toEqual(before.pb);
    // Every import is recorded, also one that brought nothing new.
    expect(await countRows(t, 'imports', { userID: p.user.id })).toBe(3);
  });

  it('keeps one copy of a play repeated inside a file, silently', async () => {
    const p = await player(t);
    const play = sdvx('1001', 'EXH', 9_200_000, 'CLEAR', T0);
    const doc = await imported(t, p.token, batchManual('sdvx', 'Single', [play, { ...play }, play]));
    expect(doc.scoreIDs).toHaveLength(1);
    expect(doc.errors).toEqual([]);
    expect(await storedScores(t, p.user.id)).toHaveLength(1);
  });

  it('keeps both of two plays with equal numbers but another timeAchieved, or other judgements (Tachi dropped the second)', async () => {
    const p = await player(t);
    const doc = await imported(
      t,
      p.token,
      batchManual('sdvx', 'Single', [
        sdvx('1001', 'EXH', 9_200_000, 'CLEAR', T0, { judgements: { critical: 1000, near: 50, miss: 10 } }),
        sdvx('1001', 'EXH', 9_200_000, 'CLEAR', T0 + 10 * MINUTE, { judgements: { critical: 1000, near: 50, miss: 10 } }),
        sdvx('1001', 'EXH', 9_200_000, 'CLEAR', T0, { judgements: { critical: 1001, near: 48, miss: 11 } }),
      ]),
    );
    expect(doc.scoreIDs).toHaveLength(3);
    expect(new Set(doc.scoreIDs).size).toBe(3);
    const stored = await storedScores(t, p.user.id);
    expect(stored.map((s) => [s.timeAchieved, s.scoreData.judgements])).toEqual(
      expect.arrayContaining([
        [T0, { critical: 1000, near: 50, miss: 10 }],
        [T0 + 10 * MINUTE, { critical: 1000, near: 50, miss: 10 }],
        [T0, { critical: 1001, near: 48, miss: 11 }],
      ]),
    );
    // A later file with the same play again adds nothing; a third play with the same numbers at a new time is new.
    const later = await imported(
      t,
      p.token,
      batchManual('sdvx', 'Single', [
        sdvx('1001', 'EXH', 9_200_000, 'CLEAR', T0 + 10 * MINUTE, { judgements: { critical: 1000, near: 50, miss: 10 } }),
        sdvx('1001', 'EXH', 9_200_000, 'CLEAR', T0 + 20 * MINUTE),
      ]),
    );
    expect(later.scoreIDs).toHaveLength(1);
    expect(await storedScores(t, p.user.id)).toHaveLength(4);
    // The PB is that score once, achieved at its earliest time.
    const pb = await storedPb(t, p.user.id, fixtureChart('sdvx-1-EXH'));
    expect(pb?.scoreData.score).toBe(9_200_000);
    expect(pb?.timeAchieved).toBe(T0);
  });

  it('dedupes by user: another user sending the same file gets their own scores', async () => {
    const [a, b] = [await player(t), await player(t)];
    const file = batchManual('sdvx', 'Single', [sdvx('1001', 'EXH', 9_300_000, 'CLEAR', T0)]);
    const docA = await imported(t, a.token, file);
    const docB = await imported(t, b.token, file);
    expect(docA.scoreIDs).toHaveLength(1);
    expect(docB.scoreIDs).toHaveLength(1);
    expect(docB.scoreIDs[0]).not.toBe(docA.scoreIDs[0]);
  });
});

describe('orphans: import, load the chart, retry', () => {
  let t: TestApp;
  let p: Player;
  const LATE = fixtureChart('sdvx-100-EXH');
  const resolvable = sdvx('1100', 'EXH', 9_500_000, 'EXCESSIVE CLEAR', T0 + 30 * MINUTE);
  const invalidOnceMatched = sdvx('1100', 'EXH', 9_600_000, 'PERFECT ULTIMATE CHAIN', T0 + 31 * MINUTE);
  const neverKnown = sdvx('4242', 'EXH', 9_700_000, 'CLEAR', T0 + 32 * MINUTE);
  const known = sdvx('1001', 'EXH', 9_000_000, 'CLEAR', T0);
  const file = () => batchManual('sdvx', 'Single', [known, resolvable, invalidOnceMatched, neverKnown]);
  const retry = () => t.http().post('/api/v1/import/orphans').set(bearer(p.token));

  beforeAll(async () => {
    t = await createTestApp();
    await loadFixtureCatalog(t.database, 'catalog', ['sdvx']);
    p = await player(t);
  });
  afterAll(async () => {
    await t.close();
  });

  it('stores a score for an unknown chart as an orphan and reports SongOrChartNotFound; a re-send reports no error and stores nothing', async () => {
    const doc = await imported(t, p.token, file());
    expect(doc.scoreIDs).toHaveLength(1);
    const errors = errorsByIndex(doc);
    expect([...errors.keys()]).toEqual([1, 2, 3]);
    for (const i of [1, 2, 3]) expect(errors.get(i)?.type).toBe('SongOrChartNotFound');
    expect(errors.get(1)?.message).toBe(
      'scores[1]: No Single EXH chart has in-game id 1100. The score is kept as an orphan and will be retried when the chart is known.',
    );
    const orphans = await storedOrphans(t, p.user.id);
    expect(orphans).toHaveLength(3);
    expect(orphans.map((o) => o.data)).toEqual(expect.arrayContaining([resolvable, invalidOnceMatched, neverKnown]));
    expect(orphans[0]).toMatchObject({
      game: 'sdvx',
      playtype: 'Single',
      importType: 'file/batch-manual',
      context: { service: 'pipeline-test', version: null },
    });

    const again = await imported(t, p.token, file());
    expect(again.scoreIDs).toEqual([]);
    expect(again.errors).toEqual([]);
    expect(await storedOrphans(t, p.user.id)).toHaveLength(3);

    // The same play through the hook is another orphan (another source); once matched, it is the same score.
    const hook = await directManual(t, p.token, batchManual('sdvx', 'Single', [resolvable]));
    expect(hook.body.errors.map((e: { type: string }) => e.type)).toEqual(['SongOrChartNotFound']);
    expect(await storedOrphans(t, p.user.id)).toHaveLength(4);
  });

  it('keeps every orphan while its chart is still unknown', async () => {
    const res = await retry();
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ processed: 4, failed: 4, success: 0, removed: 0 });
    expect(await storedOrphans(t, p.user.id)).toHaveLength(4);
  });

  it('after the chart is loaded: imports the matching orphan with its PB and session, drops the invalid one and the duplicate, keeps the unknown', async () => {
    await loadFixtureCatalog(t.database, 'late', ['sdvx']);
    const res = await retry();
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ processed: 4, failed: 1, success: 1, removed: 2 });

    const left = await storedOrphans(t, p.user.id);
    expect(left.map((o) => o.data)).toEqual([neverKnown]);
    const late = (await storedScores(t, p.user.id)).filter((s) => s.chartID === LATE);
    expect(late).toHaveLength(1);
    const [score] = late;
    expect(score).toMatchObject({ userID: p.user.id, timeAchieved: T0 + 30 * MINUTE, importID: null, service: 'pipeline-test' });
    expect(score.scoreData).toMatchObject({ score: 9_500_000, lamp: 'EXCESSIVE CLEAR', grade: 'AA+' });
    const pb = await storedPb(t, p.user.id, LATE);
    expect(pb).toMatchObject({
      scoreData: { score: 9_500_000 },
      rankingData: { rank: 1, outOf: 1 },
      composedFrom: [{ name: 'Best Score', scoreID: score.scoreID }],
    });
    // Level 16, 9.5M (AA+ 97), EXCESSIVE CLEAR (102): 32 × 0.95 × 97 × 102 = 300,777.6 → VF6 0.300.
    expect(pb?.calculatedData).toEqual({ VF6: 0.3 });
    // Within two hours of the first import's play: it joins that session, its only one.
    const sessions = await storedSessions(t, p.user.id);
    expect(sessions).toHaveLength(1);
    expect(sessions[0]).toMatchObject({ timeStarted: T0, timeEnded: T0 + 30 * MINUTE });
    expect(sessions[0].scores).toContain(score.scoreID);
    // The profile now counts both PBs: EXH 16 at 9.0M CLEAR is 32 × 0.9 × 91 × 100 = 262,080 → 0.262.
    expect((await storedGameStats(t, p.user.id, 'sdvx', 'Single'))?.ratings.VF6).toBeCloseTo(0.262 + 0.3, 10);

    const again = await retry();
    expect(again.body).toEqual({ processed: 1, failed: 1, success: 0, removed: 0 });
  });

  it('retries only the caller’s orphans', async () => {
    const other = await player(t);
    const res = await t.http().post('/api/v1/import/orphans').set(bearer(other.token));
    expect(res.body).toEqual({ processed: 0, failed: 0, success: 0, removed: 0 });
    expect(await storedOrphans(t, p.user.id)).toHaveLength(1);
    expect(await countRows(t, 'pbs', { userID: other.user.id })).toBe(0);
  });
});
