import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { ImportDocument } from '../../src/presenters/import.presenter.js';
import { LOCK_STALE_MS } from '../../src/scoring/import-lock.js';
import { createTestApp, usingPostgres, type TestApp } from '../support/app.js';
import { holdImportLock, setImportLockHeartbeat } from '../support/db-fixtures.js';
import { batchManual, fixtureChart, HOUR, imported, importFile, loadFixtureCatalog, MINUTE, player, T0 } from '../support/imports.js';
import { countRows, importLock, storedScoresOfImport } from '../support/stored.js';
import { IMPORT_DOCUMENT_KEYS } from '../support/import-format-contract.js';

const play = (song: number, difficulty: string, score: number, timeAchieved: number | null) => ({
  matchType: 'sdvxInGameID',
  identifier: String(1000 + song),
  difficulty,
  score,
  lamp: 'CLEAR',
  timeAchieved,
});

describe('ImportDocuments and GET /imports/:importID', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
    await loadFixtureCatalog(t.database, 'catalog', ['sdvx']);
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers the import with every field of the ImportDocument, with real times', async () => {
    const p = await player(t);
    const before = Date.now();
    const res = await importFile(
      t,
      p.token,
      batchManual('sdvx', 'Single', [play(1, 'EXH', 9_000_000, T0), play(1, 'MXM', 9_100_000, T0 + MINUTE), play(4242, 'EXH', 9_000_000, T0)]),
      { 'X-User-Intent': 'true' },
    );
    const after = Date.now();
    expect(res.status).toBe(200);
    const doc = res.body as ImportDocument;
    expect(Object.keys(doc).sort()).toEqual(IMPORT_DOCUMENT_KEYS);
    expect(doc).toMatchObject({
      importType: 'file/batch-manual',
      userID: p.user.id,
      game: 'sdvx',
      idStrings: ['sdvx:Single'],
      userIntent: true,
      goalInfo: [],
      questInfo: [],
      classDeltas: [{ game: 'sdvx', playtype: 'Single', set: 'vfClass', old: null, new: 'SIENNA_I' }],
    });
    expect(doc.importID).toMatch(/^[0-9a-f]{40}$/);
    expect(doc.scoreIDs).toHaveLength(2);
    expect(doc.errors).toEqual([{ type: 'SongOrChartNotFound', message: expect.stringMatching(/^scores\[2\]: /) }]);
    expect(doc.createdSessions).toEqual([{ sessionID: expect.stringMatching(/^Q[0-9a-f]{40}$/), type: 'Created' }]);
    expect(doc.timeStarted).toBeGreaterThanOrEqual(before);
    expect(doc.timeFinished).toBeGreaterThanOrEqual(doc.timeStarted!);
    expect(doc.timeFinished).toBeLessThanOrEqual(after);
  });

  it('says why an import saved no score: nothing in it, every play already saved; not when its errors say it', async () => {
    const p = await player(t);
    const file = batchManual('sdvx', 'Single', [play(1, 'EXH', 9_000_000, T0)]);
    expect((await importFile(t, p.token, file)).body).not.toHaveProperty('emptyReason');
    const again = (await importFile(t, p.token, file)).body as ImportDocument;
    expect(again.scoreIDs).toEqual([]);
    expect(again.emptyReason).toBe('Every play in it was already saved.');
    expect(((await importFile(t, p.token, batchManual('sdvx', 'Single', []))).body as ImportDocument).emptyReason).toBe('The import carried no scores.');
    const notFound = (await importFile(t, p.token, batchManual('sdvx', 'Single', [play(4242, 'EXH', 9_000_000, T0)]))).body as ImportDocument;
    expect(notFound.errors).toHaveLength(1);
    expect(notFound).not.toHaveProperty('emptyReason');
  });

  it('returns {scores, songs, charts, sessions (those it created), import, user}; 404 for an unknown import', async () => {
    const p = await player(t);
    const first = await imported(t, p.token, batchManual('sdvx', 'Single', [play(1, 'EXH', 9_000_000, T0)]));
    // One play joins the first import's session, the other starts a new one.
    const second = await imported(
      t,
      p.token,
      batchManual('sdvx', 'Single', [play(1, 'MXM', 9_100_000, T0 + HOUR), play(2, 'EXH', 9_200_000, T0 + 5 * HOUR), play(2, 'GRV', 9_300_000, null)]),
    );
    expect(second.createdSessions.map((s) => s.type).sort()).toEqual(['Appended', 'Created']);
    const created = second.createdSessions.find((s) => s.type === 'Created')!.sessionID;

    const res = await t.http().get(`/api/v1/imports/${second.importID}`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['charts', 'import', 'scores', 'sessions', 'songs', 'user']);
    expect(res.body.import).toEqual(second);
    expect(res.body.scores.map((s: { scoreID: string }) => s.scoreID).sort()).toEqual([...second.scoreIDs].sort());
    expect(res.body.scores.every((s: { importID: string }) => s.importID === second.importID)).toBe(true);
    expect(res.body.charts.map((c: { chartID: string }) => c.chartID).sort()).toEqual(
      [fixtureChart('sdvx-1-MXM'), fixtureChart('sdvx-2-EXH'), fixtureChart('sdvx-2-GRV')].sort(),
    );
    expect(res.body.songs.map((s: { id: number; title: string }) => [s.id, s.title]).sort()).toEqual([
      [1, 'Pipeline Anthem'],
      [2, 'Gravity Test'],
    ]);
    expect(res.body.sessions).toHaveLength(1);
    expect(res.body.sessions[0]).toMatchObject({ sessionID: created, userID: p.user.id, timeStarted: T0 + 5 * HOUR, timeEnded: T0 + 5 * HOUR });
    expect(res.body.sessions[0].scores).toHaveLength(1);
    expect(res.body.user).toMatchObject({ id: p.user.id, username: p.username });

    const firstRes = await t.http().get(`/api/v1/imports/${first.importID}`);
    expect(firstRes.body.scores).toHaveLength(1);
    expect(firstRes.body.sessions).toHaveLength(1);

    const unknown = await t.http().get(`/api/v1/imports/${'0'.repeat(40)}`);
    expect(unknown.status).toBe(404);
    expect((await t.http().get(`/api/v1/imports/${'0'.repeat(40)}/poll-status`)).status).toBe(404);
  });

  it('polls an inline import as completed, with its ImportDocument', async () => {
    const p = await player(t);
    const doc = await imported(t, p.token, batchManual('sdvx', 'Single', [play(1, 'ADV', 9_000_000, T0)]));
    const res = await t.http().get(`/api/v1/imports/${doc.importID}/poll-status`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ importStatus: 'completed', import: doc });
  });
});

