import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import path from 'node:path';
import { SeedLoader } from '../../src/seeds/seed-loader.js';
import { SeedSource } from '../../src/seeds/seed-source.js';
import { gamesWithCatalogChanges, OrphansService } from '../../src/imports/orphans.service.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { holdImportLock } from '../support/db-fixtures.js';
import { quickPlayer, type QuickPlayer } from '../support/leaderboard-fixtures.js';
import { loadScoreFixtures, SCORE_FIXTURES } from '../support/score-fixtures.js';
import { storedOrphans, storedScores } from '../support/stored.js';
import { bearer } from '../support/users.js';

const T0 = Date.UTC(2024, 8, 1, 18);

/**
 * What `npm run cli -- seeds` retries after a load (the CLI runs exactly these two calls): the
 * orphans of the games whose songs or charts changed, and only those, skipping and counting the
 * users busy with an import.
 */
describe('orphan retry after a seed load', () => {
  let t: TestApp;
  let ann: QuickPlayer;
  let ben: QuickPlayer;

  /** Matched by a title that no sdvx song has yet. */
  const renamed = { score: 9_500_000, lamp: 'CLEAR', matchType: 'songTitle', identifier: 'Fixture Alpha Remastered', difficulty: 'MXM', timeAchieved: T0 };
  const unknownIidx = { score: 1500, lamp: 'CLEAR', matchType: 'inGameID', identifier: '99999', difficulty: 'ANOTHER', timeAchieved: T0 };

  const send = async (p: QuickPlayer, game: string, playtype: string, element: object) => {
    const res = await t
      .http()
      .post('/api/v1/ir/direct-manual/import')
      .set(bearer(p.token))
      .send({ meta: { game, playtype, service: 'seed-retry' }, scores: [element] });
    expect(res.status).toBe(200);
    expect(res.body.errors.map((e: { type: string }) => e.type)).toEqual(['SongOrChartNotFound']);
  };
  const orphansOf = async (p: QuickPlayer) => (await storedOrphans(t, p.id)).map((o) => o.game).sort();

  beforeAll(async () => {
    t = await createTestApp();
    await loadScoreFixtures(t);
    [ann, ben] = [await quickPlayer(t, 'ann'), await quickPlayer(t, 'ben')];
    await send(ann, 'sdvx', 'Single', renamed);
    await send(ann, 'iidx', 'SP', unknownIidx);
    await send(ben, 'sdvx', 'Single', renamed);
  });
  afterAll(async () => {
    await t.close();
  });

  it('a load that changes only songs retries that game’s orphans (not the other games’), and counts the busy users it skipped', async () => {
    // songs-sdvx.json alone, with an alternate title for song 1.
    const dir = path.join(t.dataDir, 'songs-only');
    fs.mkdirSync(dir, { recursive: true });
    const songs = JSON.parse(fs.readFileSync(path.join(SCORE_FIXTURES, 'songs-sdvx.json'), 'utf8')) as { id: number; altTitles: string[] }[];
    songs.find((s) => s.id === 1)!.altTitles = ['Fixture Alpha Remastered'];
    fs.writeFileSync(path.join(dir, 'songs-sdvx.json'), JSON.stringify(songs));
    const report = await new SeedLoader(t.database).load(new SeedSource(dir), { games: ['sdvx', 'iidx'] });
    expect(report.rejected).toEqual([]);

    const games = gamesWithCatalogChanges(report);
    expect(games).toEqual(['sdvx']);
    const release = await holdImportLock(t, ben.id);
    try {
      const result = await t.app.get(OrphansService).retryForGames(games);
      expect(result).toEqual({ processed: 1, success: 1, failed: 0, removed: 0, skippedUsers: 1 });
    } finally {
      await release();
    }

    expect((await storedScores(t, ann.id)).map((s) => s.scoreData.score)).toEqual([9_500_000]);
    expect(await orphansOf(ann)).toEqual(['iidx']);
    expect(await orphansOf(ben)).toEqual(['sdvx']);
  });

  it('a load that changes nothing retries nothing', async () => {
    const load = () => new SeedLoader(t.database).load(new SeedSource(SCORE_FIXTURES), { games: ['sdvx'] });
    // The first puts song 1's alternate titles back; the second finds nothing to change.
    expect(gamesWithCatalogChanges(await load())).toEqual(['sdvx']);
    expect(gamesWithCatalogChanges(await load())).toEqual([]);
  });
});
