import { afterAll, afterEach, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { Logger, type INestApplication } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import request from 'supertest';
import { createApp } from '../../src/app.factory.js';
import { loadConfig } from '../../src/config/app-config.js';
import { Database, embeddedDbDir } from '../../src/database/database.js';
import { InlineImportQueue } from '../../src/imports/import-queue.js';
import { DAILY_SNAPSHOT_JOB, SNAPSHOT_CHECK_JOB, SnapshotScheduler } from '../../src/ugpt/snapshot.scheduler.js';
import { SNAPSHOT_LOCK } from '../../src/repositories/snapshots.repository.js';
import { SnapshotsService, utcMidnight, type SnapshotResult } from '../../src/ugpt/snapshots.service.js';
import { buildIfNeeded, ROOT, runCli } from '../support/cli.js';
import { createTestApp, openTestDatabase, usingPostgres, type TestApp } from '../support/app.js';
import { allowUnrankedSnapshots, runStatements, setSnapshotRanking, storeSnapshots, storeUser } from '../support/db-fixtures.js';
import { batchManual, loadFixtureCatalog, type ScoreElement } from '../support/imports.js';
import { importSdvx, loadScoreFixtures, sdvxScore, SCORE_FIXTURES } from '../support/score-fixtures.js';
import { countRows, storedSnapshots } from '../support/stored.js';
import { signUp, type SignedUpUser } from '../support/users.js';
import { SeedLoader } from '../../src/seeds/seed-loader.js';
import { SeedSource } from '../../src/seeds/seed-source.js';
import { migratedDataDir } from '../support/template-db.js';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
const DAY1 = Date.UTC(2024, 5, 1);
const DAY2 = DAY1 + DAY;
const PUC = 'PERFECT ULTIMATE CHAIN';

interface Snapshot {
  classes: Record<string, string>;
  ratings: Record<string, number | null>;
  timestamp: number;
  playcount: number;
  ranking: number;
}

/** Another instance of the API on a database: the scheduler on, so it starts a catch-up at boot (await its SnapshotScheduler's catchUp). */
async function startInstance(database: Database): Promise<INestApplication> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'st-snapshot-instance-'));
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', AUTH_RATE_LIMIT_FACTOR: '0', RATE_LIMIT_PER_MINUTE: '0', SNAPSHOT_SCHEDULE: 'true' });
  const app = await createApp({
    config,
    database,
    ownsDatabase: false,
    redis: null,
    keyPrefix: `st-snapshot-${path.basename(dataDir)}`,
    importQueue: new InlineImportQueue(),
  });
  await app.init();
  return app;
}

/** An iidx SP score on the import-pipeline fixture chart (ANOTHER, level 11, 1000 notes). */
function iidxScore(lamp: string, score: number, timeAchieved: number) {
  return { matchType: 'inGameID', identifier: '30001', difficulty: 'ANOTHER', score, lamp, timeAchieved };
}

async function importIidx(u: SignedUpUser, elements: ScoreElement[]) {
  const res = await u.agent.post('/api/v1/ir/direct-manual/import').send(batchManual('iidx', 'SP', elements));
  if (res.status !== 200 || res.body.errors.length) throw new Error(`iidx import failed: ${res.status} ${JSON.stringify(res.body)}`);
}

/*
 * Ranks follow the live rule: 1 + the players strictly better; a player without a rating comes
 * after every rated one (1 + the rated players).
 * sdvx (PUC VF6: level 14 → 0.323, 16 → 0.369, 18 → 0.415):
 *   a: PUCs on 1-EXH and 2-EXH (0.323 + 0.346 = 0.669) and a lesser 1-EXH play: 3 scores;
 *   b and c: PUCs on 3-EXH and 1-EXH (0.692 each, tied): 2 scores;
 *   d: one score (with a provided dan, which keeps the profile), deleted: no rating, 0 scores.
 *   Ranks: b 1, c 1, a 3, d 4 (unrated: 1 + 3 rated); outOf 4.
 * iidx SP (ktLampRating: CLEAR and HARD CLEAR on the level 11 chart earn 11, FAILED 0; the profile
 * is the best 20 averaged over 20; BPI needs chart data the fixture lacks, so it is null):
 *   a: HARD CLEAR → 0.55; x: CLEAR → 0.55; y: FAILED → 0. Ranks: a 1, x 1, y 3; outOf 3.
 *   BPI: nobody is rated, so all rank 1 (1 + 0 rated).
 */