describe('one import per user at a time (inline mode)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
    await loadFixtureCatalog(t.database, 'catalog', ['sdvx']);
  });
  afterAll(async () => {
    await t.close();
  });

  /** Many distinct plays over the twelve session charts, one minute apart. */
  const bigFile = (n: number, offset: number) =>
    batchManual(
      'sdvx',
      'Single',
      Array.from({ length: n }, (_, i) => play(3 + (i % 12), 'MXM', 8_000_000 + offset + i, T0 + i * MINUTE)),
    );
  const countOf = (table: 'scores' | 'imports' | 'pbs', userID: number) => countRows(t, table, { userID });

  it('runs two imports sent at once by one user one after the other, never together: the data is exactly what the answered imports report', async () => {
    const p = await player(t);
    const files = [bigFile(3000, 0), bigFile(3000, 500_000)];
    const results = await Promise.all(files.map((f) => importFile(t, p.token, f)));
    const statuses = results.map((r) => r.status);
    if (usingPostgres) {
      // Each import takes the user's lock before it writes: the second finds it held and is refused.
      expect([...statuses].sort()).toEqual([200, 409]);
    } else {
      // The embedded PGlite runs one transaction at a time, and nothing else meanwhile: the second
      // request cannot reach the lock before the first has finished, so it runs after it.
      expect(statuses.every((s) => s === 200 || s === 409)).toBe(true);
      expect(statuses).toContain(200);
    }
    const done = results.filter((r) => r.status === 200);
    for (const r of results.filter((x) => x.status === 409)) expect(r.body.message).toMatch(/You already have an import in progress/);
    for (const r of done) expect(r.body.scoreIDs).toHaveLength(3000);
    // The stored scores are exactly those the answered imports list: each import's are there, and there are no more.
    for (const r of done) expect((await storedScoresOfImport(t, r.body.importID)).map((s) => s.scoreID).sort()).toEqual([...r.body.scoreIDs].sort());
    expect(await countOf('scores', p.user.id)).toBe(new Set(done.flatMap((r) => r.body.scoreIDs as string[])).size);
    expect(await countOf('imports', p.user.id)).toBe(done.length);
    expect(await countOf('pbs', p.user.id)).toBe(12);
    expect(await importLock(t, p.user.id)).toBeUndefined();

    // Sent again now, a refused file goes through; an imported one adds nothing.
    for (const [i, r] of results.entries()) {
      const again = await importFile(t, p.token, files[i]);
      expect(again.status).toBe(200);
      expect(again.body.scoreIDs).toHaveLength(r.status === 409 ? 3000 : 0);
    }
    expect(await countOf('scores', p.user.id)).toBe(6000);
  });

  it('does not block another user', async () => {
    const [a, b] = [await player(t), await player(t)];
    const [ra, rb] = await Promise.all([importFile(t, a.token, bigFile(200, 0)), importFile(t, b.token, bigFile(200, 0))]);
    expect([ra.status, rb.status]).toEqual([200, 200]);
    expect(await countOf('scores', a.user.id)).toBe(200);
    expect(await countOf('scores', b.user.id)).toBe(200);
  });

  it('answers 409 while another process holds the user’s lock, and takes over a lock whose holder stopped refreshing it', async () => {
    const p = await player(t);
    await holdImportLock(t, p.user.id, { owner: 'another-process' });
    expect((await importFile(t, p.token, bigFile(1, 0))).status).toBe(409);
    expect(
      (
        await t
          .http()
          .post('/api/v1/import/orphans')
          .set({ Authorization: `Bearer ${p.token}` })
      ).status,
    ).toBe(409);
    await setImportLockHeartbeat(t, p.user.id, Date.now() - LOCK_STALE_MS - 1000);
    const res = await importFile(t, p.token, bigFile(1, 0));
    expect(res.status).toBe(200);
    expect(await importLock(t, p.user.id)).toBeUndefined();
  });
});
