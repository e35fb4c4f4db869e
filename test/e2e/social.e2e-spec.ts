import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestApp, type TestApp } from '../support/app.js';
import { importSdvx, loadScoreFixtures, sdvxScore } from '../support/score-fixtures.js';
import { failed, issueTachiToken, ok, signUpTachi, polledImport } from '../support/tachi.js';
import { bearer, issueToken, signUp, type SignedUpUser } from '../support/users.js';

const T0 = Date.UTC(2024, 2, 1, 12);
const HOUR = 3_600_000;

interface UserDoc {
  id: number;
}
interface ActivityDoc {
  sessions: { userID: number; timeStarted: number; scores: string[] }[];
  classRaises: unknown[];
  users: UserDoc[];
}

const ids = (body: unknown) => (body as UserDoc[]).map((u) => u.id);

describe('Social (spec profile): rivals, following, activity, stats', () => {
  let t: TestApp;
  let alice: SignedUpUser;
  let bob: SignedUpUser;
  let carol: SignedUpUser;
  let dave: SignedUpUser;
  const rivalsPath = (u: SignedUpUser | number, rest = '') => `/api/v1/users/${typeof u === 'number' ? u : u.user.id}/games/sdvx/Single/rivals${rest}`;

  beforeAll(async () => {
    t = await createTestApp({ MAX_RIVALS: '2', MAX_FOLLOWING: '2' });
    await loadScoreFixtures(t);
    [alice, bob, carol, dave] = [await signUp(t), await signUp(t), await signUp(t), await signUp(t)];
    // alice: two sessions (a day apart); bob and carol one each; dave never plays sdvx.
    await importSdvx(alice.agent, [sdvxScore(1, 'EXH', 9_500_000, 'CLEAR', T0), sdvxScore(2, 'EXH', 9_600_000, 'CLEAR', T0 + 24 * HOUR)]);
    await importSdvx(bob.agent, [sdvxScore(1, 'EXH', 9_700_000, 'CLEAR', T0 + 2 * HOUR)]);
    await importSdvx(carol.agent, [sdvxScore(3, 'EXH', 9_800_000, 'CLEAR', T0 + 3 * HOUR)]);
  });
  afterAll(() => t.close());

  it('rivals start empty; PUT replaces the set, GET and challengers follow, and the new rival is notified', async () => {
    expect((await t.http().get(rivalsPath(alice))).body).toEqual([]);
    const put = await alice.agent.put(rivalsPath(alice)).send({ rivalIDs: [bob.user.id, carol.user.id] });
    expect([put.status, ids(put.body)]).toEqual([200, [bob.user.id, carol.user.id]]);
    expect(ids((await t.http().get(rivalsPath(alice))).body)).toEqual([bob.user.id, carol.user.id]);
    expect(ids((await t.http().get(rivalsPath(bob, '/challengers'))).body)).toEqual([alice.user.id]);
    const notes = (await bob.agent.get(`/api/v1/users/${bob.user.id}/notifications`)).body as { body: { type: string; content: object } }[];
    expect(notes.map((n) => n.body)).toContainEqual({ type: 'RIVALED_BY', content: { userID: alice.user.id, game: 'sdvx', playtype: 'Single' } });

    // Replacing: carol stays, bob goes.
    await alice.agent
      .put(rivalsPath(alice))
      .send({ rivalIDs: [carol.user.id] })
      .expect(200);
    expect(ids((await t.http().get(rivalsPath(alice))).body)).toEqual([carol.user.id]);
    expect((await t.http().get(rivalsPath(bob, '/challengers'))).body).toEqual([]);
  });

  it('PUT rivals: 400 over MAX_RIVALS, yourself, repeats, a non-player, bad bodies; 401 guests; 403 others and tokens without manage_rivals', async () => {
    const bad = async (body: object, message: RegExp) => {
      const res = await alice.agent.put(rivalsPath(alice)).send(body);
      expect([res.status, (res.body as { message: string }).message]).toEqual([400, expect.stringMatching(message)]);
    };
    await bad({ rivalIDs: [bob.user.id, carol.user.id, dave.user.id] }, /at most 2 rivals/);
    await bad({ rivalIDs: [alice.user.id] }, /your own rival/);
    await bad({ rivalIDs: [bob.user.id, bob.user.id] }, /more than once/);
    await bad({ rivalIDs: [dave.user.id] }, new RegExp(`not played sdvx Single.*${dave.user.id}`));
    await bad({ rivalIDs: [999_999] }, /999999/);
    await bad({ rivalIDs: 'bob' }, /rivalIDs/);
    await bad({ rivalIDs: [-1] }, /positive/);
    await t.http().put(rivalsPath(alice)).send({ rivalIDs: [] }).expect(401);
    await bob.agent.put(rivalsPath(alice)).send({ rivalIDs: [] }).expect(403);
    const noPerm = await issueToken(alice, ['customise_profile']);
    await t.http().put(rivalsPath(alice)).set(bearer(noPerm)).send({ rivalIDs: [] }).expect(403);
    const withPerm = await issueToken(alice, ['manage_rivals']);
    await t
      .http()
      .put(rivalsPath(alice))
      .set(bearer(withPerm))
      .send({ rivalIDs: [carol.user.id] })
      .expect(200);
    // Nothing above changed the set.
    expect(ids((await t.http().get(rivalsPath(alice))).body)).toEqual([carol.user.id]);
    // A user who has not played the GPT has no rivals page.
    await t.http().get(rivalsPath(dave)).expect(404);
  });

  it("rivals/activity holds only the rivals' sessions on the GPT", async () => {
    const feed = (await t.http().get(rivalsPath(alice, '/activity')).expect(200)).body as ActivityDoc;
    expect(feed.sessions.map((s) => s.userID)).toEqual([carol.user.id]);
    expect(ids(feed.users)).toEqual([carol.user.id]);
  });

  it('following: add, list, 409 twice, 400 yourself and past MAX_FOLLOWING, 404 unknown, remove, 409 not followed, 403 others', async () => {
    const path = (rest = '') => `/api/v1/users/${alice.user.id}/following${rest}`;
    expect((await t.http().get(path())).body).toEqual([]);
    expect(ids((await alice.agent.post(path('/add')).send({ userID: bob.user.id }).expect(200)).body)).toEqual([bob.user.id]);
    await alice.agent.post(path('/add')).send({ userID: bob.user.id }).expect(409);
    await alice.agent.post(path('/add')).send({ userID: alice.user.id }).expect(400);
    await alice.agent.post(path('/add')).send({ userID: 999_999 }).expect(404);
    await alice.agent.post(path('/add')).send({ userID: 'x' }).expect(400);
    await alice.agent.post(path('/add')).send({ userID: dave.user.id }).expect(200);
    const over = await alice.agent.post(path('/add')).send({ userID: carol.user.id });
    expect([over.status, (over.body as { message: string }).message]).toEqual([400, expect.stringMatching(/at most 2/)]);
    expect(ids((await t.http().get(path())).body)).toEqual([bob.user.id, dave.user.id]);
    await bob.agent.post(path('/add')).send({ userID: carol.user.id }).expect(403);
    await t.http().post(path('/add')).send({ userID: carol.user.id }).expect(401);
    expect(ids((await alice.agent.post(path('/remove')).send({ userID: dave.user.id }).expect(200)).body)).toEqual([bob.user.id]);
    await alice.agent.post(path('/remove')).send({ userID: dave.user.id }).expect(409);
    await alice.agent.post(path('/remove')).send({ userID: 999_999 }).expect(404);
  });

  it('user activity: own sessions, newest first; includeRivals and includeFollowers add others; startTime pages', async () => {
    const path = `/api/v1/users/${alice.user.id}/activity`;
    const own = (await t.http().get(path).expect(200)).body as ActivityDoc;
    expect(own.sessions.map((s) => s.userID)).toEqual([alice.user.id, alice.user.id]);
    expect(own.sessions[0].timeStarted).toBeGreaterThan(own.sessions[1].timeStarted);
    expect(own.sessions[0].scores).toHaveLength(1);
    expect(ids(own.users)).toEqual([alice.user.id]);

    const withRivals = (await t.http().get(`${path}?includeRivals=true`).expect(200)).body as ActivityDoc;
    expect(new Set(withRivals.sessions.map((s) => s.userID))).toEqual(new Set([alice.user.id, carol.user.id]));
    const withFollowed = (await t.http().get(`${path}?includeFollowers=true`).expect(200)).body as ActivityDoc;
    expect(new Set(withFollowed.sessions.map((s) => s.userID))).toEqual(new Set([alice.user.id, bob.user.id]));

    const page2 = (await t.http().get(`${path}?startTime=${own.sessions[0].timeStarted}`).expect(200)).body as ActivityDoc;
    expect(page2.sessions).toEqual([own.sessions[1]]);

    await t.http().get(`${path}?includeRivals=yes`).expect(400);
    await t.http().get(`${path}?startTime=-5`).expect(400);
    await t.http().get(`${path}?sessions=5`).expect(400);
    await t.http().get(`${path}?other=1`).expect(400);
  });

  it('GPT and global activity hold every player; the UGPT feed only the user there; stats count scores and sessions', async () => {
    const gpt = (await t.http().get('/api/v1/games/sdvx/Single/activity').expect(200)).body as ActivityDoc;
    expect(gpt.sessions).toHaveLength(4);
    expect(gpt.sessions.map((s) => s.timeStarted)).toEqual([...gpt.sessions.map((s) => s.timeStarted)].sort((a, b) => b - a));
    expect((await t.http().get('/api/v1/activity').expect(200)).body).toEqual(gpt);
    await t.http().get('/api/v1/games/sdvx/Nope/activity').expect(404);
    const ugpt = (await t.http().get(`/api/v1/users/${bob.user.id}/games/sdvx/Single/activity`).expect(200)).body as ActivityDoc;
    expect(ugpt.sessions.map((s) => s.userID)).toEqual([bob.user.id]);
    expect((await t.http().get(`/api/v1/users/${alice.user.id}/stats`).expect(200)).body).toEqual({ scores: 2, sessions: 2 });
    expect((await t.http().get(`/api/v1/users/${dave.user.id}/stats`).expect(200)).body).toEqual({ scores: 0, sessions: 0 });
    await t.http().get('/api/v1/users/999999/stats').expect(404);
  });

  it('deleting a profile removes its rivals both ways; deleting an account its follows', async () => {
    const erin = await signUp(t);
    await importSdvx(erin.agent, [sdvxScore(4, 'EXH', 9_000_000, 'CLEAR', T0 + 5 * HOUR)]);
    await erin.agent
      .put(rivalsPath(erin))
      .send({ rivalIDs: [bob.user.id] })
      .expect(200);
    await bob.agent
      .put(rivalsPath(bob))
      .send({ rivalIDs: [erin.user.id] })
      .expect(200);
    await bob.agent.post(`/api/v1/users/${bob.user.id}/following/add`).send({ userID: erin.user.id }).expect(200);
    await erin.agent.delete(`/api/v1/users/${erin.user.id}/games/sdvx/Single`).send({ '!password': erin.password }).expect(200);
    expect((await t.http().get(rivalsPath(bob))).body).toEqual([]);
    expect((await t.http().get(rivalsPath(bob, '/challengers'))).body).toEqual([]);
    await erin.agent.delete(`/api/v1/users/${erin.user.id}`).send({ '!password': erin.password }).expect(200);
    expect(ids((await t.http().get(`/api/v1/users/${bob.user.id}/following`)).body)).toEqual([]);
  });
});