describe('daily snapshots', () => {
  let t: TestApp;
  let snapshots: SnapshotsService;
  let a: SignedUpUser, b: SignedUpUser, c: SignedUpUser, d: SignedUpUser, x: SignedUpUser, y: SignedUpUser;
  let e: SignedUpUser;
  let newcomer: SignedUpUser;

  const history = async (u: SignedUpUser, game = 'sdvx', playtype = 'Single') => {
    const res = await t.http().get(`/api/v1/users/${u.user.id}/games/${game}/${playtype}/history`);
    expect(res.status).toBe(200);
    return res.body as Snapshot[];
  };
  /** Every profile's snapshot of the day, by game and user (with `rankings`, which the history route leaves out). */
  const rowsAt = (timestamp: number) => storedSnapshots(t, { timestamp });
  const rowOf = async (u: SignedUpUser, timestamp: number, game = 'sdvx') => (await storedSnapshots(t, { userID: u.user.id, game, timestamp }))[0];

  beforeAll(async () => {
    t = await createTestApp();
    snapshots = t.app.get(SnapshotsService);
    await loadScoreFixtures(t);
    await loadFixtureCatalog(t.database, 'catalog', ['iidx']);
    [a, b, c, d, x, y, e, newcomer] = await Promise.all(Array.from({ length: 8 }, () => signUp(t)));
    const t0 = DAY1 - 30 * DAY;
    await importSdvx(a.agent, [
      sdvxScore(1, 'EXH', 9_000_000, 'CLEAR', t0),
      sdvxScore(1, 'EXH', 10_000_000, PUC, t0 + 60_000),
      sdvxScore(2, 'EXH', 10_000_000, PUC, t0 + 120_000),
    ]);
    for (const u of [b, c]) await importSdvx(u.agent, [sdvxScore(3, 'EXH', 10_000_000, PUC, t0), sdvxScore(1, 'EXH', 10_000_000, PUC, t0 + 60_000)]);
    const doomed = await importSdvx(d.agent, [sdvxScore(2, 'EXH', 9_000_000, 'CLEAR', t0)], { classes: { dan: 'DAN_1' } });
    expect((await d.agent.delete(`/api/v1/scores/${doomed.scoreIDs[0]}`)).status).toBe(200);
    await importIidx(a, [iidxScore('HARD CLEAR', 1500, t0)]);
    await importIidx(x, [iidxScore('CLEAR', 1400, t0)]);
    await importIidx(y, [iidxScore('FAILED', 600, t0)]);
  }, 120_000);
  afterAll(async () => {
    await t.close();
  });

  describe('the job (SnapshotsService.take)', () => {
    it('writes one row per profile, all in one go, with hand-checked rankings and playcounts', async () => {
      const result = await snapshots.take(DAY1 + 5 * 60 * 60 * 1000);
      expect(result).toEqual({ timestamp: DAY1, taken: true, written: 7 });
      const rows = await rowsAt(DAY1);
      expect(rows).toHaveLength(7);

      const sdvx = (u: SignedUpUser) => rows.find((r) => r.userID === u.user.id && r.game === 'sdvx')!;
      const iidx = (u: SignedUpUser) => rows.find((r) => r.userID === u.user.id && r.game === 'iidx')!;
      expect(sdvx(a)).toMatchObject({
        playtype: 'Single',
        playcount: 3,
        ranking: 3,
        rankings: { VF6: { ranking: 3, outOf: 4 } },
        classes: { vfClass: 'SIENNA_I' },
      });
      expect(sdvx(a).ratings.VF6).toBeCloseTo(0.669, 10);
      for (const u of [b, c]) {
        expect(sdvx(u)).toMatchObject({ playcount: 2, ranking: 1, rankings: { VF6: { ranking: 1, outOf: 4 } } });
        expect(sdvx(u).ratings.VF6).toBeCloseTo(0.692, 10);
      }
      expect(sdvx(d)).toMatchObject({ playcount: 0, ranking: 4, rankings: { VF6: { ranking: 4, outOf: 4 } }, ratings: { VF6: null } });
      expect(iidx(a)).toMatchObject({
        playtype: 'SP',
        playcount: 1,
        ranking: 1,
        rankings: { ktLampRating: { ranking: 1, outOf: 3 }, BPI: { ranking: 1, outOf: 3 } },
        ratings: { ktLampRating: 0.55, BPI: null },
      });
      expect(iidx(x)).toMatchObject({
        playcount: 1,
        ranking: 1,
        rankings: { ktLampRating: { ranking: 1, outOf: 3 }, BPI: { ranking: 1, outOf: 3 } },
        ratings: { ktLampRating: 0.55, BPI: null },
      });
      expect(iidx(y)).toMatchObject({
        playcount: 1,
        ranking: 3,
        rankings: { ktLampRating: { ranking: 3, outOf: 3 }, BPI: { ranking: 1, outOf: 3 } },
        ratings: { ktLampRating: 0, BPI: null },
      });
      for (const row of rows) expect(Object.keys(row.rankings).sort()).toEqual(Object.keys(row.ratings).sort());

      // Ratings and classes are the profile's as it stood.
      const live = (await t.http().get(`/api/v1/users/${a.user.id}/game-stats`)).body as { game: string; ratings: unknown; classes: unknown }[];
      for (const g of live) expect(rows.find((r) => r.userID === a.user.id && r.game === g.game)).toMatchObject({ ratings: g.ratings, classes: g.classes });
    });

    it('is idempotent: a second run that day writes nothing and keeps the rows', async () => {
      const before = await rowsAt(DAY1);
      // a's profile moves on (a PUC on 7-EXH, level 18: 0.415): the day's row stays as it was taken.
      await importSdvx(a.agent, [sdvxScore(7, 'EXH', 10_000_000, PUC, DAY1 + 60_000)]);
      expect(await snapshots.take(DAY1 + DAY - 1)).toEqual({ timestamp: DAY1, taken: true, written: 0 });
      expect(await rowsAt(DAY1)).toEqual(before);
    });

    it('takes the next day with the new standings', async () => {
      await importSdvx(e.agent, [sdvxScore(1, 'EXH', 10_000_000, PUC, DAY1 + 60_000)]);
      expect(await snapshots.take(DAY2)).toEqual({ timestamp: DAY2, taken: true, written: 8 });
      // a: 0.669 + 0.415 = 1.084 is now first; b and c second; e (0.323) fourth; d (unrated) fifth; outOf 5.
      expect(await rowOf(a, DAY2)).toMatchObject({ playcount: 4, ranking: 1, rankings: { VF6: { ranking: 1, outOf: 5 } } });
      expect((await rowOf(a, DAY2)).ratings.VF6).toBeCloseTo(1.084, 10);
      expect(await rowOf(b, DAY2)).toMatchObject({ ranking: 2, rankings: { VF6: { ranking: 2, outOf: 5 } } });
      expect(await rowOf(c, DAY2)).toMatchObject({ ranking: 2 });
      expect(await rowOf(e, DAY2)).toMatchObject({ playcount: 1, ranking: 4, rankings: { VF6: { ranking: 4, outOf: 5 } } });
      expect(await rowOf(d, DAY2)).toMatchObject({ ranking: 5, rankings: { VF6: { ranking: 5, outOf: 5 } } });
      expect(await rowOf(e, DAY1)).toBeUndefined();
    });

    it('ranks every profile as the live rankingData does, the unrated and ties included', async () => {
      // Nothing changed since DAY2 was taken: each row's rankings are the player's live ones.
      for (const u of [a, b, c, d, e, x, y]) {
        const live = (await t.http().get(`/api/v1/users/${u.user.id}/game-stats`)).body as { game: string; __rankingData: Record<string, unknown> }[];
        expect(live.length).toBeGreaterThan(0);
        for (const g of live) expect((await rowOf(u, DAY2, g.game)).rankings).toEqual(g.__rankingData);
      }
    });
  });

  describe('GET /history', () => {
    it('returns the snapshots newest first, as UserGameStatsSnapshots', async () => {
      const list = await history(a);
      expect(list.map((s) => s.timestamp)).toEqual([DAY2, DAY1]);
      expect(Object.keys(list[0]).sort()).toEqual(['classes', 'playcount', 'ranking', 'ratings', 'timestamp']);
      expect(list.map((s) => [s.playcount, s.ranking])).toEqual([
        [4, 1],
        [3, 3],
      ]);
      expect((await history(a, 'iidx', 'SP')).map((s) => [s.timestamp, s.ranking, s.playcount])).toEqual([
        [DAY2, 1, 1],
        [DAY1, 1, 1],
      ]);
      expect((await history(d)).map((s) => s.ranking)).toEqual([5, 4]);
    });

    it('holds at most 90, the newest', async () => {
      for (let day = 2; day < 95; day++) await snapshots.take(DAY1 + day * DAY);
      const list = await history(b);
      expect(list).toHaveLength(90);
      expect(list[0].timestamp).toBe(DAY1 + 94 * DAY);
      expect(list[89].timestamp).toBe(DAY1 + 5 * DAY);
      expect(list.map((s) => s.timestamp)).toEqual([...list.map((s) => s.timestamp)].sort((p, q) => q - p));
    });

    it('is empty for a new player, and 404s one who has not played the GPT', async () => {
      const late = await signUp(t);
      await importSdvx(late.agent, [sdvxScore(2, 'EXH', 9_000_000, 'CLEAR', DAY1)]);
      expect(await history(late)).toEqual([]);
      expect((await t.http().get(`/api/v1/users/${newcomer.user.id}/games/sdvx/Single/history`)).status).toBe(404);
      expect((await t.http().get(`/api/v1/users/${x.user.id}/games/sdvx/Single/history`)).status).toBe(404);
    });
  });

  describe('the schedule', () => {
    afterEach(() => {
      jest.restoreAllMocks();
    });

    /** Runs fn against another instance with the schedule on (PGlite admits one process, so it shares this database; on PostgreSQL it has its own pool). */
    async function withInstance(fn: (app: INestApplication) => Promise<void>) {
      const database = usingPostgres ? await Database.open({ url: t.databaseUrl, poolSize: 2 }) : t.database;
      try {
        const app = await startInstance(database);
        try {
          await fn(app);
        } finally {
          await app.close();
        }
      } finally {
        if (usingPostgres) await database.close();
      }
    }

    it("catches up today's snapshot after boot when it is missing, and only then", async () => {
      const before = utcMidnight(Date.now());
      const sinceToday = () => storedSnapshots(t, {}, { since: before });
      expect(await sinceToday()).toEqual([]);
      // Every profile: those of DAY2 and the player who started after the job's days.
      const profiles = (await rowsAt(DAY2)).length + 1;
      await withInstance((app) => app.get(SnapshotScheduler).catchUp);
      const rows = await sinceToday();
      expect(rows).toHaveLength(profiles);
      const [timestamp] = new Set(rows.map((r) => r.timestamp));
      expect([before, utcMidnight(Date.now())]).toContain(timestamp);

      // Today's exists now: a later boot adds nothing, not even for a player who started since.
      const latecomer = await signUp(t);
      await importSdvx(latecomer.agent, [sdvxScore(3, 'EXH', 9_000_000, 'CLEAR', DAY1)]);
      await withInstance((app) => app.get(SnapshotScheduler).catchUp);
      expect(await sinceToday()).toHaveLength(profiles);
      expect(await rowOf(latecomer, timestamp)).toBeUndefined();
    });

    it('does not hold up the start: the API answers while the catch-up runs', async () => {
      let finish: (result: SnapshotResult) => void = () => undefined;
      jest.spyOn(SnapshotsService.prototype, 'exists').mockResolvedValue(false);
      const take = jest.spyOn(SnapshotsService.prototype, 'take').mockImplementation(() => new Promise((resolve) => (finish = resolve)));
      const database = usingPostgres ? await Database.open({ url: t.databaseUrl, poolSize: 2 }) : t.database;
      try {
        let timer: NodeJS.Timeout | undefined;
        const started = startInstance(database);
        const app = await Promise.race([
          started,
          new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('the start waited for the catch-up snapshot')), 10_000))),
        ]).finally(() => {
          clearTimeout(timer);
          finish({ timestamp: 0, taken: true, written: 0 });
        });
        try {
          expect(take).toHaveBeenCalledTimes(1);
          const status = await request(app.getHttpServer() as Parameters<typeof request>[0]).get('/api/v1/status');
          expect(status.status).toBe(200);
        } finally {
          await app.get(SnapshotScheduler).catchUp;
          await app.close();
        }
      } finally {
        if (usingPostgres) await database.close();
      }
    });

    it('logs a failed catch-up without stopping the app', async () => {
      jest.spyOn(SnapshotsService.prototype, 'exists').mockResolvedValue(false);
      jest.spyOn(SnapshotsService.prototype, 'take').mockRejectedValue(new Error('database went away'));
      const errors = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
      await withInstance(async (app) => {
        await expect(app.get(SnapshotScheduler).catchUp).resolves.toBeUndefined();
        expect(errors).toHaveBeenCalledWith('The catch-up snapshot failed: database went away');
        expect((await request(app.getHttpServer() as Parameters<typeof request>[0]).get('/api/v1/status')).status).toBe(200);
      });
    });

    it('registers the daily job at 00:00 UTC and the hourly check at five past', async () => {
      jest.spyOn(SnapshotsService.prototype, 'exists').mockResolvedValue(true);
      await withInstance(async (app) => {
        await app.get(SnapshotScheduler).catchUp;
        const registry = app.get(SchedulerRegistry);
        const now = Date.now();
        const daily = registry
          .getCronJob(DAILY_SNAPSHOT_JOB)
          .nextDates(2)
          .map((d) => d.toMillis());
        expect(daily[0]).toBe(utcMidnight(now) + DAY);
        expect(daily[1]).toBe(utcMidnight(now) + 2 * DAY);
        const hourly = registry
          .getCronJob(SNAPSHOT_CHECK_JOB)
          .nextDates(3)
          .map((d) => d.toMillis());
        expect(hourly[0]).toBeGreaterThan(now);
        expect(hourly[0] - now).toBeLessThanOrEqual(HOUR);
        for (const at of hourly) expect(at % HOUR).toBe(5 * 60 * 1000);
        expect(hourly[1] - hourly[0]).toBe(HOUR);
      });
      // With SNAPSHOT_SCHEDULE off (as here) neither job exists.
      const registry = t.app.get(SchedulerRegistry);
      expect(registry.doesExist('cron', DAILY_SNAPSHOT_JOB)).toBe(false);
      expect(registry.doesExist('cron', SNAPSHOT_CHECK_JOB)).toBe(false);
    });

    it("retries a failed midnight run at the next hourly check, which then leaves the day's snapshot alone", async () => {
      const day = utcMidnight(Date.now()) + 30 * DAY;
      const profiles = await countRows(t, 'profiles');
      await withInstance(async (app) => {
        const scheduler = app.get(SnapshotScheduler);
        await scheduler.catchUp;
        const errors = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
        const now = jest.spyOn(Date, 'now').mockReturnValue(day + 5 * 60 * 1000);
        jest.spyOn(SnapshotsService.prototype, 'take').mockRejectedValueOnce(new Error('connection reset'));
        await scheduler.daily();
        expect(errors).toHaveBeenCalledWith('The daily snapshot failed: connection reset');
        expect(await rowsAt(day)).toEqual([]);

        now.mockReturnValue(day + HOUR + 5 * 60 * 1000);
        await scheduler.hourly();
        const rows = await rowsAt(day);
        expect(rows).toHaveLength(profiles);
        await scheduler.hourly();
        expect(await rowsAt(day)).toEqual(rows);
      });
    });

    it('does not run under tests unless SNAPSHOT_SCHEDULE is on', async () => {
      expect(t.config.SNAPSHOT_SCHEDULE).toBe(false);
      expect(loadConfig({}).SNAPSHOT_SCHEDULE).toBe(true);
      expect(loadConfig({ SNAPSHOT_SCHEDULE: 'false' }).SNAPSHOT_SCHEDULE).toBe(false);
      expect(() => loadConfig({ SNAPSHOT_SCHEDULE: 'sometimes' })).toThrow(/SNAPSHOT_SCHEDULE/);
    });
  });

  // PGlite is one process's database: two instances cannot share one, so this needs TEST_DATABASE_URL.
  (usingPostgres ? describe : describe.skip)('two instances on one PostgreSQL database (TEST_DATABASE_URL only)', () => {
    let other: Database;
    let second: INestApplication;
    const DAY3 = DAY1 + 200 * DAY;

    beforeAll(async () => {
      other = await Database.open({ url: t.databaseUrl, poolSize: 3 });
      second = await startInstance(other);
      // Today's snapshot exists already: its catch-up finds it and writes nothing.
      await second.get(SnapshotScheduler).catchUp;
    });
    afterAll(async () => {
      await second.close();
      await other.close();
    });

    it('skips while another instance holds the snapshot lock', async () => {
      const holder = new pg.Client({ connectionString: t.databaseUrl });
      await holder.connect();
      try {
        await holder.query('BEGIN');
        await holder.query('SELECT pg_advisory_xact_lock($1, $2)', [...SNAPSHOT_LOCK]);
        expect(await second.get(SnapshotsService).take(DAY3)).toEqual({ timestamp: DAY3, taken: false, written: 0 });
        expect(await rowsAt(DAY3)).toEqual([]);
        await holder.query('COMMIT');
      } finally {
        await holder.end();
      }
      const profiles = (await rowsAt(DAY2)).length + 2;
      expect(await second.get(SnapshotsService).take(DAY3)).toEqual({ timestamp: DAY3, taken: true, written: profiles });
    });

    it('takes each day once when both run it at the same time', async () => {
      const day = DAY3 + DAY;
      const results = await Promise.all([snapshots.take(day), second.get(SnapshotsService).take(day)]);
      const rows = await rowsAt(day);
      expect(rows.length).toBe((await rowsAt(DAY3)).length);
      // One writes every row; the other found the lock taken, or took it afterwards and found nothing left.
      expect(results.map((r) => r.written).sort((p, q) => p - q)).toEqual([0, rows.length]);
      expect(new Set(rows.map((r) => `${r.userID}:${r.game}:${r.playtype}`)).size).toBe(rows.length);
    });
  });
});

