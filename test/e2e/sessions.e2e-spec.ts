import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestApp, type TestApp } from '../support/app.js';
import { fixtureChartID, importSdvx, loadScoreFixtures, sdvxScore, type SdvxDifficulty } from '../support/score-fixtures.js';
import { bearer, issueToken, signUp, type SignedUpUser } from '../support/users.js';

const MIN = 60_000;
const DAY = 24 * 60 * MIN;
const T0 = Date.UTC(2024, 2, 5, 18);

/*
 * Ten PUCs five minutes apart: one session. A PUC's VF6 is level × 2 × 1 × 105 × 110 / 1e6, floored
 * to 0.001: 14 → 0.323, 15 → 0.346, 16 → 0.369, 17 → 0.392, 18 → 0.415, 19 → 0.438.
 */
const SESSION_CHARTS: [number, SdvxDifficulty, number][] = [
  [1, 'EXH', 0.323],
  [2, 'EXH', 0.346],
  [3, 'EXH', 0.369],
  [4, 'EXH', 0.369],
  [5, 'EXH', 0.392],
  [6, 'EXH', 0.392],
  [7, 'EXH', 0.415],
  [1, 'MXM', 0.415],
  [2, 'MXM', 0.392],
  [3, 'MXM', 0.438],
];

describe('sessions (/sessions/:sessionID)', () => {
  let t: TestApp;
  let alice: SignedUpUser;
  let bob: SignedUpUser;
  let sessionID: string;
  let loneSessionID: string;
  let scoreIDs: string[];

  const session = (id: string) => `/api/v1/sessions/${id}`;

  beforeAll(async () => {
    t = await createTestApp();
    await loadScoreFixtures(t);
    [alice, bob] = [await signUp(t), await signUp(t)];
    const token = await issueToken(alice, ['submit_score']);
    // Sent latest first: the session lists its scores in play order all the same.
    const doc = await importSdvx(
      t.http(),
      SESSION_CHARTS.map(([song, diff], i) => sdvxScore(song, diff, 10_000_000, 'PERFECT ULTIMATE CHAIN', T0 + i * 5 * MIN)).reverse(),
      { headers: bearer(token) },
    );
    scoreIDs = [...doc.scoreIDs].reverse();
    sessionID = doc.createdSessions[0].sessionID;
    // 4-MXM (20) 9,000,000 A+ CLEAR: 40 × 0.9 × 91 × 100 = 327600 → 0.327; alone in its session a day later.
    loneSessionID = (await importSdvx(alice.agent, [sdvxScore(4, 'MXM', 9_000_000, 'CLEAR', T0 + DAY)])).createdSessions[0].sessionID;
  });
  afterAll(async () => {
    await t.close();
  });

  describe('GET', () => {
    it('returns {session, scores, songs, charts, user} to anyone', async () => {
      const res = await t.http().get(session(sessionID));
      expect(res.status).toBe(200);
      expect(Object.keys(res.body as object).sort()).toEqual(['charts', 'scores', 'session', 'songs', 'user']);
      expect(res.body.session).toMatchObject({
        sessionID,
        name: expect.any(String),
        desc: null,
        userID: alice.user.id,
        game: 'sdvx',
        playtype: 'Single',
        scores: scoreIDs,
        highlighted: false,
        timeStarted: T0,
        timeEnded: T0 + 45 * MIN,
      });
      // ProfileVF6: the mean of the best ten VF6 × 50 = (0.323 + 0.346 + 2 × 0.369 + 3 × 0.392 + 2 × 0.415 + 0.438) / 10 × 50 = 3.851 × 5 = 19.255
      expect(res.body.session.calculatedData.ProfileVF6).toBeCloseTo(19.255, 10);
      expect((res.body.scores as { scoreID: string }[]).map((x) => x.scoreID)).toEqual(scoreIDs);
      expect((res.body.scores as { calculatedData: { VF6: number } }[]).map((x) => x.calculatedData.VF6)).toEqual(SESSION_CHARTS.map(([, , vf]) => vf));
      expect((res.body.songs as { id: number }[]).map((x) => x.id).sort()).toEqual([1, 2, 3, 4, 5, 6, 7]);
      expect((res.body.charts as { chartID: string }[]).map((x) => x.chartID).sort()).toEqual(
        SESSION_CHARTS.map(([song, diff]) => fixtureChartID(song, diff)).sort(),
      );
      expect(res.body.user).toMatchObject({ id: alice.user.id, username: alice.username });
    });

    it('gives a session of fewer than ten scores no ProfileVF6', async () => {
      const res = await t.http().get(session(loneSessionID));
      expect(res.body.session.scores).toHaveLength(1);
      expect(res.body.session.calculatedData).toEqual({ ProfileVF6: null });
      expect(res.body.scores[0].calculatedData).toEqual({ VF6: 0.327 });
    });

    it('404s an unknown session', async () => {
      expect((await t.http().get(session('Q-no-such-session'))).status).toBe(404);
    });
  });

  describe('PATCH', () => {
    it('401s a guest', async () => {
      expect((await t.http().patch(session(sessionID)).send({ name: 'Guest rename' })).status).toBe(401);
    });

    it('403s a token without customise_session', async () => {
      const token = await issueToken(alice, ['submit_score', 'customise_score', 'delete_score']);
      const res = await t.http().patch(session(sessionID)).set(bearer(token)).send({ name: 'Token rename' });
      expect(res.status).toBe(403);
      expect(res.body.message).toMatch(/customise_session/);
    });

    it("403s another user's session and token", async () => {
      expect((await bob.agent.patch(session(sessionID)).send({ name: 'Not yours' })).status).toBe(403);
      const token = await issueToken(bob, ['customise_session']);
      expect((await t.http().patch(session(sessionID)).set(bearer(token)).send({ highlight: true })).status).toBe(403);
      expect((await t.http().get(session(sessionID))).body.session).toMatchObject({ highlighted: false, desc: null });
    });

    it('404s an unknown session', async () => {
      expect((await alice.agent.patch(session('Q-no-such-session')).send({ name: 'Nothing here' })).status).toBe(404);
    });

    it.each([
      ['no field', {}, /Nothing was provided/],
      ['a name of 2 characters', { name: 'ab' }, /name/],
      ['a name of 81 characters', { name: 'n'.repeat(81) }, /name/],
      ['a null name', { name: null }, /name/],
      ['a numeric name', { name: 12345 }, /name/],
      ['a desc of 2 characters', { desc: 'ab' }, /desc/],
      ['a desc of 121 characters', { desc: 'd'.repeat(121) }, /desc/],
      ['a string highlight', { highlight: 'true' }, /highlight/],
      ['an unknown key', { name: 'Fine name', scores: [] }, /scores/],
    ])('400s %s', async (_what, body, message) => {
      const res = await alice.agent.patch(session(sessionID)).send(body);
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(message);
    });

    it('accepts the length limits and returns the SessionDocument', async () => {
      const shortest = await alice.agent.patch(session(sessionID)).send({ name: 'abc', desc: 'xyz' });
      expect(shortest.status).toBe(200);
      expect(shortest.body).toMatchObject({ sessionID, name: 'abc', desc: 'xyz', highlighted: false, scores: scoreIDs, userID: alice.user.id });
      expect(shortest.body.calculatedData.ProfileVF6).toBeCloseTo(19.255, 10);
      const longest = await alice.agent.patch(session(sessionID)).send({ name: 'n'.repeat(80), desc: 'd'.repeat(120) });
      expect(longest.status).toBe(200);
      expect(longest.body).toMatchObject({ name: 'n'.repeat(80), desc: 'd'.repeat(120) });
    });

    it('changes only what is sent (with a customise_session token), and GET shows it', async () => {
      const token = await issueToken(alice, ['customise_session']);
      const res = await t.http().patch(session(sessionID)).set(bearer(token)).send({ highlight: true });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ name: 'n'.repeat(80), desc: 'd'.repeat(120), highlighted: true });
      const renamed = await t.http().patch(session(sessionID)).set(bearer(token)).send({ name: 'Evening of PUCs' });
      expect(renamed.body).toMatchObject({ name: 'Evening of PUCs', desc: 'd'.repeat(120), highlighted: true });
      const got = await t.http().get(session(sessionID));
      expect(got.body.session).toMatchObject({ name: 'Evening of PUCs', desc: 'd'.repeat(120), highlighted: true, scores: scoreIDs });
      // The other session is untouched.
      expect((await t.http().get(session(loneSessionID))).body.session).toMatchObject({ desc: null, highlighted: false });
    });

    it('clears the description with desc: null (a session starts without one)', async () => {
      const res = await alice.agent.patch(session(sessionID)).send({ desc: null });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ name: 'Evening of PUCs', desc: null, highlighted: true });
      expect((await t.http().get(session(sessionID))).body.session.desc).toBeNull();
    });
  });
});
