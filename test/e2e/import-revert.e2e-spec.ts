import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { ImportDocument } from '../../src/presenters/import.presenter.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { holdImportLock, makeAdmin } from '../support/db-fixtures.js';
import { fixtureChartID, importSdvx, loadScoreFixtures, sdvxScore, sdvxStats } from '../support/score-fixtures.js';
import { storedPb } from '../support/stored.js';
import { bearer, issueToken, signUp, type SignedUpUser } from '../support/users.js';

const MIN = 60_000;
const DAY = 24 * 60 * MIN;
const T0 = Date.UTC(2024, 4, 20, 19);
const PUC = 'PERFECT ULTIMATE CHAIN';

/*
 * VF6 = floor(level × 2 × score/1e7 × grade% × lamp% / 1000) / 1000.
 * I1 (T0, five minutes apart, one session of ten):
 *   1-MXM (18) 9,500,000 AA+ 97 EXCESSIVE CLEAR 102: 36 × 0.95 × 97 × 102 = 338374.8 → 0.338
 *   2-MXM (17) 9,000,000 A+ 91 CLEAR:                34 × 0.9 × 91 × 100  = 278460   → 0.278
 *   8,000,000 (B, 85) CLEARs, level × 2 × 0.8 × 85 × 100 = level × 13600:
 *   1-EXH 14 → 0.190, 2-EXH 15 → 0.204, 3-EXH 16 → 0.217, 4-EXH 16 → 0.217, 5-EXH 17 → 0.231,
 *   6-EXH 17 → 0.231, 7-EXH 18 → 0.244, 3-MXM 19 → 0.258
 *   Profile VF6 = 2.408 (SIENNA_I, under 2.5); session ProfileVF6 = 2.408 / 10 × 50 = 12.04.
 * I2 (a day later, with classes {dan: DAN_5}): PUCs (level × 23100) 1-MXM 18 → 0.415, 5-MXM 20 → 0.462, 6-MXM 19 → 0.438.
 *   Profile VF6 = 2.408 − 0.338 + 0.415 + 0.462 + 0.438 = 3.385 → vfClass SIENNA_II.
 * I3 (T0 + 60 min, appended to I1's session): 4-MXM (20) PUC → 0.462.
 *   Profile VF6 = 3.847; I1's session's best ten lose 0.190 and gain 0.462: 2.680 × 5 = 13.4.
 */
const I1_SCORES = [
  sdvxScore(1, 'MXM', 9_500_000, 'EXCESSIVE CLEAR', T0),
  sdvxScore(2, 'MXM', 9_000_000, 'CLEAR', T0 + 5 * MIN),
  sdvxScore(1, 'EXH', 8_000_000, 'CLEAR', T0 + 10 * MIN),
  sdvxScore(2, 'EXH', 8_000_000, 'CLEAR', T0 + 15 * MIN),
  sdvxScore(3, 'EXH', 8_000_000, 'CLEAR', T0 + 20 * MIN),
  sdvxScore(4, 'EXH', 8_000_000, 'CLEAR', T0 + 25 * MIN),
  sdvxScore(5, 'EXH', 8_000_000, 'CLEAR', T0 + 30 * MIN),
  sdvxScore(6, 'EXH', 8_000_000, 'CLEAR', T0 + 35 * MIN),
  sdvxScore(7, 'EXH', 8_000_000, 'CLEAR', T0 + 40 * MIN),
  sdvxScore(3, 'MXM', 8_000_000, 'CLEAR', T0 + 45 * MIN),
];
const I2_SCORES = [
  sdvxScore(1, 'MXM', 10_000_000, PUC, T0 + DAY),
  sdvxScore(5, 'MXM', 10_000_000, PUC, T0 + DAY + 5 * MIN),
  sdvxScore(6, 'MXM', 10_000_000, PUC, T0 + DAY + 10 * MIN),
];
const I3_SCORES = [sdvxScore(4, 'MXM', 10_000_000, PUC, T0 + 60 * MIN)];

