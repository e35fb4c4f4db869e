import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Queue } from 'bullmq';
import pg from 'pg';
import { SeedLoader } from '../../src/seeds/seed-loader.js';
import { SeedSource } from '../../src/seeds/seed-source.js';
import { IMPORT_QUEUE_NAME, type ImportJobData } from '../../src/imports/bullmq-import-queue.js';
import { ImportsService, STRANDED_IMPORT_AGE_MS } from '../../src/imports/imports.service.js';
import { withUserLock } from '../../src/scoring/import-lock.js';
import type { ImportWorker } from '../../src/imports/import-worker.js';
import type { ImportDocument } from '../../src/presenters/import.presenter.js';
import { createTestApp, usingPostgres, usingRedis, type TestApp } from '../support/app.js';
import { buildIfNeeded } from '../support/cli.js';
import { lockProfilesTable, setImportInput, waitingOnProfilesTable } from '../support/db-fixtures.js';
import { startImportWorker } from '../support/import-worker.js';
import { countRows, importRow } from '../support/stored.js';
import { bearer, issueToken, signUp } from '../support/users.js';

/**
 * Queue mode (REDIS_URL): submissions answer 202 and BullMQ workers run the imports, against the
 * real Redis of TEST_REDIS_URL. Each app gets its own key prefix, so the queue of this file is
 * its own. The worker-restart part runs `node dist/worker.js` processes, which need a database
 * they can share with the test: the PostgreSQL of TEST_DATABASE_URL.
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const WORKER = path.join(ROOT, 'dist', 'worker.js');
const SEEDS = path.join(ROOT, 'test', 'fixtures', 'imports', 'queue-sdvx');

/** The fixture's charts (real sdvx seed rows of songs 1 to 3), as sdvxInGameID identifier and difficulty. */
const CHARTS = [
  ['1', 'NOV'],
  ['1', 'ADV'],
  ['1', 'EXH'],
  ['1', 'INF'],
  ['2', 'NOV'],
  ['2', 'ADV'],
  ['2', 'EXH'],
  ['2', 'HVN'],
  ['3', 'NOV'],
  ['3', 'ADV'],
  ['3', 'EXH'],
] as const;

const DAY = Date.UTC(2024, 4, 1, 12);
const MINUTE = 60_000;