/** The backfill of migration 0009, on rows as the job wrote them before it (unrated profiles unranked). */
describe('migration 0009_snapshot_ranking_untimed_scores', () => {
  it('ranks each unrated profile 1 + the rated players of its GPT and day, fills in the missing algorithms, and makes ranking NOT NULL', async () => {
    const { database, drop } = await openTestDatabase();
    try {
      await allowUnrankedSnapshots(database);
      const ids: number[] = [];
      for (const i of [1, 2, 3, 4]) ids.push(await storeUser(database, `mig_${i}`));
      const row = (
        user: number,
        game: string,
        playtype: string,
        timestamp: number,
        ratings: Record<string, number | null>,
        ranking: number | null,
        rankings: Record<string, { ranking: number; outOf: number }>,
      ) => ({ userID: ids[user], game, playtype, timestamp, classes: {}, ratings, playcount: 1, ranking, rankings });
      await storeSnapshots(database, [
        // DAY1 sdvx: two tied rated players, two unrated; outOf 4.
        row(0, 'sdvx', 'Single', DAY1, { VF6: 1 }, 1, { VF6: { ranking: 1, outOf: 4 } }),
        row(1, 'sdvx', 'Single', DAY1, { VF6: 1 }, 1, { VF6: { ranking: 1, outOf: 4 } }),
        row(2, 'sdvx', 'Single', DAY1, { VF6: null }, null, {}),
        row(3, 'sdvx', 'Single', DAY1, { VF6: null }, null, {}),
        // DAY1 iidx: one rated under ktLampRating, nobody under BPI; outOf 2.
        row(0, 'iidx', 'SP', DAY1, { ktLampRating: 0.5, BPI: null }, 1, { ktLampRating: { ranking: 1, outOf: 2 } }),
        row(1, 'iidx', 'SP', DAY1, { ktLampRating: null, BPI: null }, null, {}),
        // DAY2 sdvx: one player, unrated, and no stored outOf to go by.
        row(2, 'sdvx', 'Single', DAY2, { VF6: null }, null, {}),
      ]);

      const migration = fs.readFileSync(path.join(ROOT, 'drizzle', '0009_snapshot_ranking_untimed_scores.sql'), 'utf8');
      // The index exists already in this migrated database; the backfill and the constraint run again.
      await runStatements(
        database,
        migration.split('--> statement-breakpoint').filter((st) => !st.includes('CREATE INDEX')),
      );

      const rows = await storedSnapshots(database);
      expect(rows.map((r) => [ids.indexOf(r.userID), r.game, r.timestamp, r.ranking, r.rankings])).toEqual([
        [0, 'iidx', DAY1, 1, { ktLampRating: { ranking: 1, outOf: 2 }, BPI: { ranking: 1, outOf: 2 } }],
        [1, 'iidx', DAY1, 2, { ktLampRating: { ranking: 2, outOf: 2 }, BPI: { ranking: 1, outOf: 2 } }],
        [0, 'sdvx', DAY1, 1, { VF6: { ranking: 1, outOf: 4 } }],
        [1, 'sdvx', DAY1, 1, { VF6: { ranking: 1, outOf: 4 } }],
        [2, 'sdvx', DAY1, 3, { VF6: { ranking: 3, outOf: 4 } }],
        [3, 'sdvx', DAY1, 3, { VF6: { ranking: 3, outOf: 4 } }],
        [2, 'sdvx', DAY2, 1, { VF6: { ranking: 1, outOf: 1 } }],
      ]);
      const failure = await setSnapshotRanking(database, ids[0], null).then(
        () => undefined,
        (err: unknown) => err as Error & { cause?: Error },
      );
      expect(failure?.cause?.message ?? failure?.message).toMatch(/null value/);
    } finally {
      await drop();
    }
  });
});