describe('POST /imports/:importID/revert', () => {
  let t: TestApp;
  let alice: SignedUpUser;
  let bob: SignedUpUser;
  let mallory: SignedUpUser;
  let admin: SignedUpUser;
  let i1: ImportDocument;
  let i2: ImportDocument;
  let i3: ImportDocument;
  let bobImport: ImportDocument;
  const chart1MXM = fixtureChartID(1, 'MXM');

  const revert = (importID: string) => `/api/v1/imports/${importID}/revert`;
  const getImport = (importID: string) => t.http().get(`/api/v1/imports/${importID}`);
  const getSession = (sessionID: string) => t.http().get(`/api/v1/sessions/${sessionID}`);

  beforeAll(async () => {
    t = await createTestApp();
    await loadScoreFixtures(t);
    [alice, bob, mallory, admin] = [await signUp(t), await signUp(t), await signUp(t), await signUp(t)];
    await makeAdmin(t, admin.user.id);
    // bob on 1-MXM, 9,600,000: between alice's 9,500,000 and her later PUC.
    bobImport = await importSdvx(t.http(), [sdvxScore(1, 'MXM', 9_600_000, 'CLEAR', T0 - DAY)], { headers: bearer(await issueToken(bob, ['submit_score'])) });
    i1 = await importSdvx(alice.agent, I1_SCORES);
    i2 = await importSdvx(alice.agent, I2_SCORES, { classes: { dan: 'DAN_5' } });
    i3 = await importSdvx(alice.agent, I3_SCORES);
  });
  afterAll(async () => {
    await t.close();
  });

  it('starts from what the three imports computed', async () => {
    expect(i1.classDeltas).toEqual([{ game: 'sdvx', playtype: 'Single', set: 'vfClass', old: null, new: 'SIENNA_I' }]);
    expect(i2.classDeltas).toEqual(
      expect.arrayContaining([
        { game: 'sdvx', playtype: 'Single', set: 'dan', old: null, new: 'DAN_5' },
        { game: 'sdvx', playtype: 'Single', set: 'vfClass', old: 'SIENNA_I', new: 'SIENNA_II' },
      ]),
    );
    expect(i2.classDeltas).toHaveLength(2);
    expect(i3.createdSessions).toEqual([{ sessionID: i1.createdSessions[0].sessionID, type: 'Appended' }]);
    const stats = await sdvxStats(t, alice.user.id);
    expect(stats!.ratings.VF6).toBeCloseTo(3.847, 10);
    expect(stats!.classes).toEqual({ dan: 'DAN_5', vfClass: 'SIENNA_II' });
    expect(await storedPb(t, alice.user.id, chart1MXM)).toMatchObject({ rankingData: { rank: 1, outOf: 2 }, calculatedData: { VF6: 0.415 } });
    expect(await storedPb(t, bob.user.id, chart1MXM)).toMatchObject({ rankingData: { rank: 2, outOf: 2 } });
    const s1 = await getSession(i1.createdSessions[0].sessionID);
    expect(s1.body.session.scores).toEqual([...i1.scoreIDs, ...i3.scoreIDs]);
    expect(s1.body.session.calculatedData.ProfileVF6).toBeCloseTo(13.4, 10);
  });

  describe('access', () => {
    it('401s a guest', async () => {
      expect((await t.http().post(revert(i2.importID))).status).toBe(401);
    });

    it('403s a token without delete_score', async () => {
      const token = await issueToken(alice, ['submit_score', 'customise_score']);
      const res = await t.http().post(revert(i2.importID)).set(bearer(token));
      expect(res.status).toBe(403);
      expect(res.body.message).toMatch(/delete_score/);
    });

    it("403s another user's session and delete_score token", async () => {
      expect((await mallory.agent.post(revert(i2.importID))).status).toBe(403);
      expect(
        (
          await t
            .http()
            .post(revert(i2.importID))
            .set(bearer(await issueToken(mallory, ['delete_score'])))
        ).status,
      ).toBe(403);
      expect((await getImport(i2.importID)).status).toBe(200);
    });

    it('404s an unknown import', async () => {
      expect((await alice.agent.post(revert('0'.repeat(40)))).status).toBe(404);
    });

    it('409s while the owner has an import running, and changes nothing', async () => {
      const release = await holdImportLock(t, alice.user.id);
      try {
        expect((await alice.agent.post(revert(i2.importID))).status).toBe(409);
        // An administrator waits for the owner's import too.
        expect((await admin.agent.post(revert(i3.importID))).status).toBe(409);
      } finally {
        await release();
      }
      expect((await getImport(i2.importID)).body.import.scoreIDs).toEqual(i2.scoreIDs);
      expect((await getImport(i3.importID)).status).toBe(200);
    });
  });

  describe('reverting', () => {
    it("lets an administrator revert another user's import: an appended session is recomputed", async () => {
      const res = await admin.agent.post(revert(i3.importID));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({});
      expect((await getImport(i3.importID)).status).toBe(404);
      expect((await t.http().get(`/api/v1/scores/${i3.scoreIDs[0]}`)).status).toBe(404);
      expect(await storedPb(t, alice.user.id, fixtureChartID(4, 'MXM'))).toBeUndefined();
      // I1's session is back to its ten scores, span and 12.04.
      const s1 = await getSession(i1.createdSessions[0].sessionID);
      expect(s1.body.session).toMatchObject({ scores: i1.scoreIDs, timeStarted: T0, timeEnded: T0 + 45 * MIN });
      expect(s1.body.session.calculatedData.ProfileVF6).toBeCloseTo(12.04, 10);
      expect((await sdvxStats(t, alice.user.id))!.ratings.VF6).toBeCloseTo(3.385, 10);
    });

    it("undoes the owner's import (delete_score token): scores, PBs, ranks, its session and ratings, but not its class changes", async () => {
      const res = await t
        .http()
        .post(revert(i2.importID))
        .set(bearer(await issueToken(alice, ['delete_score'])));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({});
      expect((await getImport(i2.importID)).status).toBe(404);
      for (const id of i2.scoreIDs) expect((await t.http().get(`/api/v1/scores/${id}`)).status).toBe(404);
      expect((await getSession(i2.createdSessions[0].sessionID)).status).toBe(404);

      // 1-MXM falls back to I1's 9,500,000 EXCESSIVE CLEAR, and bob leads the chart again.
      const pb = (await storedPb(t, alice.user.id, chart1MXM))!;
      expect(pb.scoreData).toMatchObject({ score: 9_500_000, lamp: 'EXCESSIVE CLEAR' });
      expect(pb.calculatedData).toEqual({ VF6: 0.338 });
      expect(pb.composedFrom).toEqual([{ name: 'Best Score', scoreID: i1.scoreIDs[0] }]);
      expect(pb.rankingData).toEqual({ rank: 2, outOf: 2 });
      expect(await storedPb(t, bob.user.id, chart1MXM)).toMatchObject({ rankingData: { rank: 1, outOf: 2 } });
      expect(await storedPb(t, alice.user.id, fixtureChartID(5, 'MXM'))).toBeUndefined();
      expect(await storedPb(t, alice.user.id, fixtureChartID(6, 'MXM'))).toBeUndefined();

      // The rating is back to I1's 2.408, under SIENNA_II's 2.5: the provided dan and the derived raise stay.
      const stats = await sdvxStats(t, alice.user.id);
      expect(stats!.ratings.VF6).toBeCloseTo(2.408, 10);
      expect(stats!.classes).toEqual({ dan: 'DAN_5', vfClass: 'SIENNA_II' });
    });

    it('leaves the other imports as they were', async () => {
      const first = await getImport(i1.importID);
      expect(first.status).toBe(200);
      expect(first.body.import.scoreIDs).toEqual(i1.scoreIDs);
      expect((first.body.scores as { scoreID: string }[]).map((x) => x.scoreID).sort()).toEqual([...i1.scoreIDs].sort());
      expect((await getImport(bobImport.importID)).body.import.scoreIDs).toEqual(bobImport.scoreIDs);
      expect((await getSession(i1.createdSessions[0].sessionID)).body.session.calculatedData.ProfileVF6).toBeCloseTo(12.04, 10);
    });

    it('404s a second revert of the same import', async () => {
      expect((await alice.agent.post(revert(i2.importID))).status).toBe(404);
    });

    it('unlike a revert, a score delete lets the derived vfClass follow the rating (the provided dan stays)', async () => {
      // 7-EXH's 0.244 goes: 2.408 − 0.244 = 2.164.
      expect((await alice.agent.delete(`/api/v1/scores/${i1.scoreIDs[8]}`)).status).toBe(200);
      const stats = await sdvxStats(t, alice.user.id);
      expect(stats!.ratings.VF6).toBeCloseTo(2.164, 10);
      expect(stats!.classes).toEqual({ dan: 'DAN_5', vfClass: 'SIENNA_I' });
    });
  });
});
