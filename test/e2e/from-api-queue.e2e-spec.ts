import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import path from 'node:path';
import { Queue } from 'bullmq';
import { IMPORT_QUEUE_NAME, type ImportJobData } from '../../src/imports/bullmq-import-queue.js';
import type { ImportWorker } from '../../src/imports/import-worker.js';
import { createTestApp, usingRedis, type TestApp } from '../support/app.js';
import { kaiEnv, kaiIidxPlays, startFakeKaiServer, type FakeKaiServer } from '../support/fake-kai-server.js';
import { startImportWorker } from '../support/import-worker.js';
import { loadFixtureCatalog, player, type Player } from '../support/imports.js';
import { refuseCommitsWritingScores } from '../support/db-fixtures.js';
import { countRows, importRow, storedSyncState } from '../support/stored.js';
import { bearer } from '../support/users.js';

/**
 * POST /import/from-api in queue mode (REDIS_URL): the request answers 202 and a BullMQ worker
 * fetches and imports; the sync's cursor is kept only with an import that succeeds. Against the
 * real Redis of TEST_REDIS_URL and a local fake FLO; the worker runs in the test process (as
 * import-queue.e2e-spec does), so the embedded database serves too. There is no queued mode
 * without Redis: without TEST_REDIS_URL the file is skipped.
 */
const CATALOG = path.resolve('test/fixtures/imports/fervidex/catalog');
const IMPORT_TYPE = 'api/flo-iidx';

/** IIDX plays on the fixture catalog's 28001 ANOTHER (version 28), later with each call. */
const iidxPlay = kaiIidxPlays();
/** The newest play's timestamp made so far: a successful sync's cursor. */
let newest = '';
const plays = (n: number) =>
  Array.from({ length: n }, () => {
    const play = iidxPlay();
    newest = String(play.timestamp);
    return play;
  });

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until(condition: () => Promise<boolean>) {
  while (!(await condition())) await sleep(50);
}

