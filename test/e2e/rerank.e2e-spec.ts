import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import { findGpt } from '../../src/game-support/registry.js';
import { ImportPipeline } from '../../src/imports/import-pipeline.js';
import { dirtyChartCount, refreshDirtyCharts } from '../../src/scoring/pbs/rank-refresher.js';
import { rerankAll } from '../../src/scoring/pbs/rerank.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { buildIfNeeded, runCli } from '../support/cli.js';
import { scrambleStoredRanks } from '../support/db-fixtures.js';
import { batchManual, fixtureChart, imported, loadFixtureCatalog, player, T0 } from '../support/imports.js';
import { storedRanks, storedRankTable, storedScores } from '../support/stored.js';
import { bearer } from '../support/users.js';
import { migratedDataDir } from '../support/template-db.js';

const EXH1 = fixtureChart('sdvx-1-EXH');
const play = (score: number, timeAchieved: number) => ({
  matchType: 'sdvxInGameID',
  identifier: '1001',
  difficulty: 'EXH',
  score,
  lamp: 'CLEAR',
  timeAchieved,
});

describe('chart re-ranking (rerankCharts, deferred ranking, `cli rerank`)', () => {
  let t: TestApp;
  /** [userID, chartID, stored rank, the chart's player count] of every PB. */
  const ranks = () => storedRankTable(t);

  beforeAll(async () => {
    // Stored ranks are what this test reads: no background refresher behind its back.
    t = await createTestApp({ RANK_REFRESH_INTERVAL_MS: '0' });
    await loadFixtureCatalog(t.database, 'catalog', ['sdvx']);
  });
  afterAll(async () => {
    await t.close();
  });

  it('ranks PBs written with deferRanking as imports would have, and repairs scrambled ranks', async () => {
    const [a, b, c] = [await player(t), await player(t), await player(t)];
    await imported(t, a.token, batchManual('sdvx', 'Single', [play(9_500_000, T0 + 2000)]));
    await imported(t, b.token, batchManual('sdvx', 'Single', [play(9_900_000, T0)]));
    await imported(t, c.token, batchManual('sdvx', 'Single', [play(9_500_000, T0 + 1000)]));
    // b's import moved a down (its stored rank stays 1): the chart is dirty until the refresher runs.
    expect(await refreshDirtyCharts(t.database)).toBe(1);
    // By hand: b (9.9M) first; a and c tie at 9.5M, and c achieved it earlier.
    expect(await ranks()).toEqual([
      [b.user.id, EXH1, 1, 3],
      [c.user.id, EXH1, 2, 3],
      [a.user.id, EXH1, 3, 3],
    ]);

    // A bulk load: d's 9.7M is written unranked (rank 0, the chart dirty, its count 4), and the others keep their old ranks.
    const d = await player(t);
    const gpt = findGpt('sdvx', 'Single')!;
    const pipeline = t.app.get(ImportPipeline);
    const batch = {
      userID: d.user.id,
      gpt,
      context: { service: 'bulk', version: null },
      importType: 'ir/direct-manual' as const,
      importID: null,
      elements: [{ index: 0, raw: play(9_700_000, T0 + 3000) }],
    };
    const converted = await pipeline.convert(batch);
    await t.database.transaction((tx) => pipeline.write(tx, batch, converted, {}, { deferRanking: true }));
    expect((await storedRanks(t, EXH1)).find(([userID]) => userID === d.user.id)).toEqual([d.user.id, 0]);
    expect(await dirtyChartCount(t.database)).toBe(1);

    // 3 PBs: d's new one, and c and a, each one place down.
    expect(await rerankAll(t.database, ['sdvx'])).toEqual({ charts: 1, changed: 3 });
    expect(await dirtyChartCount(t.database)).toBe(0);
    const expected = [
      [b.user.id, EXH1, 1, 4],
      [d.user.id, EXH1, 2, 4],
      [c.user.id, EXH1, 3, 4],
      [a.user.id, EXH1, 4, 4],
    ];
    expect(await ranks()).toEqual(expected);
    // Nothing left to change; another game's charts are not touched.
    expect(await rerankAll(t.database, ['sdvx'])).toEqual({ charts: 1, changed: 0 });
    expect(await rerankAll(t.database, ['chunithm'])).toEqual({ charts: 0, changed: 0 });

    await scrambleStoredRanks(t);
    expect(await rerankAll(t.database)).toEqual({ charts: 1, changed: 4 });
    expect(await ranks()).toEqual(expected);
  });
});

describe('chart player counts (GET /charts __playcount) through imports and deletions', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    await loadFixtureCatalog(t.database, 'catalog', ['sdvx']);
  });
  afterAll(async () => {
    await t.close();
  });

  it('counts the players of each chart, most played first, and follows a deleted score', async () => {
    const MXM3 = fixtureChart('sdvx-3-MXM');
    const mxm3 = (score: number, i: number) => ({
      matchType: 'sdvxInGameID',
      identifier: '1003',
      difficulty: 'MXM',
      score,
      lamp: 'CLEAR',
      timeAchieved: T0 + i * 1000,
    });
    const [a, b, c] = [await player(t, ['submit_score', 'delete_score']), await player(t), await player(t)];
    for (const [i, p] of [a, b, c].entries()) await imported(t, p.token, batchManual('sdvx', 'Single', [mxm3(9_000_000 + i, i)]));
    await imported(t, a.token, batchManual('sdvx', 'Single', [play(9_100_000, T0)]));
    const top = async () =>
      ((await t.http().get('/api/v1/games/sdvx/Single/charts')).body.charts as { chartID: string; __playcount: number }[])
        .slice(0, 3)
        .map((ch) => [ch.chartID, ch.__playcount]);
    // Then every unplayed chart, with 0.
    expect(await top()).toEqual([
      [MXM3, 3],
      [EXH1, 1],
      [expect.any(String), 0],
    ]);
    // a deletes both scores: MXM3 keeps b and c, and EXH1 has no player left.
    for (const s of await storedScores(t, a.user.id)) expect((await t.http().delete(`/api/v1/scores/${s.scoreID}`).set(bearer(a.token))).status).toBe(200);
    const after = await top();
    expect(after[0]).toEqual([MXM3, 2]);
    expect(after.slice(1).map(([, n]) => n)).toEqual([0, 0]);
    // The search path reads the same counts.
    const searched = (await t.http().get('/api/v1/games/sdvx/Single/charts').query({ search: 'Pipeline' })).body.charts as {
      chartID: string;
      __playcount: number;
    }[];
    expect(searched.find((ch) => ch.chartID === EXH1)?.__playcount).toBe(0);
  });
});

describe('npm run cli -- rerank', () => {
  let dataDir: string;
  beforeAll(async () => {
    buildIfNeeded();
    dataDir = await migratedDataDir('st-rerank-cli-');
  }, 300_000);
  afterAll(() => {
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('names unknown games, and reports what it ranked', async () => {
    const bad = await runCli(['rerank', '--games', 'sdvx,nope'], { dataDir });
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/Unknown game\(s\): nope\. Valid games: iidx/);
    const ok = await runCli(['rerank'], { dataDir });
    expect(ok.stderr).toBe('');
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain('Ranked the PBs of 0 chart(s): 0 PB(s) changed rank.');
  }, 60_000);
});
