import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CHART_RANKING_JOIN, rankedPbColumns } from '../../src/database/pb-rank.js';
import { BadRequestException, ConflictException, ForbiddenException, NotFoundException } from '@nestjs/common';
import { insertSongWithCharts, serviceTestConfig } from './support-db.js';
import { ScheduleModule } from '@nestjs/schedule';
import { Test, type TestingModule } from '@nestjs/testing';
import { and, eq } from 'drizzle-orm';
import type { Database } from '../../src/database/database.js';
import { DatabaseModule } from '../../src/database/database.module.js';
import { charts, EMPTY_SOCIALS, personalBests, scores, users } from '../../src/database/schema.js';
import { findGpt } from '../../src/game-support/registry.js';
import type { GptSupport } from '../../src/game-support/types.js';
import { GUEST, sessionAuth, type UserRow } from '../../src/http/auth/auth-context.js';
import { ScoresModule } from '../../src/scores/scores.module.js';
import { ScoresService } from '../../src/scores/scores.service.js';
import { ImportLockService } from '../../src/scoring/import-lock.service.js';
import { loadChartContexts, recomputePersonalBests } from '../../src/scoring/pbs/personal-bests.writer.js';
import { openTestDatabase } from '../support/app.js';

const T0 = Date.UTC(2024, 2, 1, 20);
const MIN = 60_000;

/*
 * ScoresService with its real repositories and scoring core on a fresh database; no HTTP. Each
 * test writes one sdvx song and chart, its players and their scores, then the PBs the core
 * derives from them. sdvx: percent = score / 100,000; grade boundaries 9.3M AA, 9.5M AA+, 9.7M
 * AAA, 9.8M AAA+; lamps FAILED, CLEAR, EXCESSIVE CLEAR (indexes 0, 1, 2). A PB is the best score
 * with the best lamp; ranks order PBs by percent, then score.
 */