(usingRedis ? describe : describe.skip)(
  usingRedis
    ? 'POST /import/from-api, queued (BullMQ)'
    : 'POST /import/from-api, queued (BullMQ) — skipped: TEST_REDIS_URL is not set, and queue mode needs a real Redis',
  () => {
    let t: TestApp;
    let fake: FakeKaiServer;
    let jobs: Queue<ImportJobData>;
    const workers = new Set<ImportWorker>();

    beforeAll(async () => {
      // Pages of two plays, so that a sync of a few plays takes several pages.
      fake = await startFakeKaiServer({ pageSize: 2 });
      t = await createTestApp({ ...kaiEnv('FLO', fake), FROM_API_REQUEST_TIMEOUT_MS: '2000' }, { importQueue: 'queue' });
      await loadFixtureCatalog(t.database, CATALOG);
      jobs = new Queue<ImportJobData>(IMPORT_QUEUE_NAME, { connection: t.redis!.ioredis, prefix: t.keyPrefix });
    });
    afterAll(async () => {
      await jobs?.obliterate({ force: true });
      await jobs?.close();
      await t?.close();
      await fake?.close();
    });
    beforeEach(() => {
      // The fake holds one account's plays: each test starts from none, with its own player.
      fake.clearPlays('iidx');
      for (const key of Object.keys(fake.switches)) delete fake.switches[key as keyof typeof fake.switches];
    });
    afterEach(async () => {
      for (const worker of workers) await worker.close();
      workers.clear();
    });

    const work = async () => {
      const worker = await startImportWorker(t);
      workers.add(worker);
      return worker;
    };
    const link = async (p: Player) => {
      const res = await p.agent.post(`/api/v1/users/${p.user.id}/integrations/kai/flo/oauth2callback`).send({ code: fake.issueCode() });
      expect(res.status).toBe(200);
    };
    /** Submits a sync: 202 with the importID and its poll URL. */
    const sync = async (p: Player): Promise<string> => {
      const res = await t.http().post('/api/v1/import/from-api').set(bearer(p.token)).send({ importType: IMPORT_TYPE });
      expect(res.status).toBe(202);
      expect(res.body).toEqual({ importID: expect.any(String), url: `http://127.0.0.1:3000/api/v1/imports/${res.body.importID}/poll-status` });
      return res.body.importID as string;
    };
    const poll = (importID: string) => t.http().get(`/api/v1/imports/${importID}/poll-status`);
    /** Polls until the import is no longer ongoing (the test's timeout bounds the wait). */
    const settled = async (importID: string) => {
      for (;;) {
        const res = await poll(importID);
        if (res.status !== 200 || res.body.importStatus !== 'ongoing') return res;
        await sleep(50);
      }
    };
    const refreshGrants = () => fake.stats.grants.refresh_token ?? 0;

    it('answers 202 with an importID; the worker fetches the pages (never the request), and the poll shows the sync completing', async () => {
      const p = await player(t);
      await link(p);
      fake.addPlays('iidx', plays(5));
      fake.profile.iidx = { sp: 16, dp: null };
      const [pages, grants] = [fake.stats.pages, refreshGrants()];

      const importID = await sync(p);
      const queued = await poll(importID);
      expect(queued.status).toBe(200);
      expect(queued.body).toEqual({ importStatus: 'ongoing', progress: { description: 'Waiting in the queue.' } });
      // No worker yet: nothing has asked FLO for anything, and the import waits in the queue.
      await sleep(300);
      expect([fake.stats.pages, refreshGrants()]).toEqual([pages, grants]);
      expect(await importRow(t, importID)).toMatchObject({ status: 'queued', importType: IMPORT_TYPE, userID: p.user.id });
      expect(await storedSyncState(t, p.user.id, IMPORT_TYPE)).toBeUndefined();

      // Slow pages, so that the poll catches the worker in its fetch step.
      fake.switches.pageDelayMs = 150;
      await work();
      for (;;) {
        const res = await poll(importID);
        expect(res.status).toBe(200);
        if (res.body.progress?.description === 'Fetching scores.') break;
        expect(res.body.importStatus).toBe('ongoing');
        await sleep(20);
      }
      const done = await settled(importID);
      expect(done.status).toBe(200);
      expect(done.body).toMatchObject({ importStatus: 'completed', import: { importID, importType: IMPORT_TYPE, userID: p.user.id } });
      expect(done.body.import.scoreIDs).toHaveLength(5);
      expect(done.body.import.classDeltas).toEqual([expect.objectContaining({ game: 'iidx', playtype: 'SP', set: 'dan', new: 'DAN_10' })]);
      // Five plays, two a page: three pages, after one token refresh.
      expect(fake.stats.pages - pages).toBe(3);
      expect(refreshGrants() - grants).toBe(1);
      expect(await countRows(t, 'scores', { userID: p.user.id })).toBe(5);
      expect(await storedSyncState(t, p.user.id, IMPORT_TYPE)).toMatchObject({
        importID,
        cursor: { timestamp: newest },
      });

      // Again with nothing new: one page, and the document says why it brought nothing.
      fake.switches.pageDelayMs = 0;
      const pagesBefore = fake.stats.pages;
      const again = await settled(await sync(p));
      expect(again.body.importStatus).toBe('completed');
      expect(again.body.import.scoreIDs).toEqual([]);
      expect(again.body.import.emptyReason).toMatch(/^No new IIDX plays on FLO since your last sync/);
      expect(fake.stats.pages - pagesBefore).toBe(1);
    }, 60_000);

    it('keeps the cursor only when the import succeeds: a sync that fails mid-way fails with a clear error, writes nothing, and the next sync picks up from the old cursor', async () => {
      const p = await player(t);
      await link(p);
      await work();
      fake.addPlays('iidx', plays(2));
      const first = await settled(await sync(p));
      expect(first.body.import.scoreIDs).toHaveLength(2);
      const cursor = await storedSyncState(t, p.user.id, IMPORT_TYPE);
      expect(cursor).toMatchObject({ importID: first.body.import.importID });

      // Five new plays over pages 1–3 (newest first; page 3 also holds the newest known play). Page 2 fails.
      fake.addPlays('iidx', plays(5));
      fake.switches.page500 = 2;
      const pages = fake.stats.pages;
      const failedID = await sync(p);
      const failed = await settled(failedID);
      expect(failed.status).toBe(502);
      expect(failed.body.message).toBe('FLO failed to answer (HTTP 500); nothing was saved. Try again later.');
      expect(fake.stats.pages - pages).toBe(2);
      expect(await importRow(t, failedID)).toMatchObject({ status: 'failed', failure: { statusCode: 502 } });
      expect(await storedSyncState(t, p.user.id, IMPORT_TYPE)).toEqual(cursor);
      expect(await countRows(t, 'scores', { userID: p.user.id })).toBe(2);
      expect(await countRows(t, 'sessions', { userID: p.user.id })).toBe(1);
      // The failed import has no document.
      expect((await t.http().get(`/api/v1/imports/${failedID}`)).status).toBe(404);

      // FLO is back: the next sync brings the five plays, stopping on page 3 at the play the old cursor names.
      delete fake.switches.page500;
      const pagesBefore = fake.stats.pages;
      const resumed = await settled(await sync(p));
      expect(resumed.body.importStatus).toBe('completed');
      expect(resumed.body.import.scoreIDs).toHaveLength(5);
      expect(fake.stats.pages - pagesBefore).toBe(3);
      expect(await countRows(t, 'scores', { userID: p.user.id })).toBe(7);
      expect(await storedSyncState(t, p.user.id, IMPORT_TYPE)).toMatchObject({
        importID: resumed.body.import.importID,
        cursor: { timestamp: newest },
      });
    }, 60_000);

    it("saves the cursor in the import's transaction: a write that fails at its commit keeps the old cursor, and the retry fetches again from it", async () => {
      const p = await player(t);
      await link(p);
      await work();
      fake.addPlays('iidx', plays(1));
      expect((await settled(await sync(p))).body.import.scoreIDs).toHaveLength(1);
      const cursor = await storedSyncState(t, p.user.id, IMPORT_TYPE);

      fake.addPlays('iidx', plays(3));
      const pages = fake.stats.pages;
      const allowCommits = await refuseCommitsWritingScores(t);
      let importID: string;
      try {
        importID = await sync(p);
        // The first run fetched everything new (two pages: the second ends at the known play), wrote it, and failed at the commit: the job waits for its retry.
        await until(async () => (await jobs.getJob(importID))?.attemptsMade === 1 && (await (await jobs.getJob(importID))!.getState()) === 'delayed');
        expect(fake.stats.pages - pages).toBe(2);
        expect(await storedSyncState(t, p.user.id, IMPORT_TYPE)).toEqual(cursor);
        expect(await countRows(t, 'scores', { userID: p.user.id })).toBe(1);
        expect((await poll(importID)).body.importStatus).toBe('ongoing');
      } finally {
        await allowCommits();
      }
      // The retry (after IMPORT_JOB_BACKOFF_MS) fetches again from the cursor the failed run left as it was.
      const done = await settled(importID);
      expect(done.body.importStatus).toBe('completed');
      expect(done.body.import.scoreIDs).toHaveLength(3);
      expect(fake.stats.pages - pages).toBe(4);
      expect(await countRows(t, 'scores', { userID: p.user.id })).toBe(4);
      expect(await storedSyncState(t, p.user.id, IMPORT_TYPE)).toMatchObject({ importID });
    }, 60_000);

    it('fails a queued sync whose link was removed before the worker took it (409, nothing fetched)', async () => {
      const p = await player(t);
      await link(p);
      fake.addPlays('iidx', plays(2));
      const importID = await sync(p);
      expect((await p.agent.delete(`/api/v1/users/${p.user.id}/integrations/kai/flo`)).status).toBe(200);
      const pages = fake.stats.pages;
      await work();
      const failed = await settled(importID);
      expect(failed.status).toBe(409);
      expect(failed.body.message).toMatch(/Your FLO account is not linked \(it was unlinked after this sync was queued\)/);
      expect(fake.stats.pages).toBe(pages);
      expect(await countRows(t, 'scores', { userID: p.user.id })).toBe(0);
    }, 60_000);
  },
);
