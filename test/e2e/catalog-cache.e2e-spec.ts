import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ChangeFeed } from '../../src/database/change-feed.js';
import { Database } from '../../src/database/database.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { renameSong } from '../support/db-fixtures.js';
import { batchManual, imported, loadFixtureCatalog, PIPELINE_FIXTURES, player, T0, type Player } from '../support/imports.js';

/**
 * Song and chart documents are served from an in-process cache (src/repositories/catalog-cache.ts):
 * a seed load clears it at once in its own process, and a server on PostgreSQL sees another
 * process's change to songs or charts as soon as its change notification arrives.
 */
describe('catalog document cache', () => {
  let t: TestApp;
  let p: Player;
  const tmp: string[] = [];

  const titleServed = async () => {
    const res = await t.http().get(`/api/v1/users/${p.user.id}/games/sdvx/Single/pbs/all`);
    expect(res.status).toBe(200);
    return (res.body.songs as { id: number; title: string }[]).find((s) => s.id === 1)!.title;
  };

  /** The fixture sdvx catalog with song 1 renamed, as a seed directory. */
  const renamedCatalog = (title: string) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'st-cache-'));
    tmp.push(dir);
    for (const file of ['songs-sdvx.json', 'charts-sdvx.json']) fs.copyFileSync(path.join(PIPELINE_FIXTURES, 'catalog', file), path.join(dir, file));
    const list = JSON.parse(fs.readFileSync(path.join(dir, 'songs-sdvx.json'), 'utf8')) as { id: number; title: string }[];
    list.find((s) => s.id === 1)!.title = title;
    fs.writeFileSync(path.join(dir, 'songs-sdvx.json'), JSON.stringify(list));
    return dir;
  };

  beforeAll(async () => {
    t = await createTestApp();
    await loadFixtureCatalog(t.database, 'catalog', ['sdvx']);
    p = await player(t);
    await imported(
      t,
      p.token,
      batchManual('sdvx', 'Single', [{ matchType: 'sdvxInGameID', identifier: '1001', difficulty: 'MXM', score: 9_000_000, lamp: 'CLEAR', timeAchieved: T0 }]),
    );
  });
  afterAll(async () => {
    await t.close();
    for (const dir of tmp) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('serves a renamed song at once after a seed load in the same process', async () => {
    expect(await titleServed()).toBe('Pipeline Anthem');
    await loadFixtureCatalog(t.database, renamedCatalog('Pipeline Anthem (Renamed)'), ['sdvx']);
    expect(await titleServed()).toBe('Pipeline Anthem (Renamed)');
  });

  it('keeps serving cached documents when the embedded table changes behind the seed loader', async () => {
    if (t.database.kind !== 'pglite') return; // a server's cache hears of every change (next test)
    await titleServed();
    // Not how the catalog changes (only the seed loader writes songs), but it shows that reads come from the cache.
    await renameSong(t, 'sdvx', 1, 'Written Behind The Cache');
    expect(await titleServed()).toBe('Pipeline Anthem (Renamed)');
  });

  it('matches scores against the catalog a seed load left, not the matches it kept before', async () => {
    const mxm1001 = (time: number) =>
      batchManual('sdvx', 'Single', [
        { matchType: 'sdvxInGameID', identifier: '1001', difficulty: 'MXM', score: 9_100_000 + (time - T0) / 60_000, lamp: 'CLEAR', timeAchieved: time },
      ]);
    // Matched, and the match kept.
    expect((await imported(t, p.token, mxm1001(T0 + 60_000))).scoreIDs).toHaveLength(1);
    expect((await imported(t, p.token, mxm1001(T0 + 120_000))).scoreIDs).toHaveLength(1);
    // A seed load gives that chart another in-game id: 1001 MXM names no chart any more.
    const dir = renamedCatalog('Pipeline Anthem (Renamed)');
    const list = JSON.parse(fs.readFileSync(path.join(dir, 'charts-sdvx.json'), 'utf8')) as {
      songID: number;
      difficulty: string;
      data: { inGameID?: number };
    }[];
    list.find((c) => c.songID === 1 && c.difficulty === 'MXM')!.data.inGameID = 7001;
    fs.writeFileSync(path.join(dir, 'charts-sdvx.json'), JSON.stringify(list));
    await loadFixtureCatalog(t.database, dir, ['sdvx']);
    const after = await imported(t, p.token, mxm1001(T0 + 180_000));
    expect(after.scoreIDs).toHaveLength(0);
    expect(after.errors).toEqual([expect.objectContaining({ type: 'SongOrChartNotFound' })]);
    // Put back as it was, for the tests after this one.
    await loadFixtureCatalog(t.database, renamedCatalog('Pipeline Anthem (Renamed)'), ['sdvx']);
    expect((await imported(t, p.token, mxm1001(T0 + 240_000))).scoreIDs).toHaveLength(1);
  });

  it("answers a chart's PB page from the GPT the last seed load gave the chart, not the one it kept", async () => {
    const chartID = '3c877868169170c72cc0b3909e61ef535bde831b'; // the fixture's one IIDX chart, SP
    const pbsStatus = async (playtype: string) => (await t.http().get(`/api/v1/games/iidx/${playtype}/charts/${chartID}/pbs`)).status;
    const iidxCatalog = (playtype: string) => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'st-cache-'));
      tmp.push(dir);
      fs.copyFileSync(path.join(PIPELINE_FIXTURES, 'catalog', 'songs-iidx.json'), path.join(dir, 'songs-iidx.json'));
      const list = JSON.parse(fs.readFileSync(path.join(PIPELINE_FIXTURES, 'catalog', 'charts-iidx.json'), 'utf8')) as { playtype: string }[];
      list[0].playtype = playtype;
      fs.writeFileSync(path.join(dir, 'charts-iidx.json'), JSON.stringify(list));
      return dir;
    };
    await loadFixtureCatalog(t.database, iidxCatalog('SP'), ['iidx']);
    expect(await pbsStatus('SP')).toBe(200);
    expect(await pbsStatus('SP')).toBe(200); // the chart's GPT now kept
    expect(await pbsStatus('DP')).toBe(404);
    expect((await t.http().get(`/api/v1/games/iidx/SP/charts/${'0'.repeat(40)}/pbs`)).status).toBe(404);

    // A seed load moves the chart to DP: the kept SP is forgotten.
    await loadFixtureCatalog(t.database, iidxCatalog('DP'), ['iidx']);
    expect(await pbsStatus('SP')).toBe(404);
    expect(await pbsStatus('DP')).toBe(200);
  });

  it("sees another process's change to songs as soon as its notification arrives, without a version bump (PostgreSQL)", async () => {
    if (t.database.kind !== 'postgres' || !t.databaseUrl) return; // embedded: one process owns the database
    expect(await titleServed()).toBe('Pipeline Anthem (Renamed)');
    // Another process's connection to the same database.
    const other = await Database.open({ url: t.databaseUrl, poolSize: 1 });
    try {
      await renameSong(other, 'sdvx', 1, 'Loaded Elsewhere');
    } finally {
      await other.close();
    }
    // The notification follows the commit on the server's listening connection: wait until this process has it.
    await t.app.get(ChangeFeed).barrier();
    expect(await titleServed()).toBe('Loaded Elsewhere');
  });
});
