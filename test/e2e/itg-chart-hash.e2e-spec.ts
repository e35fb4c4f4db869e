import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SeedLoader } from '../../src/seeds/seed-loader.js';
import { SeedSource } from '../../src/seeds/seed-source.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { batchManual, errorsByIndex, imported, player, T0 } from '../support/imports.js';
import { storedOrphans, storedPb } from '../support/stored.js';

const CHART = 'a'.repeat(40);
const HASH = '0123456789abcdef';

/** One ITG song with one chart, in HEAD's chart data shape. */
function itgSeeds(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'st-itg-'));
  const song = { id: 1, title: 'Stream Song', artist: 'A', searchTerms: [], altTitles: [], data: { subtitle: null } };
  const chart = {
    chartID: CHART,
    songID: 1,
    level: '14',
    levelNum: 14,
    isPrimary: true,
    difficulty: 'Hard 14',
    playtype: 'Stamina',
    versions: [],
    data: {
      rankedLevel: 14,
      chartLevel: 14,
      hashGSv3: HASH,
      difficultyTag: 'Hard',
      length: 120,
      charter: 'C',
      streamBPM: null,
      breakdown: null,
      npsPerMeasure: [],
      notesPerMeasure: [],
      bannerLocationOverride: null,
      originalPack: 'P',
      packs: ['P'],
    },
  };
  fs.writeFileSync(path.join(dir, 'songs-itg.json'), JSON.stringify([song]));
  fs.writeFileSync(path.join(dir, 'charts-itg.json'), JSON.stringify([chart]));
  return dir;
}

describe('ITG imports by itgChartHash (an extension: chart data.hashGSv3)', () => {
  let t: TestApp;
  let seeds: string;

  beforeAll(async () => {
    t = await createTestApp();
    seeds = itgSeeds();
    const report = await new SeedLoader(t.database).load(new SeedSource(seeds), { games: ['itg'] });
    expect(report.rejected).toEqual([]);
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(seeds, { recursive: true, force: true });
  });

  it('matches the chart by its hash, in any case, and an unknown hash waits as an orphan', async () => {
    const p = await player(t);
    const el = (identifier: string, score: number, lamp: string, optional: Record<string, unknown>, i: number) => ({
      matchType: 'itgChartHash',
      identifier,
      score,
      lamp,
      optional,
      timeAchieved: T0 + i * 1000,
    });
    const doc = await imported(
      t,
      p.token,
      batchManual('itg', 'Stamina', [
        el(HASH, 95, 'FAILED', { survivedPercent: 80 }, 0),
        el(HASH.toUpperCase(), 90, 'CLEAR', { survivedPercent: 100 }, 1),
        el('fedcba9876543210', 99, 'CLEAR', {}, 2),
      ]),
    );
    expect(doc.scoreIDs).toHaveLength(2);
    const errors = errorsByIndex(doc);
    expect([...errors.keys()]).toEqual([2]);
    expect(errors.get(2)!.message).toMatch(/No itg chart has the hash fedcba9876543210/);
    expect(await storedOrphans(t, p.user.id)).toHaveLength(1);

    // the FAILED 95% does not beat the CLEAR 90% (finalPercent 80 against 190)
    const pb = await storedPb(t, p.user.id, CHART);
    expect(pb!.scoreData).toMatchObject({ score: 90, lamp: 'CLEAR', grade: 'S' });
    expect(pb!.calculatedData).toMatchObject({ blockRating: 14 });
  });

  it('ranks the chart by the same order: a clear outranks a fail with a higher percent', async () => {
    const el = (score: number, lamp: string, survivedPercent: number, i: number) => ({
      matchType: 'itgChartHash',
      identifier: HASH,
      score,
      lamp,
      optional: { survivedPercent },
      timeAchieved: T0 + i * 1000,
    });
    const failer = await player(t);
    const clearer = await player(t);
    // The failer imports after the clearer, so the failer's import ranks both PBs: a 98% fail
    // (finalPercent 70) below an 85% clear (185), although its percent is higher.
    await imported(t, clearer.token, batchManual('itg', 'Stamina', [el(85, 'CLEAR', 100, 0)]));
    await imported(t, failer.token, batchManual('itg', 'Stamina', [el(98, 'FAILED', 70, 1)]));
    const res = await t.http().get(`/api/v1/games/itg/Stamina/charts/${CHART}/pbs`);
    expect(res.status).toBe(200);
    // The first test's player holds the 90% clear (190) on top.
    const rows = (res.body.pbs as { userID: number; rankingData: { rank: number; outOf: number } }[]).map((pb) => [pb.userID, pb.rankingData]);
    expect(rows.slice(1)).toEqual([
      [clearer.user.id, { rank: 2, outOf: 3 }],
      [failer.user.id, { rank: 3, outOf: 3 }],
    ]);
  });
});