describe('ScoresService (real repositories on a fresh database)', () => {
  let database: Database;
  let drop: () => Promise<void>;
  let moduleRef: TestingModule;
  let service: ScoresService;
  const gpt = findGpt('sdvx', 'Single') as GptSupport;
  let serial = 0;

  beforeAll(async () => {
    ({ database, drop } = await openTestDatabase());
    moduleRef = await Test.createTestingModule({
      imports: [ScheduleModule.forRoot(), serviceTestConfig(), DatabaseModule.forDatabase(database, { closeOnShutdown: false }), ScoresModule],
    }).compile();
    await moduleRef.init();
    service = moduleRef.get(ScoresService);
  });
  afterAll(async () => {
    await moduleRef.close();
    await drop();
  });

  async function user(authLevel = 1): Promise<UserRow> {
    serial += 1;
    const name = `svc_user_${serial}`;
    const [row] = await database.db
      .insert(users)
      .values({ username: name, usernameLowercase: name, about: '', status: null, socialMedia: EMPTY_SOCIALS, authLevel, joinDate: T0, lastSeen: T0 })
      .returning();
    return row;
  }

  /** A song with one EXH chart (level 16); returns the chart id. */
  async function chart(): Promise<string> {
    serial += 1;
    const chartID = `service-chart-${serial}`;
    await insertSongWithCharts(database.db, 'sdvx', 'Single', { id: serial, title: `Service Song ${serial}` }, [
      { chartID, difficulty: 'EXH', levelNum: 16, inGameID: serial },
    ]);
    return chartID;
  }

  /** Stores a score as an import would have (without session or import), then recomputes the owner's PB on the chart. */
  async function play(owner: UserRow, chartID: string, score: number, lamp: string, timeAchieved: number): Promise<string> {
    const scoreID = `S-service-${++serial}`;
    const [song] = await database.db.select({ songID: charts.songID }).from(charts).where(eq(charts.chartID, chartID));
    const lampIndex = gpt.lamps.indexOf(lamp);
    const gradeIndex = gpt.gradeBoundaries.findLastIndex((b) => score >= b);
    const percent = score / 100_000;
    await database.db.insert(scores).values({
      scoreID,
      userID: owner.id,
      game: 'sdvx',
      playtype: 'Single',
      chartID,
      songID: song.songID,
      isPrimary: true,
      score,
      percent,
      lampIndex,
      gradeIndex,
      scoreData: { score, percent, lamp, lampIndex, grade: gpt.grades[gradeIndex], gradeIndex, judgements: {}, optional: {} },
      calculatedData: {},
      timeAchieved,
      timeAdded: timeAchieved,
      service: 'service-test',
      importType: 'ir/direct-manual',
    });
    await database.transaction(async (tx) => recomputePersonalBests(tx, owner.id, gpt, await loadChartContexts(tx, [chartID])));
    return scoreID;
  }

  const pbOf = async (owner: UserRow, chartID: string) => {
    const [pb] = await database.db
      .select(rankedPbColumns)
      .from(personalBests)
      .leftJoin(...CHART_RANKING_JOIN)
      .where(and(eq(personalBests.userID, owner.id), eq(personalBests.chartID, chartID)));
    return (
      pb && {
        score: pb.score,
        lamp: pb.scoreData.lamp,
        grade: pb.scoreData.grade,
        composedFrom: pb.composedFrom,
        highlighted: pb.highlighted,
        rank: pb.rank,
        outOf: pb.outOf,
      }
    );
  };
  const scoreExists = async (scoreID: string) => (await database.db.select().from(scores).where(eq(scores.scoreID, scoreID))).length === 1;

  it('get returns the ScoreDocument, and its song and chart with getRelated', async () => {
    const [alice, chartID] = [await user(), await chart()];
    const id = await play(alice, chartID, 9_400_000, 'CLEAR', T0);

    const plain = await service.get(id, false);
    expect(plain).toEqual({
      score: expect.objectContaining({ scoreID: id, userID: alice.id, chartID, scoreData: expect.objectContaining({ score: 9_400_000, grade: 'AA' }) }),
    });

    const related = await service.get(id, true);
    expect(related.chart).toEqual(expect.objectContaining({ chartID, difficulty: 'EXH', levelNum: 16 }));
    expect(related.song).toEqual(expect.objectContaining({ title: expect.stringMatching(/^Service Song \d+$/), artist: 'Tester' }));
    await expect(service.get('S-missing', true)).rejects.toThrow(NotFoundException);
  });

  it("deleting a score recomputes the owner's PB from the remaining scores, and the chart's ranks", async () => {
    const [alice, bob, chartID] = [await user(), await user(), await chart()];
    const clear = await play(alice, chartID, 9_500_000, 'CLEAR', T0);
    const excessive = await play(alice, chartID, 9_000_000, 'EXCESSIVE CLEAR', T0 + MIN);
    const best = await play(alice, chartID, 9_800_000, 'FAILED', T0 + 2 * MIN);
    await play(bob, chartID, 9_600_000, 'CLEAR', T0);
    // Alice: best score 9.8M (AAA+) with the EXCESSIVE CLEAR lamp; she ranks above bob's 9.6M.
    expect(await pbOf(alice, chartID)).toEqual({
      score: 9_800_000,
      lamp: 'EXCESSIVE CLEAR',
      grade: 'AAA+',
      composedFrom: [
        { name: 'Best Score', scoreID: best },
        { name: 'Best Lamp', scoreID: excessive },
      ],
      highlighted: false,
      rank: 1,
      outOf: 2,
    });

    await service.delete(sessionAuth(alice), best);
    expect(await scoreExists(best)).toBe(false);
    // Left: 9.5M CLEAR and 9.0M EXCESSIVE CLEAR → 9.5M (AA+) with EXCESSIVE CLEAR, now below bob.
    expect(await pbOf(alice, chartID)).toEqual({
      score: 9_500_000,
      lamp: 'EXCESSIVE CLEAR',
      grade: 'AA+',
      composedFrom: [
        { name: 'Best Score', scoreID: clear },
        { name: 'Best Lamp', scoreID: excessive },
      ],
      highlighted: false,
      rank: 2,
      outOf: 2,
    });
    expect(await pbOf(bob, chartID)).toEqual(expect.objectContaining({ rank: 1, outOf: 2 }));

    await service.delete(sessionAuth(alice), excessive);
    expect(await pbOf(alice, chartID)).toEqual(
      expect.objectContaining({ score: 9_500_000, lamp: 'CLEAR', composedFrom: [{ name: 'Best Score', scoreID: clear }], rank: 2 }),
    );

    // The last score takes the PB with it; bob is alone on the chart.
    await service.delete(sessionAuth(alice), clear);
    expect(await pbOf(alice, chartID)).toBeUndefined();
    expect(await pbOf(bob, chartID)).toEqual(expect.objectContaining({ rank: 1, outOf: 1 }));
  });

  it("only the owner or an administrator deletes a score, and not while an import of the owner's runs", async () => {
    const [alice, bob, admin, chartID] = [await user(), await user(), await user(3), await chart()];
    const first = await play(alice, chartID, 9_100_000, 'CLEAR', T0);
    const second = await play(alice, chartID, 9_200_000, 'CLEAR', T0 + MIN);

    await expect(service.delete(sessionAuth(bob), first)).rejects.toThrow(ForbiddenException);
    await expect(service.delete(GUEST, first)).rejects.toThrow(ForbiddenException);
    expect(await scoreExists(first)).toBe(true);

    // While alice has an import running (her lock is held), nobody deletes her scores.
    await moduleRef.get(ImportLockService).withUserLock(alice.id, 'service-test-import', async () => {
      await expect(service.delete(sessionAuth(admin), second)).rejects.toThrow(ConflictException);
    });
    expect(await scoreExists(second)).toBe(true);

    await service.delete(sessionAuth(admin), second);
    expect(await scoreExists(second)).toBe(false);
    expect(await pbOf(alice, chartID)).toEqual(expect.objectContaining({ score: 9_100_000, composedFrom: [{ name: 'Best Score', scoreID: first }] }));
    await expect(service.delete(sessionAuth(admin), second)).rejects.toThrow(NotFoundException);
  });

  it('patch sets comment and highlight of your own score; the PB is highlighted only through a score it is composed from', async () => {
    const [alice, bob, chartID] = [await user(), await user(), await chart()];
    const low = await play(alice, chartID, 9_000_000, 'CLEAR', T0);
    const high = await play(alice, chartID, 9_700_000, 'CLEAR', T0 + MIN);

    await expect(service.patch(alice, high, {})).rejects.toThrow(BadRequestException);
    await expect(service.patch(bob, high, { comment: 'mine now' })).rejects.toThrow(ForbiddenException);
    await expect(service.patch(alice, 'S-missing', { comment: 'x' })).rejects.toThrow(NotFoundException);

    // The 9.0M play is no part of the PB (the 9.7M has the best score and an equal lamp).
    expect(await service.patch(alice, low, { comment: 'warm-up', highlight: true })).toEqual(
      expect.objectContaining({ scoreID: low, comment: 'warm-up', highlighted: true }),
    );
    expect(await pbOf(alice, chartID)).toEqual(expect.objectContaining({ composedFrom: [{ name: 'Best Score', scoreID: high }], highlighted: false }));

    expect(await service.patch(alice, high, { highlight: true })).toEqual(expect.objectContaining({ scoreID: high, comment: null, highlighted: true }));
    expect(await pbOf(alice, chartID)).toEqual(expect.objectContaining({ highlighted: true }));

    // A comment alone leaves the highlight and the PB as they are; null unsets the comment.
    await service.patch(alice, high, { comment: 'new best' });
    expect(await service.patch(alice, high, { comment: null })).toEqual(expect.objectContaining({ comment: null, highlighted: true }));
    await service.patch(alice, high, { highlight: false });
    expect(await pbOf(alice, chartID)).toEqual(expect.objectContaining({ highlighted: false }));
  });
});
