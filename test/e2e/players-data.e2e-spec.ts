import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Database } from '../../src/database/database.js';
import { personalBests, profileRatings, scores } from '../../src/database/schema.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { batchManual, HOUR, imported, loadFixtureCatalog, player, statsOf, T0, type Player } from '../support/imports.js';

const md5 = (s: string) => createHash('md5').update(s).digest('hex');

/** A user's scores, PBs and profile ratings without what depends on the user or the import. */
async function profileOf(database: Database, userID: number) {
  const scoreRows = await database.db.select().from(scores).where(eq(scores.userID, userID));
  const pbRows = await database.db.select().from(personalBests).where(eq(personalBests.userID, userID));
  const ratings = await database.db.select().from(profileRatings).where(eq(profileRatings.userID, userID));
  const byKey = <T>(rows: T[], key: (r: T) => string) => rows.sort((a, b) => key(a).localeCompare(key(b)));
  return {
    scores: byKey(
      scoreRows.map(({ chartID, scoreData, calculatedData, scoreMeta, timeAchieved, comment, isPrimary }) => ({
        chartID,
        scoreData,
        calculatedData,
        scoreMeta,
        timeAchieved,
        comment,
        isPrimary,
      })),
      (s) => `${s.chartID}|${s.timeAchieved}|${s.scoreData.score}`,
    ),
    pbs: byKey(
      pbRows.map(({ chartID, scoreData, calculatedData, timeAchieved, rank, outOf }) => ({ chartID, scoreData, calculatedData, timeAchieved, rank, outOf })),
      (p) => p.chartID,
    ),
    ratings: byKey(
      ratings.map(({ game, playtype, alg, value }) => ({ game, playtype, alg, value })),
      (r) => `${r.game}|${r.playtype}|${r.alg}`,
    ),
  };
}

describe("Players' data", () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
    await loadFixtureCatalog(t.database);
  });
  afterAll(async () => {
    await t.close();
  });

  describe('GET /users/:userID/games/:game/:playtype/export', () => {
    let fresh: TestApp;
    let p: Player;
    const documents: { game: string; playtype: string; elements: Record<string, unknown>[] }[] = [
      {
        game: 'sdvx',
        playtype: 'Single',
        elements: [
          { matchType: 'sdvxInGameID', identifier: '1001', difficulty: 'MXM', score: 9_000_000, lamp: 'EXCESSIVE CLEAR', timeAchieved: T0, optional: { exScore: 2900 } },
          { matchType: 'sdvxInGameID', identifier: '1001', difficulty: 'MXM', score: 9_100_000, lamp: 'CLEAR', timeAchieved: T0 + HOUR, comment: 'better' },
          { matchType: 'songTitle', identifier: 'Pipeline Anthem', difficulty: 'EXH', score: 9_500_000, lamp: 'CLEAR', timeAchieved: null },
        ],
      },
      {
        game: 'iidx',
        playtype: 'SP',
        elements: [{ matchType: 'inGameID', identifier: '30001', difficulty: 'ANOTHER', score: 1500, lamp: 'HARD CLEAR', timeAchieved: T0 + 2 * HOUR }],
      },
      {
        game: 'bms',
        playtype: '7K',
        elements: [{ matchType: 'bmsChartHash', identifier: md5('bms-alpha-7k'), score: 1200, lamp: 'CLEAR', timeAchieved: T0 + 3 * HOUR }],
      },
    ];

    beforeAll(async () => {
      fresh = await createTestApp();
      await loadFixtureCatalog(fresh.database);
      p = await player(t);
      for (const d of documents) {
        const doc = await imported(t, p.token, batchManual(d.game, d.playtype, d.elements));
        expect(doc.errors).toEqual([]);
      }
    });
    afterAll(async () => {
      await fresh.close();
    });

    it('answers a batch-manual download that re-imports on a fresh instance to the same scores, PBs and ratings', async () => {
      const importer = await player(fresh);
      for (const d of documents) {
        const res = await t.http().get(`/api/v1/users/${p.user.id}/games/${d.game}/${d.playtype}/export`);
        expect(res.status).toBe(200);
        expect(res.headers['content-type']).toMatch(/^application\/json/);
        expect(res.headers['content-disposition']).toBe(`attachment; filename="${p.username}-${d.game}-${d.playtype}.json"`);
        const exported = JSON.parse(res.text as string) as { meta: unknown; scores: unknown[] };
        expect(exported.meta).toEqual({ game: d.game, playtype: d.playtype, service: 'Export' });
        expect(exported.scores).toHaveLength(d.elements.length);
        const doc = await imported(fresh, importer.token, exported);
        expect(doc.errors).toEqual([]);
        expect(doc.scoreIDs).toHaveLength(d.elements.length);
        const [before, after] = [await statsOf(t.database, p.user.id, d.game, d.playtype), await statsOf(fresh.database, importer.user.id, d.game, d.playtype)];
        expect(after.classes).toEqual(before.classes);
      }
      const original = await profileOf(t.database, p.user.id);
      expect(original.scores).toHaveLength(5);
      expect(original.pbs).toHaveLength(4);
      expect(original.ratings.length).toBeGreaterThan(0);
      expect(await profileOf(fresh.database, importer.user.id)).toEqual(original);
    });

    it('404s an unplayed GPT, an unknown user and an unknown playtype', async () => {
      expect((await t.http().get(`/api/v1/users/${p.user.id}/games/jubeat/Single/export`)).status).toBe(404);
      expect((await t.http().get(`/api/v1/users/999999/games/sdvx/Single/export`)).status).toBe(404);
      expect((await t.http().get(`/api/v1/users/${p.user.id}/games/sdvx/Nope/export`)).status).toBe(404);
    });
  });
});