/** A batch-manual document of n distinct plays, one a minute from `start`, cycling over the fixture charts. */
function document(n: number, start = DAY) {
  return {
    meta: { game: 'sdvx', playtype: 'Single', service: 'queue-test' },
    scores: Array.from({ length: n }, (_, i) => {
      const [identifier, difficulty] = CHARTS[i % CHARTS.length];
      return { score: 9_000_000 + i, lamp: 'CLEAR', matchType: 'sdvxInGameID', identifier, difficulty, timeAchieved: start + i * MINUTE };
    }),
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls until the import is no longer ongoing (the test's timeout bounds the wait). */
async function settled(t: TestApp, importID: string) {
  for (;;) {
    const res = await t.http().get(`/api/v1/imports/${importID}/poll-status`);
    if (res.status !== 200 || res.body.importStatus !== 'ongoing') return res;
    await sleep(50);
  }
}

async function until(condition: () => Promise<boolean>) {
  while (!(await condition())) await sleep(50);
}

/** Runs `npm run worker`'s program; stdio is kept for failure messages. */
function runWorker(env: NodeJS.ProcessEnv): ChildProcess & { output: () => string } {
  const child = spawn(process.execPath, [WORKER], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  return Object.assign(child, { output: () => output });
}

function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

describe('npm run worker configuration', () => {
  beforeAll(buildIfNeeded, 300_000);

  const env = (extra: Record<string, string>) => {
    const e: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'warn', ...extra };
    for (const key of ['DATABASE_URL', 'REDIS_URL']) if (!(key in extra)) delete e[key];
    return e;
  };

  it('exits 1 with a clear message without REDIS_URL', async () => {
    const worker = runWorker(env({ DATABASE_URL: 'postgres://127.0.0.1:1/none' }));
    expect(await exited(worker)).toBe(1);
    expect(worker.output()).toContain('REDIS_URL is not set');
  });

  it('exits 1 with a clear message without DATABASE_URL (the embedded database cannot be shared)', async () => {
    const worker = runWorker(env({ REDIS_URL: 'redis://127.0.0.1:1' }));
    expect(await exited(worker)).toBe(1);
    expect(worker.output()).toContain('DATABASE_URL is not set');
  });
});

(usingRedis ? describe : describe.skip)(
  usingRedis ? 'import queue (BullMQ)' : 'import queue (BullMQ) — skipped: TEST_REDIS_URL is not set, and queue mode needs a real Redis',
  () => {
    let t: TestApp;
    let jobs: Queue<ImportJobData>;
    const workers = new Set<ImportWorker>();

    const submitter = async () => {
      const u = await signUp(t);
      return { u, auth: bearer(await issueToken(u, ['submit_score'])) };
    };

    const work = async (concurrency?: number) => {
      const worker = await startImportWorker(t, { concurrency });
      workers.add(worker);
      return worker;
    };

    const stop = async (worker: ImportWorker) => {
      await worker.close();
      workers.delete(worker);
    };

    beforeAll(async () => {
      t = await createTestApp({}, { importQueue: 'queue' });
      await new SeedLoader(t.database).load(new SeedSource(SEEDS), { games: ['sdvx'] });
      // The test's own view of the app's queue, to look at jobs.
      jobs = new Queue<ImportJobData>(IMPORT_QUEUE_NAME, { connection: t.redis!.ioredis, prefix: t.keyPrefix });
    });

    afterAll(async () => {
      for (const worker of workers) await worker.close();
      await jobs?.obliterate({ force: true });
      await jobs?.close();
      await t?.close();
    });

    it('answers 202 {url, importID}; the poll reports the description while queued, then the ImportDocument', async () => {
      const { u, auth } = await submitter();
      const res = await t.http().post('/api/v1/ir/direct-manual/import').set(auth).send(document(3));
      expect(res.status).toBe(202);
      const { importID } = res.body as { importID: string };
      expect(res.body).toEqual({ importID: expect.any(String), url: `${t.config.PUBLIC_URL}/api/v1/imports/${importID}/poll-status` });

      // No worker yet: the job waits, carrying only the import's id.
      const job = await jobs.getJob(importID);
      expect(job?.data).toEqual({ importID });
      expect(await job?.getState()).toBe('waiting');
      const waiting = await t.http().get(`/api/v1/imports/${importID}/poll-status`);
      expect(waiting.status).toBe(200);
      expect(waiting.body).toEqual({ importStatus: 'ongoing', progress: { description: 'Waiting in the queue.' } });
      expect((await t.http().get(`/api/v1/imports/${importID}`)).status).toBe(404);

      const worker = await work();
      const done = await settled(t, importID);
      expect(done.status).toBe(200);
      expect(done.body.importStatus).toBe('completed');
      expect(done.body.progress).toBeUndefined();
      const doc = done.body.import as ImportDocument;
      expect(doc).toMatchObject({
        importID,
        importType: 'ir/direct-manual',
        userID: u.user.id,
        game: 'sdvx',
        idStrings: ['sdvx:Single'],
        errors: [],
        userIntent: false,
      });
      expect(doc.scoreIDs).toHaveLength(3);
      expect(doc.createdSessions).toEqual([{ sessionID: expect.any(String), type: 'Created' }]);
      expect(doc.timeStarted).toBeLessThanOrEqual(doc.timeFinished!);

      const full = await t.http().get(`/api/v1/imports/${importID}`);
      expect(full.status).toBe(200);
      expect(full.body.import).toEqual(doc);
      expect((full.body.scores as { scoreID: string }[]).map((s) => s.scoreID).sort()).toEqual([...doc.scoreIDs].sort());
      // A completed job is removed from Redis; the imports row is the record.
      expect(await jobs.getJob(importID)).toBeUndefined();
      await stop(worker);
    }, 60_000);

    it('queues file imports too, with X-User-Intent', async () => {
      const { auth } = await submitter();
      const worker = await work();
      const res = await t
        .http()
        .post('/api/v1/import/file')
        .set(auth)
        .set('X-User-Intent', 'true')
        .field('importType', 'file/batch-manual')
        .attach('scoreData', Buffer.from(JSON.stringify(document(2, DAY + 30 * 24 * 3600_000))), 'scores.json');
      expect(res.status).toBe(202);
      const done = await settled(t, res.body.importID);
      expect(done.body).toMatchObject({ importStatus: 'completed', import: { importType: 'file/batch-manual', userIntent: true } });
      expect(done.body.import.scoreIDs).toHaveLength(2);
      await stop(worker);
    }, 60_000);

    it('runs two imports of one user one after another: both complete, no 409, and a busy user delays a job without using an attempt', async () => {
      const { u, auth } = await submitter();
      const first = document(4, DAY);
      const second = document(4, DAY + 10 * MINUTE + 30_000);
      let worker: ImportWorker | undefined;
      // The user's import lock is held (as a revert would) while both jobs reach a worker.
      const ids = await withUserLock(t.database, u.user.id, 'held-by-test', async () => {
        const a = await t.http().post('/api/v1/ir/direct-manual/import').set(auth).send(first);
        const b = await t.http().post('/api/v1/ir/direct-manual/import').set(auth).send(second);
        expect([a.status, b.status]).toEqual([202, 202]);
        const pair = [a.body.importID as string, b.body.importID as string];
        worker = await work(2);
        const seenDelayed = new Set<string>();
        await until(async () => {
          for (const id of pair) {
            const job = await jobs.getJob(id);
            if ((await job?.getState()) === 'delayed') {
              expect(job?.attemptsMade).toBe(0);
              seenDelayed.add(id);
            }
          }
          return seenDelayed.size === 2;
        });
        for (const id of pair) expect((await t.http().get(`/api/v1/imports/${id}/poll-status`)).body.importStatus).toBe('ongoing');
        return pair;
      });

      const docs = [];
      for (const id of ids) {
        const done = await settled(t, id);
        expect(done.status).toBe(200);
        expect(done.body.importStatus).toBe('completed');
        docs.push(done.body.import as ImportDocument);
      }
      for (const doc of docs) expect(doc.scoreIDs).toHaveLength(4);
      // One after another: the spans do not overlap, and the later one appended to the session the earlier one created.
      const [earlier, later] = [...docs].sort((x, y) => x.timeStarted! - y.timeStarted!);
      expect(earlier.timeFinished!).toBeLessThanOrEqual(later.timeStarted!);
      expect(earlier.createdSessions).toEqual([{ sessionID: expect.any(String), type: 'Created' }]);
      expect(later.createdSessions).toEqual([{ sessionID: earlier.createdSessions[0].sessionID, type: 'Appended' }]);
      expect(await countRows(t, 'scores', { userID: u.user.id })).toBe(8);
      await stop(worker!);
    }, 60_000);

    it('an import whose job Redis lost (a restart without persistence) is enqueued again by the sweep and completes once', async () => {
      const { u, auth } = await submitter();
      const res = await t
        .http()
        .post('/api/v1/ir/direct-manual/import')
        .set(auth)
        .send(document(3, DAY + 60 * 24 * 3600_000));
      expect(res.status).toBe(202);
      const { importID } = res.body as { importID: string };
      // What a Redis restart without persistence leaves: the import row, queued, and no job.
      await (await jobs.getJob(importID))!.remove();
      const imports = t.app.get(ImportsService);
      // A young import is not looked at (its job may not be added yet); one older than STRANDED_IMPORT_AGE_MS is enqueued again.
      await imports.requeueStranded();
      expect(await jobs.getJob(importID)).toBeUndefined();
      expect(await imports.requeueStranded(Date.now() + STRANDED_IMPORT_AGE_MS + 1)).toBeGreaterThanOrEqual(1);
      expect(await (await jobs.getJob(importID))?.getState()).toBe('waiting');
      // Sweeping again while the job exists adds nothing.
      await imports.requeueStranded(Date.now() + STRANDED_IMPORT_AGE_MS + 1);
      expect(await jobs.getJobCounts('waiting')).toEqual({ waiting: 1 });
      const worker = await work();
      const done = await settled(t, importID);
      expect(done.body.importStatus).toBe('completed');
      expect(done.body.import.scoreIDs).toHaveLength(3);
      expect(await countRows(t, 'scores', { userID: u.user.id })).toBe(3);
      expect(await countRows(t, 'imports', { userID: u.user.id })).toBe(1);
      await stop(worker);
    }, 60_000);

    it('answers 400 at submit for a structurally bad document, storing and enqueueing nothing', async () => {
      const { u, auth } = await submitter();
      const res = await t
        .http()
        .post('/api/v1/ir/direct-manual/import')
        .set(auth)
        .send({ meta: { game: 'not-a-game', playtype: 'Single', service: 'queue-test' }, scores: [] });
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/game/i);
      expect(await countRows(t, 'imports', { userID: u.user.id })).toBe(0);
      expect(await jobs.getJobCounts('waiting', 'active', 'delayed')).toEqual({ waiting: 0, active: 0, delayed: 0 });
    });

    it('fails an import whose stored input no longer passes the structural checks with its 400, at once and without retries', async () => {
      const { auth } = await submitter();
      const res = await t.http().post('/api/v1/ir/direct-manual/import').set(auth).send(document(1));
      const importID = res.body.importID as string;
      // As if the document were valid under an older rule: the worker re-checks the stored input.
      await setImportInput(t, importID, JSON.stringify({ meta: { game: 'sdvx', playtype: 'Single', service: 'queue-test' }, scores: 'none' }));
      const worker = await work();
      const done = await settled(t, importID);
      expect(done.status).toBe(400);
      expect(done.body.message).toMatch(/scores/);
      expect(await importRow(t, importID)).toMatchObject({ status: 'failed', input: null, failure: { statusCode: 400 } });
      await stop(worker);
    }, 60_000);

    (usingPostgres ? describe : describe.skip)(
      usingPostgres ? 'a worker killed mid-import' : 'a worker killed mid-import — skipped: needs TEST_DATABASE_URL (worker processes share the test database)',
      () => {
        const children = new Set<ChildProcess>();
        let admin: pg.Client;

        const spawnWorker = (env: NodeJS.ProcessEnv = {}) => {
          const child = runWorker({
            ...process.env,
            DATABASE_URL: t.databaseUrl,
            REDIS_URL: process.env.TEST_REDIS_URL,
            REDIS_KEY_PREFIX: t.keyPrefix,
            DATA_DIR: t.dataDir,
            // A dead worker's job is handed over after a few seconds rather than a minute.
            IMPORT_JOB_LOCK_MS: '2000',
            LOG_LEVEL: 'warn',
            ...env,
          });
          children.add(child);
          return child;
        };

        beforeAll(async () => {
          buildIfNeeded();
          admin = new pg.Client({ connectionString: t.databaseUrl });
          await admin.connect();
        }, 300_000);

        afterAll(async () => {
          for (const child of children) child.kill('SIGKILL');
          await admin?.end();
        });

        it('leaves nothing of the import behind, and another worker then completes it exactly once', async () => {
          const { u, auth } = await submitter();
          const n = 3000;

          // The import's transaction will wait at its last table (game stats) for this lock, after
          // writing its scores, sessions and PBs: the worker is killed exactly there.
          await lockProfilesTable(admin);
          const first = spawnWorker();
          const res = await t.http().post('/api/v1/ir/direct-manual/import').set(auth).send(document(n));
          expect(res.status).toBe(202);
          const importID = res.body.importID as string;

          await until(async () => {
            const poll = await t.http().get(`/api/v1/imports/${importID}/poll-status`);
            return (poll.body.progress?.description as string | undefined)?.startsWith(`Saving ${n} scores`) ?? false;
          });
          await until(() => waitingOnProfilesTable(admin));
          // The job's BullMQ progress says the same.
          await until(
            async () => ((await jobs.getJob(importID))?.progress as { description?: string } | undefined)?.description?.startsWith('Saving') ?? false,
          );

          first.kill('SIGKILL');
          await exited(first);
          await admin.query('ROLLBACK');
          // The dead worker's transaction ends (rolled back) once its server process finds the client gone.
          await until(async () => {
            const open = await admin.query(
              `SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND xact_start IS NOT NULL`,
            );
            return open.rowCount === 0;
          });

          const countFor = (table: 'scores' | 'pbs' | 'sessions' | 'profiles') => countRows(t, table, { userID: u.user.id });
          expect(await countFor('scores')).toBe(0);
          expect(await countFor('pbs')).toBe(0);
          expect(await countFor('sessions')).toBe(0);
          expect(await countFor('profiles')).toBe(0);
          const poll = await t.http().get(`/api/v1/imports/${importID}/poll-status`);
          expect(poll.body.importStatus).toBe('ongoing');

          const second = spawnWorker();
          const done = await settled(t, importID);
          expect(done.status).toBe(200);
          expect(done.body.importStatus).toBe('completed');
          const doc = done.body.import as ImportDocument;
          expect(doc.scoreIDs).toHaveLength(n);
          expect(doc.errors).toEqual([]);
          expect(doc.createdSessions).toEqual([{ sessionID: expect.any(String), type: 'Created' }]);

          expect(await countRows(t, 'scores', { userID: u.user.id, importID })).toBe(n);
          expect(await countFor('scores')).toBe(n);
          expect(await countFor('sessions')).toBe(1);
          expect(await countFor('pbs')).toBe(CHARTS.length);
          expect(await countFor('profiles')).toBe(1);
          expect(await countRows(t, 'imports', { userID: u.user.id })).toBe(1);
          // BullMQ removes the completed job just after the import's transaction commits (which the poll saw).
          await until(async () => (await jobs.getJob(importID)) === undefined);

          // SIGTERM stops a worker cleanly.
          second.kill('SIGTERM');
          expect(await exited(second)).toBe(0);
        }, 240_000);

        it('a worker stopped past SHUTDOWN_TIMEOUT_MS hands its running import back to the queue at once, and another completes it', async () => {
          const { auth } = await submitter();
          await lockProfilesTable(admin);
          // Its lock would last two minutes: only the hand-back can free the job within this test.
          const first = spawnWorker({ IMPORT_JOB_LOCK_MS: '120000', SHUTDOWN_TIMEOUT_MS: '500' });
          const res = await t.http().post('/api/v1/ir/direct-manual/import').set(auth).send(document(40));
          expect(res.status).toBe(202);
          const importID = res.body.importID as string;
          await until(() => waitingOnProfilesTable(admin));
          expect(await (await jobs.getJob(importID))?.getState()).toBe('active');

          first.kill('SIGTERM');
          expect(await exited(first)).toBe(1);
          expect(first.output()).toContain('1 running import(s) handed back to the queue');
          expect(await (await jobs.getJob(importID))?.getState()).toBe('waiting');
          await admin.query('ROLLBACK');

          const second = spawnWorker({ IMPORT_JOB_LOCK_MS: '120000' });
          const done = await settled(t, importID);
          expect(done.body.importStatus).toBe('completed');
          expect((done.body.import as ImportDocument).scoreIDs).toHaveLength(40);
          second.kill('SIGTERM');
          expect(await exited(second)).toBe(0);
        }, 120_000);
      },
    );
  },
);
