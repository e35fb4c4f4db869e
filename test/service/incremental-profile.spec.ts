import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Global, Module } from '@nestjs/common';
import { and, asc, eq, isNotNull } from 'drizzle-orm';
import { Database } from '../../src/database/database.js';
import { imports, personalBests, profileRatings, scores, sessions, userGameStats, users, EMPTY_SOCIALS } from '../../src/database/schema.js';
import { findGpt } from '../../src/game-support/registry.js';
import type { GptSupport } from '../../src/game-support/types.js';
import { directManual } from '../../src/imports/import-types/batch-manual/index.js';
import { InlineImportQueue } from '../../src/imports/import-queue.js';
import { ImportQueueModule } from '../../src/imports/import-queue.module.js';
import { ImportsModule } from '../../src/imports/imports.module.js';
import { PolledWebhookQueue } from '../../src/webhooks/webhook-queue.js';
import { WebhookQueueModule } from '../../src/webhooks/webhook-queue.module.js';
import { MailModule } from '../../src/mail/mail.module.js';
import { StorageModule } from '../../src/storage/storage.module.js';
import { SecretsModule } from '../../src/secrets/secrets.module.js';
import { EXTERNAL_LOGIN_SESSIONS } from '../../src/scoring/removal/account-removal.service.js';
import { ImportsService } from '../../src/imports/imports.service.js';
import { RevertService } from '../../src/imports/revert.service.js';
import { profileRatingsFromScratch } from '../../src/scoring/profiles/game-stats.writer.js';
import { ScoreRemovalService } from '../../src/scoring/removal/score-removal.service.js';
import { loadChartContexts } from '../../src/scoring/pbs/personal-bests.writer.js';
import { insertSongWithCharts, openServiceModule, type ServiceTestModule } from './support-db.js';

/*
 * The profile a player's imports build step by step (the ratings from the best values of
 * pb_ratings, appended sessions from their best values) against the same profile recomputed from
 * every PB and every session score, after each step of a random run of imports (score hooks and
 * ordinary imports), score deletions and import reverts. sdvx: the profile's VF6 is the sum of the
 * best 50 PB VF6 values, so with 70 charts the best 50 change as PBs come and go; the session's
 * ProfileVF6 is the mean of its best 10 VF6 values. Seeded, so a failure replays.
 */
/** What the processes' CoreModule provides beside the modules above: no login sessions outside the database. */
@Global()
@Module({ providers: [{ provide: EXTERNAL_LOGIN_SESSIONS, useValue: null }], exports: [EXTERNAL_LOGIN_SESSIONS] })
class NoExternalLoginSessions {}

const T0 = Date.UTC(2025, 0, 1, 18);
const MINUTE = 60_000;
const CHARTS = 70;
const STEPS = 60;

