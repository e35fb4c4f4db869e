import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { createApp } from '../../src/app.factory.js';
import { randomHex } from '../../src/common/crypto.js';
import { LOCK_STALE_MS } from '../../src/scoring/import-lock.js';
import { InlineImportQueue } from '../../src/imports/import-queue.js';
import { ImportsService } from '../../src/imports/imports.service.js';
import { WebhooksService } from '../../src/webhooks/webhooks.service.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { holdImportLock, storeUnfinishedImport } from '../support/db-fixtures.js';
import { quickPlayer, type QuickPlayer } from '../support/leaderboard-fixtures.js';
import { importSdvx, loadScoreFixtures, sdvxScore } from '../support/score-fixtures.js';
import { countRows, importLock } from '../support/stored.js';
import { bearer } from '../support/users.js';

const MIN = 60_000;
const T0 = Date.UTC(2024, 7, 1, 18);
const DOCUMENT = {
  meta: { game: 'sdvx', playtype: 'Single', service: 'lifecycle' },
  scores: [sdvxScore(1, 'MXM', 9_500_000, 'CLEAR', T0), sdvxScore(2, 'MXM', 9_000_000, 'CLEAR', T0 + 5 * MIN)],
};

/** Runs of an import that end otherwise than the happy path: run twice, or cut off by a crash. */
describe('import lifecycle', () => {
  let t: TestApp;

  const poll = (importID: string) => t.http().get(`/api/v1/imports/${importID}/poll-status`);
  /** An import row as the inline path leaves it when its process dies mid-import: ongoing, no stored input. */
  const crashedInline = async (p: QuickPlayer) => {
    const importID = randomHex(20);
    await storeUnfinishedImport(t, {
      importID,
      userID: p.id,
      importType: 'ir/direct-manual',
      timeQueued: Date.now() - 5 * MIN,
      status: 'ongoing',
      progress: 'Importing scores.',
    });
    return importID;
  };

  beforeAll(async () => {
    t = await createTestApp();
    await loadScoreFixtures(t);
  });
  afterAll(async () => {
    await t.close();
  });

  it('a queued import run twice at once (a redelivered job) keeps the document of the run that wrote it', async () => {
    const p = await quickPlayer(t, 'twice');
    const importID = randomHex(20);
    await storeUnfinishedImport(t, { importID, userID: p.id, importType: 'file/batch-manual', status: 'queued', input: JSON.stringify(DOCUMENT) });
    const service = t.app.get(ImportsService);
    const [first, second] = await Promise.all([service.runQueued(importID, () => undefined), service.runQueued(importID, () => undefined)]);

    const stored = (await poll(importID)).body.import;
    expect(stored.scoreIDs).toHaveLength(2);
    expect(stored.createdSessions).toHaveLength(1);
    expect(first).toEqual(stored);
    expect(second).toEqual(stored);
    expect(await countRows(t, 'scores', { userID: p.id })).toBe(2);
    // And once more, after the fact: nothing changes.
    expect(await service.runQueued(importID, () => undefined)).toEqual(stored);
  });

  it("a queued import's commit frees the user at once; a rerun of a completed import frees a lock its dead run left", async () => {
    const p = await quickPlayer(t, 'freed');
    const importID = randomHex(20);
    await storeUnfinishedImport(t, { importID, userID: p.id, importType: 'file/batch-manual', status: 'queued', input: JSON.stringify(DOCUMENT) });
    const service = t.app.get(ImportsService);
    // The lock is released in the import's transaction: by the time webhooks are stored, another import of the user may start.
    let heldAfterCommit: unknown = 'not asked';
    const schedule = jest.spyOn(t.app.get(WebhooksService), 'schedule').mockImplementation(() => {
      void importLock(t, p.id).then((lock) => (heldAfterCommit = lock));
    });
    try {
      await service.runQueued(importID, () => undefined);
    } finally {
      schedule.mockRestore();
    }
    await new Promise((ok) => setTimeout(ok, 100));
    expect(heldAfterCommit).toBeUndefined();
    expect(await importLock(t, p.id)).toBeUndefined();

    // A run killed between its commit and its lock's release (before the release moved into the commit) left a fresh lock:
    // the redelivered job finds the import completed and frees it, instead of the user waiting LOCK_STALE_MS.
    await holdImportLock(t, p.id, { owner: importID });
    await service.runQueued(importID, () => undefined);
    expect(await importLock(t, p.id)).toBeUndefined();
    // A lock another import holds is left alone.
    const release = await holdImportLock(t, p.id, { owner: 'another-import' });
    await service.runQueued(importID, () => undefined);
    expect(await importLock(t, p.id)).toMatchObject({ owner: 'another-import' });
    await release();
  });

  it('an inline import whose process died is failed when its stale lock is taken over, so its poll ends', async () => {
    const p = await quickPlayer(t, 'takeover');
    const dead = await crashedInline(p);
    await holdImportLock(t, p.id, { owner: dead, heartbeat: Date.now() - LOCK_STALE_MS - 1_000 });
    expect((await poll(dead)).body).toMatchObject({ importStatus: 'ongoing' });

    const doc = await importSdvx(t.http(), DOCUMENT.scores, { headers: bearer(p.token) });
    expect(doc.scoreIDs).toHaveLength(2);
    const res = await poll(dead);
    expect(res.status).toBe(500);
    expect(res.body.message).toMatch(/stopped before it finished/);
    expect((await poll(doc.importID)).body).toMatchObject({ importStatus: 'completed' });
  });

  it('at startup, inline imports left ongoing by a stopped process are failed; a running one (its lock is live) is not', async () => {
    const gone = await quickPlayer(t, 'startup_gone');
    const live = await quickPlayer(t, 'startup_live');
    const dead = await crashedInline(gone);
    const running = await crashedInline(live);
    await holdImportLock(t, live.id, { owner: running });

    const restarted = await createApp({
      config: t.config,
      database: t.database,
      ownsDatabase: false,
      redis: null,
      keyPrefix: `st-test-${randomHex(4)}`,
      importQueue: new InlineImportQueue(),
    });
    await restarted.init();
    await restarted.close();

    const res = await poll(dead);
    expect(res.status).toBe(500);
    expect(res.body.message).toMatch(/stopped before it finished/);
    expect((await poll(running)).body).toMatchObject({ importStatus: 'ongoing' });
  });
});