/**
 * `npm run cli -- snapshot`, run as `npm run cli` runs it (dist/cli.js), on its own database: an
 * embedded one in a temporary DATA_DIR (closed while the CLI runs), or a fresh PostgreSQL database.
 */
describe('npm run cli -- snapshot', () => {
  let dataDir: string;
  let database: Database;
  let databaseUrl: string | undefined;
  let drop: () => Promise<void>;
  const userIDs: number[] = [];

  const cli = (args: string[]) => runCli(args, { dataDir, databaseUrl });

  const openDatabase = () => (databaseUrl ? Database.open({ url: databaseUrl, poolSize: 2 }) : Database.open({ dataDir: embeddedDbDir(dataDir) }));

  beforeAll(async () => {
    buildIfNeeded();
    dataDir = await migratedDataDir('st-snapshot-cli-');
    if (usingPostgres) {
      ({ database, url: databaseUrl, drop } = await openTestDatabase());
    } else {
      database = await openDatabase();
      await database.migrate();
      drop = async () => undefined;
    }
    // Two players, through the real API, then the app stops (the embedded database admits one process).
    const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', AUTH_RATE_LIMIT_FACTOR: '0', RATE_LIMIT_PER_MINUTE: '0', SNAPSHOT_SCHEDULE: 'false' });
    const app = await createApp({
      config,
      database,
      ownsDatabase: !usingPostgres,
      redis: null,
      keyPrefix: 'st-snapshot-cli',
      importQueue: new InlineImportQueue(),
    });
    try {
      await app.init();
      const report = await new SeedLoader(database).load(new SeedSource(SCORE_FIXTURES), { games: ['sdvx'] });
      expect(report.rejected).toEqual([]);
      for (const [i, scores] of [
        [sdvxScore(1, 'EXH', 10_000_000, PUC, DAY1)],
        [sdvxScore(1, 'EXH', 9_000_000, 'CLEAR', DAY1), sdvxScore(2, 'EXH', 9_000_000, 'CLEAR', DAY1 + 60_000)],
      ].entries()) {
        const agent = request.agent(app.getHttpServer() as Parameters<typeof request>[0]);
        const reg = await agent
          .post('/api/v1/auth/register')
          .send({ username: `cli_player_${i}`, '!password': 'cli-player-password', email: `cli${i}@example.test`, captcha: 'x' });
        expect(reg.status).toBe(200);
        userIDs.push(reg.body.id);
        await importSdvx(agent, scores);
      }
    } finally {
      await app.close();
    }
  }, 300_000);
  afterAll(async () => {
    await drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("takes today's snapshot, says how many it wrote, and writes nothing the second time", async () => {
    const before = utcMidnight(Date.now());
    const run = await cli(['snapshot']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const line = /^Snapshot of (\d{4}-\d{2}-\d{2}) \(00:00 UTC\): 2 written\.$/m.exec(run.stdout);
    expect(line).not.toBeNull();
    const timestamp = Date.parse(`${line![1]}T00:00:00Z`);
    expect([before, utcMidnight(Date.now())]).toContain(timestamp);

    const again = await cli(['snapshot']);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`Snapshot of ${line![1]} (00:00 UTC): 0 written.`);

    const check = await openDatabase();
    try {
      const rows = (await storedSnapshots(check)).sort((x, y) => x.userID - y.userID);
      // The PUC on 1-EXH is 0.323; the A+ CLEARs of 9,000,000 are 28 × 0.9 × 91 × 100 / 1e6 = 0.229 and
      // 30 × 0.9 × 91 × 100 / 1e6 = 0.245, 0.474 in all: the second player ranks first.
      expect(rows.map((r) => [r.userID, r.timestamp, r.playcount, r.ranking])).toEqual([
        [userIDs[0], timestamp, 1, 2],
        [userIDs[1], timestamp, 2, 1],
      ]);
    } finally {
      await check.close();
    }
  }, 120_000);
});
