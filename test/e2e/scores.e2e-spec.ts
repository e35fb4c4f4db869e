import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { ImportDocument } from '../../src/presenters/import.presenter.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { holdImportLock, makeAdmin } from '../support/db-fixtures.js';
import { fixtureChartID, importSdvx, loadScoreFixtures, sdvxScore, sdvxStats } from '../support/score-fixtures.js';
import { storedPb } from '../support/stored.js';
import { bearer, issueToken, signUp, type SignedUpUser } from '../support/users.js';

const MIN = 60_000;
const DAY = 24 * 60 * MIN;
const T0 = Date.UTC(2024, 0, 10, 12);

/*
 * VF6 = floor(level × 2 × score/1e7 × grade% × lamp% / 1000) / 1000, per score (see sdvx.spec.ts):
 *  s0  1-MXM (18) 9,500,000 AA+ 97  EXCESSIVE CLEAR 102: 36 × 0.95 × 97 × 102 = 338374.8  → 0.338
 *  s1  1-MXM (18) 9,800,000 AAA+ 102 CLEAR 100:          36 × 0.98 × 102 × 100 = 359856   → 0.359
 *  s2  2-MXM (17) 9,000,000 A+ 91 CLEAR 100:             34 × 0.90 × 91 × 100  = 278460   → 0.278
 *  s3  3-MXM (19) PUC: 19 × 2 × 105 × 110 = 438900 → 0.438      s4 4-MXM (20) PUC: 462000 → 0.462
 *  s5  5-MXM (20) PUC → 0.462    s6 6-MXM (19) PUC → 0.438      s7 7-MXM (20) PUC → 0.462
 *  s8  1-EXH (14) PUC: 323400 → 0.323                            s9 2-EXH (15) PUC: 346500 → 0.346
 *  s10 3-EXH (16) 8,000,000 B 85 FAILED 50:              32 × 0.80 × 85 × 50   = 108800   → 0.108
 *  s11 2-MXM (17) 8,500,000 B 85 FAILED 50:              34 × 0.85 × 85 × 50   = 122825   → 0.122
 *  s12 7-EXH (18) PUC, a day later (a session of its own): 415800 → 0.415
 * The 1-MXM PB merges s1's score with s0's lamp: 36 × 0.98 × 102 × 102 = 367053.12 → 0.367.
 */
const ALICE_SCORES = [
  sdvxScore(1, 'MXM', 9_500_000, 'EXCESSIVE CLEAR', T0),
  sdvxScore(1, 'MXM', 9_800_000, 'CLEAR', T0 + 5 * MIN),
  sdvxScore(2, 'MXM', 9_000_000, 'CLEAR', T0 + 10 * MIN),
  sdvxScore(3, 'MXM', 10_000_000, 'PERFECT ULTIMATE CHAIN', T0 + 15 * MIN),
  sdvxScore(4, 'MXM', 10_000_000, 'PERFECT ULTIMATE CHAIN', T0 + 20 * MIN),
  sdvxScore(5, 'MXM', 10_000_000, 'PERFECT ULTIMATE CHAIN', T0 + 25 * MIN),
  sdvxScore(6, 'MXM', 10_000_000, 'PERFECT ULTIMATE CHAIN', T0 + 30 * MIN),
  sdvxScore(7, 'MXM', 10_000_000, 'PERFECT ULTIMATE CHAIN', T0 + 35 * MIN),
  sdvxScore(1, 'EXH', 10_000_000, 'PERFECT ULTIMATE CHAIN', T0 + 40 * MIN),
  sdvxScore(2, 'EXH', 10_000_000, 'PERFECT ULTIMATE CHAIN', T0 + 45 * MIN),
  sdvxScore(3, 'EXH', 8_000_000, 'FAILED', T0 + 50 * MIN),
  sdvxScore(2, 'MXM', 8_500_000, 'FAILED', T0 + 55 * MIN),
];