/** mulberry32: a small seeded generator, so that the run is the same every time. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('a profile built incrementally equals one recomputed from scratch (random imports, deletions and reverts)', () => {
  let service: ServiceTestModule;
  let database: Database;
  const gpt = findGpt('sdvx', 'Single') as GptSupport;

  beforeAll(async () => {
    service = await openServiceModule([
      ImportQueueModule.forQueue(new InlineImportQueue()),
      WebhookQueueModule.forQueue(new PolledWebhookQueue(false)),
      MailModule,
      StorageModule,
      SecretsModule,
      NoExternalLoginSessions,
      ImportsModule,
    ]);
    database = service.module.get(Database);
    for (let i = 1; i <= CHARTS; i++)
      await insertSongWithCharts(service.db, 'sdvx', 'Single', { id: i, title: `Incremental Song ${i}` }, [
        { chartID: `incremental-${i}`, difficulty: 'EXH', levelNum: 10 + (i % 11), inGameID: i },
      ]);
  }, 120_000);
  afterAll(async () => {
    await service?.close();
  });

  /** The stored profile of the user against the profile recomputed from scratch, and each touched session's ratings against its scores'. */
  async function expectProfileAsFromScratch(userID: number, step: string) {
    const [stats] = await service.db
      .select()
      .from(userGameStats)
      .where(and(eq(userGameStats.userID, userID), eq(userGameStats.game, 'sdvx'), eq(userGameStats.playtype, 'Single')));
    const scratch = await database.transaction((tx) => profileRatingsFromScratch(tx, userID, gpt));
    const hasScores = (await service.db.select({ id: scores.scoreID }).from(scores).where(eq(scores.userID, userID)).limit(1)).length > 0;
    if (!hasScores) {
      expect({ step, stats }).toEqual({ step, stats: undefined });
      return;
    }
    expect({ step, ratings: stats?.ratings }).toEqual({ step, ratings: scratch });
    const stored = await service.db
      .select({ alg: profileRatings.alg, value: profileRatings.value })
      .from(profileRatings)
      .where(eq(profileRatings.userID, userID))
      .orderBy(asc(profileRatings.alg));
    const numeric = Object.entries(scratch)
      .filter((e): e is [string, number] => typeof e[1] === 'number')
      .map(([alg, value]) => ({ alg, value }));
    expect({ step, stored }).toEqual({ step, stored: numeric });

    // Every session of the user: its stored ratings are those of all its scores.
    const rows = await service.db
      .select({ sessionID: scores.sessionID, scoreData: scores.scoreData, calculatedData: scores.calculatedData, chartID: scores.chartID })
      .from(scores)
      .where(and(eq(scores.userID, userID), isNotNull(scores.sessionID)));
    const contexts = await database.transaction((tx) => loadChartContexts(tx, [...new Set(rows.map((r) => r.chartID))]));
    const storedSessions = await service.db.select().from(sessions).where(eq(sessions.userID, userID));
    for (const session of storedSessions) {
      const mine = rows
        .filter((r) => r.sessionID === session.sessionID)
        .map((r) => ({ scoreData: r.scoreData, calculatedData: r.calculatedData, chart: contexts.get(r.chartID)!.chart, song: contexts.get(r.chartID)!.song }));
      const expected = Object.fromEntries(Object.entries(gpt.sessionRatingAlgs).map(([name, alg]) => [name, alg.calculate(mine)]));
      expect({ step, session: session.sessionID, ratings: session.calculatedData }).toEqual({ step, session: session.sessionID, ratings: expected });
    }
  }

  it('after every step of a seeded random run', async () => {
    const imports_ = service.module.get(ImportsService);
    const removal = service.module.get(ScoreRemovalService);
    const reverts = service.module.get(RevertService);
    const [player] = await service.db
      .insert(users)
      .values({
        username: 'incremental',
        usernameLowercase: 'incremental',
        about: '',
        status: null,
        socialMedia: EMPTY_SOCIALS,
        authLevel: 1,
        joinDate: T0,
        lastSeen: T0,
      })
      .returning();
    const rand = random(25);
    const pick = <T>(list: readonly T[]) => list[Math.floor(rand() * list.length)];
    let clock = T0;
    const counts = { imports: 0, hooks: 0, deletions: 0, reverts: 0 };

    for (let step = 0; step < STEPS; step++) {
      const roll = rand();
      const stored = await service.db.select({ scoreID: scores.scoreID }).from(scores).where(eq(scores.userID, player.id));
      const done = await service.db
        .select()
        .from(imports)
        .where(and(eq(imports.userID, player.id), eq(imports.status, 'completed')));
      if (roll < 0.15 && stored.length) {
        await removal.deleteScore(player.id, pick(stored).scoreID);
        counts.deletions++;
      } else if (roll < 0.25 && done.length) {
        await reverts.revertImport(pick(done));
        counts.reverts++;
      } else {
        // 1–8 scores; a long pause now and then starts a new session, otherwise the current one grows.
        clock += rand() < 0.2 ? 3 * 60 * MINUTE : 2 * MINUTE;
        const elements = Array.from({ length: 1 + Math.floor(rand() * 8) }, (_, i) => {
          const lamp = pick(['FAILED', 'CLEAR', 'EXCESSIVE CLEAR']);
          return {
            matchType: 'sdvxInGameID',
            identifier: String(1 + Math.floor(rand() * CHARTS)),
            difficulty: 'EXH',
            score: 8_000_000 + Math.floor(rand() * 1_900_000),
            lamp,
            timeAchieved: clock + i * MINUTE,
          };
        });
        const hook = rand() < 0.5;
        const result = await imports_.submit(
          player.id,
          directManual,
          { body: { meta: { game: 'sdvx', playtype: 'Single', service: 'incremental' }, scores: elements }, fields: {} },
          !hook,
          {
            inline: hook,
          },
        );
        expect(result.kind).toBe('completed');
        counts[hook ? 'hooks' : 'imports']++;
      }
      await expectProfileAsFromScratch(player.id, `step ${step}`);
    }
    // The run did each kind of step, and the profile has more PBs than the 50 its VF6 sums.
    expect(counts.hooks).toBeGreaterThan(5);
    expect(counts.imports).toBeGreaterThan(5);
    expect(counts.deletions).toBeGreaterThan(2);
    expect(counts.reverts).toBeGreaterThan(2);
    const pbs = await service.db.select({ chartID: personalBests.chartID }).from(personalBests).where(eq(personalBests.userID, player.id));
    expect(pbs.length).toBeGreaterThan(50);
  }, 300_000);
});
