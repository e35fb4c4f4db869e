import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { sql } from 'drizzle-orm';
import { ChangeFeed, FeedMemo, scope } from '../../src/database/change-feed.js';
import type { Database } from '../../src/database/database.js';
import { chartRankings, EMPTY_SOCIALS, users } from '../../src/database/schema.js';
import { openTestDatabase } from '../support/app.js';
import { insertSongWithCharts } from './support-db.js';

/**
 * The change feed on a real migrated database (PGlite, or PostgreSQL with TEST_DATABASE_URL): the
 * triggers' notifications move scopes past a reader's position, and FeedMemo reloads exactly when
 * a value's scope changed.
 */
describe('ChangeFeed and FeedMemo', () => {
  let database: Database;
  let drop: () => Promise<void>;
  let feed: ChangeFeed;
  let userID: number;

  beforeAll(async () => {
    ({ database, drop } = await openTestDatabase());
    feed = new ChangeFeed(database);
    await feed.start();
    const [row] = await database.db
      .insert(users)
      .values({ username: 'feedy', usernameLowercase: 'feedy', about: '', socialMedia: EMPTY_SOCIALS, joinDate: 0, lastSeen: 0 })
      .returning({ id: users.id });
    userID = row.id;
    await feed.barrier();
  });
  afterAll(async () => {
    await feed.stop();
    await drop();
  });

  it('is live once listening; a committed write moves its scopes past earlier positions only', async () => {
    expect(feed.live).toBe(true);
    const before = feed.position;
    expect(feed.unchangedSince([scope.user(userID)], before)).toBe(true);
    await database.db
      .update(users)
      .set({ about: 'changed' })
      .where(sql`id = ${userID}`);
    await feed.barrier();
    expect(feed.unchangedSince([scope.user(userID)], before)).toBe(false);
    expect(feed.unchangedSince([scope.user(userID + 1000)], before)).toBe(true);
    // A reader that starts after the change sees it as current.
    expect(feed.unchangedSince([scope.user(userID)], feed.position)).toBe(true);
  });

  it('an update that changes nothing in the row sends nothing', async () => {
    const before = feed.position;
    await database.db
      .update(users)
      .set({ about: 'changed' })
      .where(sql`id = ${userID}`);
    await feed.barrier();
    expect(feed.unchangedSince([scope.user(userID)], before)).toBe(true);
  });

  it('a rolled-back write sends nothing', async () => {
    const before = feed.position;
    await expect(
      database.transaction(async (tx) => {
        await tx
          .update(users)
          .set({ about: 'rolled back' })
          .where(sql`id = ${userID}`);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    await feed.barrier();
    expect(feed.unchangedSince([scope.user(userID)], before)).toBe(true);
  });

  it('FeedMemo loads once, and again only after the scope changed', async () => {
    const memo = new FeedMemo<{ about: string }>(feed, 10);
    let loads = 0;
    const load = async () => {
      loads++;
      const [row] = await database.db
        .select({ about: users.about })
        .from(users)
        .where(sql`id = ${userID}`);
      return row;
    };
    const scopes = () => [scope.user(userID)];
    expect(await memo.get('u', scopes, load)).toEqual({ about: 'changed' });
    expect(await memo.get('u', scopes, load)).toEqual({ about: 'changed' });
    expect(loads).toBe(1);
    await database.db
      .update(users)
      .set({ about: 'again' })
      .where(sql`id = ${userID}`);
    await feed.barrier();
    expect(await memo.get('u', scopes, load)).toEqual({ about: 'again' });
    expect(loads).toBe(2);
    // Nothing is remembered of a value that does not exist.
    let missing = 0;
    const none = async () => (missing++, undefined);
    await memo.get('none', scopes, none);
    await memo.get('none', scopes, none);
    expect(missing).toBe(2);
  });

  it("a chart's player count sends its chart and its GPT's popularity; a dirty mark alone sends nothing, in statements of any size", async () => {
    const ids = Array.from({ length: 300 }, (_, i) => `feed-chart-${String(i).padStart(3, '0')}`);
    await insertSongWithCharts(
      database.db,
      'iidx',
      'SP',
      { id: 9001, title: 'Feed' },
      ids.map((chartID, i) => ({ chartID, difficulty: `D${i}` })),
    );
    await database.db.insert(chartRankings).values(ids.map((chartID) => ({ chartID, game: 'iidx', playtype: 'SP', players: 1 })));
    // From a server, the inserts' own notifications arrive after the commit: heard before listening.
    await feed.barrier();
    const heard: string[] = [];
    const unsubscribe = feed.subscribe((scopes) => scopes !== 'all' && heard.push(...scopes));
    try {
      // One statement over every chart: the count moves on every other chart, the dirty mark on all.
      await database.db.execute(
        sql`UPDATE ${chartRankings} SET players = players + (CASE WHEN right(chart_id, 1)::int % 2 = 0 THEN 1 ELSE 0 END), dirty_since = 1 WHERE chart_id LIKE 'feed-chart-%'`,
      );
      await feed.barrier();
      const moved = ids.filter((id) => Number(id.at(-1)) % 2 === 0);
      expect(heard.filter((s) => s.startsWith('c:')).sort()).toEqual(moved.map((id) => scope.chart(id)));
      expect(heard.filter((s) => s.startsWith('r:'))).toEqual([scope.chartPopularity('iidx', 'SP')]);
      heard.length = 0;
      await database.db.execute(sql`UPDATE ${chartRankings} SET dirty_since = NULL WHERE chart_id LIKE 'feed-chart-%'`);
      await feed.barrier();
      expect(heard).toEqual([]);
    } finally {
      unsubscribe();
    }
  });

  it('after it stops, nothing counts as current', async () => {
    const other = new ChangeFeed(database);
    await other.start();
    const position = other.position;
    expect(other.unchangedSince([scope.user(userID)], position)).toBe(true);
    await other.stop();
    expect(other.live).toBe(false);
    expect(other.unchangedSince([scope.user(userID)], position)).toBe(false);
  });
});
