import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestApp, type TestApp } from '../support/app.js';
import { quickPlayer, type QuickPlayer } from '../support/leaderboard-fixtures.js';
import { fixtureChartID, importSdvx, loadScoreFixtures, sdvxScore } from '../support/score-fixtures.js';
import { classAchievements, storedPb, storedPbRatings, storedProfileRatings } from '../support/stored.js';
import { bearer } from '../support/users.js';

const MIN = 60_000;
const T0 = Date.UTC(2024, 6, 1, 18);
const PUC = 'PERFECT ULTIMATE CHAIN';

/*
 * What a score delete or an import revert leaves behind once the user's last score on a chart (or
 * on the GPT) is gone: no pb_ratings row that would block the chart's next PB, no profile (nor its
 * profile_ratings) unless a provided class keeps it, and no ImportDocument without scores.
 * VF6: 1-MXM (18) PUC = 36 × 1.05 × 1.1 → 0.415; 2-MXM (17) PUC → 0.392.
 */
const ONE = [sdvxScore(1, 'MXM', 10_000_000, PUC, T0)];
const TWO = [sdvxScore(1, 'MXM', 10_000_000, PUC, T0), sdvxScore(2, 'MXM', 10_000_000, PUC, T0 + 5 * MIN)];

describe('what score removal leaves behind', () => {
  let t: TestApp;
  const chart1MXM = fixtureChartID(1, 'MXM');

  const player = (name: string) => quickPlayer(t, name, ['submit_score', 'delete_score']);
  const importAs = (p: QuickPlayer, scores: object[], classes?: Record<string, string>) => importSdvx(t.http(), scores, { headers: bearer(p.token), classes });
  const deleteScore = (p: QuickPlayer, scoreID: string) => t.http().delete(`/api/v1/scores/${scoreID}`).set(bearer(p.token));
  const revert = (p: QuickPlayer, importID: string) => t.http().post(`/api/v1/imports/${importID}/revert`).set(bearer(p.token));
  const gameStats = async (p: QuickPlayer) =>
    (await t.http().get(`/api/v1/users/${p.id}/game-stats`)).body as { ratings: Record<string, number | null>; classes: Record<string, string> }[];
  const ratingsRows = (p: QuickPlayer) => storedProfileRatings(t, p.id);
  const pbRatingsOf = (p: QuickPlayer, chartID: string) => storedPbRatings(t, p.id, chartID);

  beforeAll(async () => {
    t = await createTestApp();
    await loadScoreFixtures(t);
  });
  afterAll(async () => {
    await t.close();
  });

  describe('a chart emptied by a delete or a revert takes a new PB', () => {
    it('re-imports a deleted score: the PB and its rating are back', async () => {
      const p = await player('redo_delete');
      const doc = await importAs(p, TWO);
      expect((await deleteScore(p, doc.scoreIDs[0])).status).toBe(200);
      expect(await storedPb(t, p.id, chart1MXM)).toBeUndefined();
      expect(await pbRatingsOf(p, chart1MXM)).toEqual([]);

      const again = await importAs(p, ONE);
      expect(again.scoreIDs).toEqual([doc.scoreIDs[0]]);
      expect(await storedPb(t, p.id, chart1MXM)).toMatchObject({ calculatedData: { VF6: 0.415 }, rankingData: { rank: 1 } });
      expect(await pbRatingsOf(p, chart1MXM)).toEqual([{ alg: 'VF6', value: 0.415 }]);
      const best = await t.http().get(`/api/v1/users/${p.id}/games/sdvx/Single/pbs/best`);
      expect(best.body.pbs.map((pb: { chartID: string }) => pb.chartID)).toContain(chart1MXM);
    });

    it('re-posts a reverted file: the PBs and ratings are back', async () => {
      const p = await player('redo_revert');
      const doc = await importAs(p, TWO);
      expect((await revert(p, doc.importID)).status).toBe(200);
      expect(await pbRatingsOf(p, chart1MXM)).toEqual([]);

      const again = await importAs(p, TWO);
      expect(again.scoreIDs).toEqual(doc.scoreIDs);
      expect(await storedPb(t, p.id, chart1MXM)).toMatchObject({ calculatedData: { VF6: 0.415 } });
      expect(await pbRatingsOf(p, chart1MXM)).toEqual([{ alg: 'VF6', value: 0.415 }]);
      expect((await gameStats(p))[0].ratings.VF6).toBeCloseTo(0.807, 10);
    });
  });

  describe('the profile goes with the last score of the GPT', () => {
    it('after a delete: no game stats, no profile_ratings, and the others are ranked out of one player fewer', async () => {
      const stays = await player('stays');
      await importAs(stays, ONE);
      const p = await player('leaves_delete');
      const doc = await importAs(p, ONE);
      const rankingOf = async (q: QuickPlayer) => (await t.http().get(`/api/v1/users/${q.id}/games/sdvx/Single`)).body.rankingData.VF6.outOf as number;
      const before = await rankingOf(stays);

      expect((await deleteScore(p, doc.scoreIDs[0])).status).toBe(200);
      expect(await gameStats(p)).toEqual([]);
      expect(await ratingsRows(p)).toEqual([]);
      expect((await t.http().get(`/api/v1/users/${p.id}/games/sdvx/Single`)).status).toBe(404);
      expect(await rankingOf(stays)).toBe(before - 1);
    });

    it('after a revert of the only import: no game stats either (the derived vfClass has nothing left to derive from)', async () => {
      const p = await player('leaves_revert');
      const doc = await importAs(p, TWO);
      expect((await gameStats(p))[0].classes).toEqual({ vfClass: 'SIENNA_I' });
      expect((await revert(p, doc.importID)).status).toBe(200);
      expect(await gameStats(p)).toEqual([]);
      expect(await ratingsRows(p)).toEqual([]);
    });

    it('a provided class keeps the profile, without ratings or derived classes', async () => {
      const p = await player('keeps_dan');
      const doc = await importAs(p, ONE, { dan: 'DAN_4' });
      expect((await revert(p, doc.importID)).status).toBe(200);
      expect(await gameStats(p)).toEqual([expect.objectContaining({ ratings: { VF6: null }, classes: { dan: 'DAN_4' } })]);
      expect(await ratingsRows(p)).toEqual([]);
    });

    it('an import of classes alone for a GPT never played stores nothing and reports no delta', async () => {
      const p = await player('only_dan');
      const doc = await importAs(p, [], { dan: 'DAN_3' });
      expect(doc.classDeltas).toEqual([]);
      expect(await gameStats(p)).toEqual([]);
      expect(await classAchievements(t, p.id)).toEqual([]);
    });

    it('an import of classes alone raises the class of a profile that exists', async () => {
      const p = await player('dan_later');
      await importAs(p, ONE);
      const doc = await importAs(p, [], { dan: 'DAN_6' });
      expect(doc.classDeltas).toEqual([{ game: 'sdvx', playtype: 'Single', set: 'dan', old: null, new: 'DAN_6' }]);
      expect((await gameStats(p))[0].classes).toEqual({ dan: 'DAN_6', vfClass: 'SIENNA_I' });
    });
  });

  describe('ImportDocuments', () => {
    it("an import goes with its last score; one that keeps scores stays, without the deleted one's id", async () => {
      const p = await player('import_goes');
      const doc = await importAs(p, TWO);
      expect((await deleteScore(p, doc.scoreIDs[0])).status).toBe(200);
      expect((await t.http().get(`/api/v1/imports/${doc.importID}`)).body.import.scoreIDs).toEqual([doc.scoreIDs[1]]);
      expect((await deleteScore(p, doc.scoreIDs[1])).status).toBe(200);
      expect((await t.http().get(`/api/v1/imports/${doc.importID}`)).status).toBe(404);
    });
  });
});
