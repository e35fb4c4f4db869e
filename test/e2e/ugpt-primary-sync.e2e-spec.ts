import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import path from 'node:path';
import { SeedLoader } from '../../src/seeds/seed-loader.js';
import { SeedSource } from '../../src/seeds/seed-source.js';
import { syncChartPrimaryFlags } from '../../src/scoring/maintenance/chart-primary-sync.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { importAs, lbChart, loadLeaderboardCatalog, play, quickPlayer, type QuickPlayer } from '../support/leaderboard-fixtures.js';

const T0 = Date.UTC(2024, 6, 1, 12);
const MIN = 60_000;
const PUC = 'PERFECT ULTIMATE CHAIN';
const GPT = '/api/v1/games/sdvx/Single';
const BH = lbChart(1, 'MXM'); // Blue Horizon MXM, level 18, primary
const RED = lbChart(5, 'MXM'); // level 20, primary
const OLD = lbChart(6, 'EXH'); // level 20, not primary

/*
 * PUC VF6: level 18 → 0.415, level 20 → 0.462. Profile VF6 = the sum of the best 50 PBs on
 * primary charts, null without any.
 *   pia:   PUCs on Old Mix (booth), Blue Horizon MXM and Red Planet: 0.415 + 0.462 = 0.877
 *   quinn: a PUC on Blue Horizon MXM: 0.415
 * A seed reload then makes Old Mix primary and Blue Horizon MXM not:
 *   pia: 0.462 + 0.462 = 0.924; quinn: no primary PB, null.
 */
describe('a seed reload that flips charts.is_primary', () => {
  let t: TestApp;
  let pia: QuickPlayer, quinn: QuickPlayer;
  let piaScores: string[];
  let seedDir: string;

  const profile = async (p: QuickPlayer) =>
    (await t.http().get(`/api/v1/users/${p.id}/games/sdvx/Single`)).body.gameStats as { ratings: { VF6: number | null } };
  const bestCharts = async (p: QuickPlayer) =>
    ((await t.http().get(`/api/v1/users/${p.id}/games/sdvx/Single/pbs/best`)).body.pbs as { chartID: string }[]).map((pb) => pb.chartID);
  const leaderboard = async () =>
    ((await t.http().get(`${GPT}/leaderboard`)).body.gameStats as { userID: number; ratings: { VF6: number | null } }[]).map((s) => [s.userID, s.ratings.VF6]);

  /** Reloads the fixture catalog with these charts' isPrimary set. */
  async function reload(primary: Record<string, boolean>) {
    const dir = path.join(t.dataDir, `flipped-seeds-${Object.values(primary).join('-')}`);
    fs.mkdirSync(dir, { recursive: true });
    fs.copyFileSync(path.join(seedDir, 'songs-sdvx.json'), path.join(dir, 'songs-sdvx.json'));
    const charts = JSON.parse(fs.readFileSync(path.join(seedDir, 'charts-sdvx.json'), 'utf8')) as { chartID: string; isPrimary: boolean }[];
    for (const c of charts) if (Object.hasOwn(primary, c.chartID)) c.isPrimary = primary[c.chartID];
    fs.writeFileSync(path.join(dir, 'charts-sdvx.json'), JSON.stringify(charts));
    const report = await new SeedLoader(t.database).load(new SeedSource(dir), { games: ['sdvx'] });
    expect(report.rejected).toEqual([]);
    return report;
  }

  beforeAll(async () => {
    t = await createTestApp();
    await loadLeaderboardCatalog(t);
    seedDir = path.join(t.dataDir, 'leaderboard-seeds');
    pia = await quickPlayer(t, 'pia');
    quinn = await quickPlayer(t, 'quinn');
    piaScores = [
      ...(await importAs(t, pia, [play(6, 'EXH', 10_000_000, PUC, T0)], { version: 'booth' })).scoreIDs,
      ...(await importAs(t, pia, [play(1, 'MXM', 10_000_000, PUC, T0 + MIN), play(5, 'MXM', 10_000_000, PUC, T0 + 2 * MIN)])).scoreIDs,
    ];
    await importAs(t, quinn, [play(1, 'MXM', 10_000_000, PUC, T0 + 3 * MIN)]);
  }, 120_000);
  afterAll(async () => {
    await t.close();
  });

  it('starts from the copies taken at import', async () => {
    expect((await profile(pia)).ratings.VF6).toBeCloseTo(0.877, 10);
    expect((await profile(quinn)).ratings.VF6).toBeCloseTo(0.415, 10);
    expect(await bestCharts(pia)).toEqual([RED, BH]);
  });

  it('updates the PBs, their ratings and scores, and recomputes the profiles of their players', async () => {
    const report = await reload({ [OLD]: true, [BH]: false });
    expect(report.collections.find((c) => c.file === 'charts-sdvx.json')).toMatchObject({ updated: 2 });

    // pbs/best reads pb_ratings.is_primary: Old Mix is in, Blue Horizon out (ties by chart id).
    expect(await bestCharts(pia)).toEqual([OLD, RED].sort());
    expect(await bestCharts(quinn)).toEqual([]);
    expect((await profile(pia)).ratings.VF6).toBeCloseTo(0.924, 10);
    expect((await profile(quinn)).ratings.VF6).toBeNull();
    // profile_ratings, which the leaderboard reads, follow.
    expect(await leaderboard()).toEqual([
      [pia.id, expect.closeTo(0.924, 10)],
      [quinn.id, null],
    ]);
    const pb = async (p: QuickPlayer, chartID: string) =>
      (await t.http().get(`/api/v1/users/${p.id}/games/sdvx/Single/pbs/${chartID}`)).body.pb as { isPrimary: boolean };
    expect((await pb(pia, OLD)).isPrimary).toBe(true);
    expect((await pb(pia, BH)).isPrimary).toBe(false);
    const score = async (id: string) => (await t.http().get(`/api/v1/scores/${id}`)).body.score as { chartID: string; isPrimary: boolean };
    expect(await Promise.all(piaScores.map(score))).toEqual([
      expect.objectContaining({ chartID: OLD, isPrimary: true }),
      expect.objectContaining({ chartID: BH, isPrimary: false }),
      expect.objectContaining({ chartID: RED, isPrimary: true }),
    ]);
  });

  it('leaves everything alone when no flag differs', async () => {
    expect(await t.database.transaction((tx) => syncChartPrimaryFlags(tx, [OLD, BH, RED]))).toEqual({ pbs: 0, profiles: 0 });
    expect(await t.database.transaction((tx) => syncChartPrimaryFlags(tx, []))).toEqual({ pbs: 0, profiles: 0 });
    expect((await reload({ [OLD]: true, [BH]: false })).changed).toBe(false);
  });

  it('flips back with the next reload', async () => {
    await reload({ [OLD]: false, [BH]: true });
    expect(await bestCharts(pia)).toEqual([RED, BH]);
    expect((await profile(pia)).ratings.VF6).toBeCloseTo(0.877, 10);
    expect((await profile(quinn)).ratings.VF6).toBeCloseTo(0.415, 10);
  });
});