describe('scores (/scores/:scoreID)', () => {
  let t: TestApp;
  let alice: SignedUpUser;
  let bob: SignedUpUser;
  let carol: SignedUpUser;
  let admin: SignedUpUser;
  let importA: ImportDocument;
  let importB: ImportDocument;
  /** alice's scores s0..s12, by position in ALICE_SCORES (s12 is import B's). */
  let s: string[];
  let sessionA: string;
  let sessionB: string;
  const chart1MXM = fixtureChartID(1, 'MXM');

  const score = (id: string) => `/api/v1/scores/${id}`;

  beforeAll(async () => {
    t = await createTestApp();
    await loadScoreFixtures(t);
    [alice, bob, carol, admin] = [await signUp(t), await signUp(t), await signUp(t), await signUp(t)];
    await makeAdmin(t, admin.user.id);
    // Other players on 1-MXM, a day earlier: bob 9,600,000 and carol 9,400,000.
    await importSdvx(t.http(), [sdvxScore(1, 'MXM', 9_600_000, 'CLEAR', T0 - DAY)], { headers: bearer(await issueToken(bob, ['submit_score'])) });
    await importSdvx(carol.agent, [sdvxScore(1, 'MXM', 9_400_000, 'CLEAR', T0 - DAY)]);
    importA = await importSdvx(alice.agent, ALICE_SCORES);
    importB = await importSdvx(alice.agent, [sdvxScore(7, 'EXH', 10_000_000, 'PERFECT ULTIMATE CHAIN', T0 + DAY)]);
    s = [...importA.scoreIDs, ...importB.scoreIDs];
    sessionA = importA.createdSessions[0].sessionID;
    sessionB = importB.createdSessions[0].sessionID;
  });
  afterAll(async () => {
    await t.close();
  });

  it('starts from the state the imports computed', async () => {
    expect(s).toHaveLength(13);
    expect(importA.createdSessions).toEqual([{ sessionID: sessionA, type: 'Created' }]);
    const pb = (await storedPb(t, alice.user.id, chart1MXM))!;
    expect(pb.scoreData).toMatchObject({ score: 9_800_000, lamp: 'EXCESSIVE CLEAR' });
    expect(pb.calculatedData).toEqual({ VF6: 0.367 });
    expect(pb.composedFrom).toEqual([
      { name: 'Best Score', scoreID: s[1] },
      { name: 'Best Lamp', scoreID: s[0] },
    ]);
    expect(pb.rankingData).toEqual({ rank: 1, outOf: 3 });
    expect((await storedPb(t, bob.user.id, chart1MXM))?.rankingData.rank).toBe(2);
    expect((await storedPb(t, carol.user.id, chart1MXM))?.rankingData.rank).toBe(3);
    // Session A: the best ten VF6 of its twelve scores, averaged, × 50:
    // (3 × 0.462 + 2 × 0.438 + 0.359 + 0.346 + 0.338 + 0.323 + 0.278) / 10 × 50 = 3.906 × 5 = 19.53
    const session = await t.http().get(`/api/v1/sessions/${sessionA}`);
    expect(session.body.session.calculatedData.ProfileVF6).toBeCloseTo(19.53, 10);
    // Profile: the PBs 0.367 + 0.278 + 0.438 + 0.462 + 0.462 + 0.438 + 0.462 + 0.323 + 0.346 + 0.108 + 0.415 = 4.099
    const stats = await sdvxStats(t, alice.user.id);
    expect(stats!.ratings.VF6).toBeCloseTo(4.099, 10);
    expect(stats!.classes.vfClass).toBe('SIENNA_II');
  });

  describe('GET', () => {
    it('returns {score} to anyone, without song and chart', async () => {
      const res = await t.http().get(score(s[0]));
      expect(res.status).toBe(200);
      expect(Object.keys(res.body as object)).toEqual(['score']);
      expect(res.body.score).toMatchObject({
        scoreID: s[0],
        userID: alice.user.id,
        game: 'sdvx',
        playtype: 'Single',
        songID: 1,
        chartID: chart1MXM,
        scoreData: { score: 9_500_000, lamp: 'EXCESSIVE CLEAR', percent: 95, grade: 'AA+' },
        calculatedData: { VF6: 0.338 },
        comment: null,
        highlighted: false,
        timeAchieved: T0,
        importID: importA.importID,
        importType: 'ir/direct-manual',
        service: 'e2e',
      });
    });

    it('adds the song and chart with the getRelated presence parameter', async () => {
      const res = await t.http().get(`${score(s[0])}?getRelated`);
      expect(res.status).toBe(200);
      expect(res.body.score.scoreID).toBe(s[0]);
      expect(res.body.song).toMatchObject({ id: 1, title: 'Fixture Alpha' });
      expect(res.body.chart).toMatchObject({ chartID: chart1MXM, songID: 1, difficulty: 'MXM', levelNum: 18 });
    });

    it('404s an unknown score and 400s an unknown query parameter', async () => {
      expect((await t.http().get(score('S-no-such-score'))).status).toBe(404);
      expect((await t.http().get(`${score(s[0])}?related=1`)).status).toBe(400);
    });
  });

  describe('PATCH', () => {
    it('401s a guest', async () => {
      expect((await t.http().patch(score(s[0])).send({ comment: 'hi' })).status).toBe(401);
    });

    it('403s a token without customise_score', async () => {
      const token = await issueToken(alice, ['submit_score', 'delete_score', 'customise_session']);
      const res = await t.http().patch(score(s[0])).set(bearer(token)).send({ comment: 'hi' });
      expect(res.status).toBe(403);
      expect(res.body.message).toMatch(/customise_score/);
    });

    it("403s another user's session and token", async () => {
      expect((await bob.agent.patch(score(s[0])).send({ comment: 'hi' })).status).toBe(403);
      const token = await issueToken(bob, ['customise_score']);
      expect((await t.http().patch(score(s[0])).set(bearer(token)).send({ highlight: true })).status).toBe(403);
      expect((await t.http().get(score(s[0]))).body.score).toMatchObject({ comment: null, highlighted: false });
    });

    it('404s an unknown score', async () => {
      expect((await alice.agent.patch(score('S-no-such-score')).send({ comment: 'hi' })).status).toBe(404);
    });

    it.each([
      ['no field', {}, /Nothing was provided/],
      ['an empty comment', { comment: '' }, /comment/],
      ['a comment of 121 characters', { comment: 'x'.repeat(121) }, /comment/],
      ['a numeric comment', { comment: 5 }, /comment/],
      ['a non-boolean highlight', { highlight: 'yes' }, /highlight/],
      ['a null highlight', { highlight: null }, /highlight/],
      ['an unknown key', { comment: 'ok', pinned: true }, /pinned/],
    ])('400s %s', async (_what, body, message) => {
      const res = await alice.agent.patch(score(s[0])).send(body);
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(message);
    });

    it('sets a comment of 1 and of 120 characters (with a customise_score token) and unsets it with null', async () => {
      const token = await issueToken(alice, ['customise_score']);
      const long = await t
        .http()
        .patch(score(s[0]))
        .set(bearer(token))
        .send({ comment: 'y'.repeat(120) });
      expect(long.status).toBe(200);
      expect(long.body).toMatchObject({ scoreID: s[0], comment: 'y'.repeat(120), highlighted: false, scoreData: { score: 9_500_000 } });
      const short = await alice.agent.patch(score(s[0])).send({ comment: 'z' });
      expect(short.body.comment).toBe('z');
      expect((await t.http().get(score(s[0]))).body.score.comment).toBe('z');
      const unset = await alice.agent.patch(score(s[0])).send({ comment: null });
      expect(unset.status).toBe(200);
      expect(unset.body.comment).toBeNull();
      expect((await t.http().get(score(s[0]))).body.score.comment).toBeNull();
    });

    it('highlighting a score the PB is made of highlights the PB; unhighlighting clears it', async () => {
      const chart3MXM = fixtureChartID(3, 'MXM');
      const on = await alice.agent.patch(score(s[3])).send({ highlight: true, comment: 'first 19 PUC' });
      expect(on.status).toBe(200);
      expect(on.body).toMatchObject({ scoreID: s[3], highlighted: true, comment: 'first 19 PUC' });
      expect((await storedPb(t, alice.user.id, chart3MXM))?.highlighted).toBe(true);
      const off = await alice.agent.patch(score(s[3])).send({ highlight: false });
      expect(off.body).toMatchObject({ highlighted: false, comment: 'first 19 PUC' });
      expect((await storedPb(t, alice.user.id, chart3MXM))?.highlighted).toBe(false);
    });

    it('highlighting a score the PB is not made of leaves the PB alone', async () => {
      // 2-MXM: s2 (9,000,000 CLEAR) is both the best score and the best lamp; s11 (8,500,000 FAILED) is neither.
      const res = await alice.agent.patch(score(s[11])).send({ highlight: true });
      expect(res.body.highlighted).toBe(true);
      const pb = (await storedPb(t, alice.user.id, fixtureChartID(2, 'MXM')))!;
      expect(pb.composedFrom).toEqual([{ name: 'Best Score', scoreID: s[2] }]);
      expect(pb.highlighted).toBe(false);
    });
  });

  describe('DELETE', () => {
    it('401s a guest', async () => {
      expect((await t.http().delete(score(s[1]))).status).toBe(401);
    });

    it('403s a token without delete_score', async () => {
      const token = await issueToken(alice, ['submit_score', 'customise_score']);
      const res = await t.http().delete(score(s[1])).set(bearer(token));
      expect(res.status).toBe(403);
      expect(res.body.message).toMatch(/delete_score/);
    });

    it("403s another (non-admin) user's session and delete_score token", async () => {
      expect((await bob.agent.delete(score(s[1]))).status).toBe(403);
      expect(
        (
          await t
            .http()
            .delete(score(s[1]))
            .set(bearer(await issueToken(bob, ['delete_score'])))
        ).status,
      ).toBe(403);
      expect((await t.http().get(score(s[1]))).status).toBe(200);
    });

    it('404s an unknown score', async () => {
      expect((await alice.agent.delete(score('S-no-such-score'))).status).toBe(404);
    });

    it('409s while the owner has an import running, and deletes nothing', async () => {
      const release = await holdImportLock(t, alice.user.id);
      try {
        const res = await alice.agent.delete(score(s[1]));
        expect(res.status).toBe(409);
        expect((await t.http().get(score(s[1]))).status).toBe(200);
      } finally {
        await release();
      }
    });

    it('deletes the best score: the PB falls back, ranks shift, the session, the import and the profile are recomputed', async () => {
      const res = await alice.agent.delete(score(s[1]));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({});
      expect((await t.http().get(score(s[1]))).status).toBe(404);

      // The PB is now s0 alone: 9,500,000 EXCESSIVE CLEAR, VF6 0.338.
      const pb = (await storedPb(t, alice.user.id, chart1MXM))!;
      expect(pb.scoreData).toMatchObject({ score: 9_500_000, lamp: 'EXCESSIVE CLEAR', grade: 'AA+' });
      expect(pb.calculatedData).toEqual({ VF6: 0.338 });
      expect(pb.composedFrom).toEqual([{ name: 'Best Score', scoreID: s[0] }]);
      expect(pb.timeAchieved).toBe(T0);
      // bob's 9,600,000 now leads the chart.
      expect(pb.rankingData).toEqual({ rank: 2, outOf: 3 });
      expect(await storedPb(t, bob.user.id, chart1MXM)).toMatchObject({ rankingData: { rank: 1, outOf: 3 } });
      expect(await storedPb(t, carol.user.id, chart1MXM)).toMatchObject({ rankingData: { rank: 3, outOf: 3 } });

      // Session A without s1: the tenth best is now s11's 0.122: (3.906 − 0.359 + 0.122) × 5 = 18.345.
      const session = await t.http().get(`/api/v1/sessions/${sessionA}`);
      expect(session.body.session.scores).toEqual(s.slice(0, 12).filter((id) => id !== s[1]));
      expect(session.body.session.calculatedData.ProfileVF6).toBeCloseTo(18.345, 10);

      const imp = await t.http().get(`/api/v1/imports/${importA.importID}`);
      expect(imp.body.import.scoreIDs).toEqual(importA.scoreIDs.filter((id) => id !== s[1]));

      // Profile: 4.099 − 0.367 + 0.338 = 4.070.
      const stats = await sdvxStats(t, alice.user.id);
      expect(stats!.ratings.VF6).toBeCloseTo(4.07, 10);
      expect(stats!.classes.vfClass).toBe('SIENNA_II');
    });

    it("deletes a session's only score (with a delete_score token): the session, the PB and the import it was the last score of go", async () => {
      const res = await t
        .http()
        .delete(score(s[12]))
        .set(bearer(await issueToken(alice, ['delete_score'])));
      expect(res.status).toBe(200);
      expect((await t.http().get(`/api/v1/sessions/${sessionB}`)).status).toBe(404);
      expect(await storedPb(t, alice.user.id, fixtureChartID(7, 'EXH'))).toBeUndefined();
      expect((await t.http().get(`/api/v1/imports/${importB.importID}`)).status).toBe(404);
      // Profile: 4.070 − 0.415 = 3.655.
      expect((await sdvxStats(t, alice.user.id))!.ratings.VF6).toBeCloseTo(3.655, 10);
    });

    it("lets an administrator delete another user's scores; the derived vfClass follows the rating down", async () => {
      for (const id of [s[4], s[5], s[7]]) expect((await admin.agent.delete(score(id))).status).toBe(200);
      for (const song of [4, 5, 7]) expect(await storedPb(t, alice.user.id, fixtureChartID(song, 'MXM'))).toBeUndefined();
      // Profile: 3.655 − 3 × 0.462 = 2.269, under SIENNA_II's 2.5.
      const stats = await sdvxStats(t, alice.user.id);
      expect(stats!.ratings.VF6).toBeCloseTo(2.269, 10);
      expect(stats!.classes.vfClass).toBe('SIENNA_I');
      // Session A keeps eight scores: fewer than ten, so no ProfileVF6.
      const session = await t.http().get(`/api/v1/sessions/${sessionA}`);
      expect(session.body.session.scores).toHaveLength(8);
      expect(session.body.session.calculatedData.ProfileVF6).toBeNull();
    });

    it('an administrator token still needs delete_score', async () => {
      const token = await issueToken(admin, ['customise_score']);
      expect((await t.http().delete(score(s[0])).set(bearer(token))).status).toBe(403);
    });
  });
});