describe('Social (tachi profile)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ API_PROFILE: 'tachi' });
    await loadScoreFixtures(t);
  });
  afterAll(() => t.close());

  it("/config/max-rivals, the UGPT settings' rivals and gameSpecific, rivals in the envelope, activity in Tachi's shape", async () => {
    expect(ok<number>(await t.http().get('/api/v1/config/max-rivals'))).toBe(5);
    const [a, b] = [await signUpTachi(t), await signUpTachi(t)];
    const importAs = async (u: typeof a, score: object) =>
      polledImport(
        t,
        await u.agent.post('/api/v1/ir/direct-manual/import').send({ meta: { game: 'sdvx', playtype: 'Single', service: 'e2e' }, scores: [score] }),
      );
    await importAs(a, sdvxScore(1, 'EXH', 9_500_000, 'CLEAR', T0));
    await importAs(b, sdvxScore(1, 'EXH', 9_700_000, 'CLEAR', T0 + HOUR));
    const base = (u: typeof a) => `/api/v1/users/${u.user.id}/games/sdvx/Single`;
    const token = await issueTachiToken(a, ['manage_rivals']);
    ok(
      await t
        .http()
        .put(`${base(a)}/rivals`)
        .set(bearer(token))
        .send({ rivalIDs: [b.user.id] }),
    );
    failed(
      await t
        .http()
        .put(`${base(a)}/rivals`)
        .set(bearer(token))
        .send({ rivalIDs: [a.user.id] }),
      400,
    );
    const settings = ok<{ rivals: number[]; preferences: { gameSpecific: object } }>(await t.http().get(`${base(a)}/settings`));
    expect(settings.rivals).toEqual([b.user.id]);
    expect(settings.preferences.gameSpecific).toEqual({});
    expect(ids(ok(await t.http().get(`${base(b)}/rivals/challengers`)))).toEqual([a.user.id]);
    const feed = ok<Record<string, unknown[]>>(await t.http().get(`/api/v1/users/${a.user.id}/activity?includeRivals=true`));
    expect(Object.keys(feed).sort()).toEqual(
      ['achievedClasses', 'charts', 'goalSubs', 'goals', 'questSubs', 'quests', 'recentSessions', 'recentlyHighlightedScores', 'songs', 'users'].sort(),
    );
    expect(feed.recentSessions).toHaveLength(2);
    expect(feed.recentSessions[0]).toEqual(expect.objectContaining({ scoreIDs: expect.any(Array), highlight: false }));
  });
});
