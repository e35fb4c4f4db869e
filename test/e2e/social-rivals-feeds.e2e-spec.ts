import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestApp, type TestApp } from '../support/app.js';
import { storeGoals, storeGoalSubs, storeQuests, storeQuestSubs } from '../support/db-fixtures.js';
import { fixtureChartID, importSdvx, loadScoreFixtures, sdvxScore } from '../support/score-fixtures.js';
import { failed, ok, signUpTachi, polledImport } from '../support/tachi.js';
import { signUp, type SignedUpUser } from '../support/users.js';

const T0 = Date.UTC(2024, 2, 1, 12);
const MIN = 60_000;
const HOUR = 3_600_000;
const SONG1 = fixtureChartID(1, 'EXH');
const SONG2 = fixtureChartID(2, 'EXH');
const SONG3 = fixtureChartID(3, 'EXH');

interface Pb {
  userID: number;
  chartID: string;
  calculatedData: Record<string, number | null>;
  rankingData: { rank: number; outOf: number; rivalRank?: number | null };
}
interface User {
  id: number;
}
interface PbBoard {
  pbs: Pb[];
  songs: { id: number }[];
  charts: { chartID: string }[];
  users: User[];
}

const ids = (users: readonly User[]) => users.map((u) => u.id);
const owners = (pbs: readonly Pb[]) => pbs.map((p) => p.userID);

function goalRow(goalID: string) {
  return {
    goalID,
    game: 'sdvx',
    playtype: 'Single',
    name: `Goal ${goalID}`,
    charts: { type: 'single', data: SONG1 },
    criteria: { key: 'score', value: 1, mode: 'single' },
  } as never;
}

function goalSub(
  userID: number,
  goalID: string,
  values: { achieved: boolean; timeAchieved?: number | null; lastInteraction?: number | null; instant?: boolean },
) {
  return {
    userID,
    goalID,
    game: 'sdvx',
    playtype: 'Single',
    achieved: values.achieved,
    timeAchieved: values.timeAchieved ?? null,
    lastInteraction: values.lastInteraction ?? null,
    progress: values.achieved ? 1 : 0,
    progressHuman: values.achieved ? '1' : '0',
    outOf: 1,
    outOfHuman: '1',
    wasInstantlyAchieved: values.instant ?? false,
    wasAssignedStandalone: true,
  };
}

describe('Social (spec profile): rival PB leaderboard, rival chart PBs, recent summary, the feeds’ scores and goals, the follow limit', () => {
  let t: TestApp;
  let a: SignedUpUser;
  let b: SignedUpUser;
  let c: SignedUpUser;
  let d: SignedUpUser;
  let e: SignedUpUser;
  let aScores: string[];
  const ugpt = (u: SignedUpUser | number, rest: string) => `/api/v1/users/${typeof u === 'number' ? u : u.user.id}/games/sdvx/Single${rest}`;

  beforeAll(async () => {
    t = await createTestApp({ MAX_FOLLOWING: '2' });
    await loadScoreFixtures(t);
    [a, b, c, d, e] = [await signUp(t), await signUp(t), await signUp(t), await signUp(t), await signUp(t)];
    // One session for a (two scores 30 minutes apart).
    aScores = (await importSdvx(a.agent, [sdvxScore(1, 'EXH', 9_500_000, 'CLEAR', T0), sdvxScore(2, 'EXH', 9_000_000, 'CLEAR', T0 + 30 * MIN)])).scoreIDs;
    await importSdvx(b.agent, [sdvxScore(1, 'EXH', 9_700_000, 'CLEAR', T0 + 2 * HOUR)]);
    await importSdvx(c.agent, [
      sdvxScore(1, 'EXH', 9_400_000, 'CLEAR', T0 + 3 * HOUR),
      sdvxScore(2, 'EXH', 9_900_000, 'CLEAR', T0 + 3 * HOUR + MIN),
      sdvxScore(3, 'EXH', 9_600_000, 'CLEAR', T0 + 3 * HOUR + 2 * MIN),
    ]);
    // d is the best on song 1 but nobody's rival.
    await importSdvx(d.agent, [sdvxScore(1, 'EXH', 9_800_000, 'CLEAR', T0 + 4 * HOUR)]);
    await a.agent
      .put(ugpt(a, '/rivals'))
      .send({ rivalIDs: [b.user.id, c.user.id] })
      .expect(200);
  });
  afterAll(() => t.close());

  it('rivals/pb-leaderboard: the best PBs of the user and their rivals by a score algorithm, with songs, charts and users', async () => {
    const board = (await t.http().get(ugpt(a, '/rivals/pb-leaderboard')).expect(200)).body as PbBoard;
    // a 2, b 1, c 3: d (not a rival) is left out.
    expect(board.pbs).toHaveLength(6);
    expect(new Set(owners(board.pbs))).toEqual(new Set([a.user.id, b.user.id, c.user.id]));
    const vf6 = board.pbs.map((p) => p.calculatedData.VF6 ?? -1);
    expect(vf6).toEqual([...vf6].sort((x, y) => y - x));
    // Same chart, higher score, higher VF6: c's song 2 comes before a's.
    const song2 = board.pbs.filter((p) => p.chartID === SONG2).map((p) => p.userID);
    expect(song2).toEqual([c.user.id, a.user.id]);
    expect(new Set(board.charts.map((ch) => ch.chartID))).toEqual(new Set([SONG1, SONG2, SONG3]));
    expect(new Set(board.songs.map((s) => s.id))).toEqual(new Set([1, 2, 3]));
    expect(new Set(ids(board.users))).toEqual(new Set([a.user.id, b.user.id, c.user.id]));

    const two = (await t.http().get(ugpt(a, '/rivals/pb-leaderboard?limit=2&alg=VF6')).expect(200)).body as PbBoard;
    expect(two.pbs).toEqual(board.pbs.slice(0, 2));
    // Without rivals: only the user's own PBs.
    expect(owners(((await t.http().get(ugpt(d, '/rivals/pb-leaderboard')).expect(200)).body as PbBoard).pbs)).toEqual([d.user.id]);
  });

  it('rivals/pb-leaderboard: 400 for an unknown algorithm or limit out of 1–100; 404 for an unknown user or a user who has not played', async () => {
    const bad = await t.http().get(ugpt(a, '/rivals/pb-leaderboard?alg=nope'));
    expect([bad.status, (bad.body as { message: string }).message]).toEqual([400, expect.stringMatching(/Invalid score rating algorithm 'nope'/)]);
    await t.http().get(ugpt(a, '/rivals/pb-leaderboard?limit=101')).expect(400);
    await t.http().get(ugpt(a, '/rivals/pb-leaderboard?limit=0')).expect(400);
    await t.http().get(ugpt(999_999, '/rivals/pb-leaderboard')).expect(404);
    await t.http().get(ugpt(e, '/rivals/pb-leaderboard')).expect(404);
  });

  it("pbs/:chartID/rivals: the rivals' PBs best first, then the user's own when there is one; the rivals; 404 for an unknown chart", async () => {
    const song1 = (
      await t
        .http()
        .get(ugpt(a, `/pbs/${SONG1}/rivals`))
        .expect(200)
    ).body as { pbs: Pb[]; rivals: User[] };
    expect(owners(song1.pbs)).toEqual([b.user.id, c.user.id, a.user.id]);
    expect(song1.pbs.map((p) => p.rankingData)).toEqual([
      { rank: 2, outOf: 4 },
      { rank: 4, outOf: 4 },
      { rank: 3, outOf: 4 },
    ]);
    expect(ids(song1.rivals)).toEqual([b.user.id, c.user.id]);
    // a has no PB on song 3: only c's.
    expect(
      owners(
        (
          (
            await t
              .http()
              .get(ugpt(a, `/pbs/${SONG3}/rivals`))
              .expect(200)
          ).body as { pbs: Pb[] }
        ).pbs,
      ),
    ).toEqual([c.user.id]);
    // b has no rivals and no PB on song 2.
    expect(
      (
        await t
          .http()
          .get(ugpt(b, `/pbs/${SONG2}/rivals`))
          .expect(200)
      ).body,
    ).toEqual({ pbs: [], rivals: [] });
    const unknown = await t.http().get(ugpt(a, '/pbs/no-such-chart/rivals'));
    expect([unknown.status, (unknown.body as { message: string }).message]).toEqual([404, expect.stringMatching(/no-such-chart does not exist/)]);
    await t
      .http()
      .get(ugpt(e, `/pbs/${SONG1}/rivals`))
      .expect(404);
  });

  it('recent-summary: scores imported, sessions ended, goals achieved and moved in the last 16 hours', async () => {
    const now = Date.now();
    await importSdvx(e.agent, [sdvxScore(1, 'EXH', 9_100_000, 'CLEAR', now - HOUR), sdvxScore(2, 'EXH', 9_100_000, 'CLEAR', T0)]);
    await storeGoals(t, [goalRow('G-sum-1'), goalRow('G-sum-2'), goalRow('G-sum-3'), goalRow('G-sum-4'), goalRow('G-sum-5')]);
    await storeGoalSubs(t, [
      goalSub(e.user.id, 'G-sum-1', { achieved: true, timeAchieved: now - 2 * HOUR }),
      // Achieved on subscribing: not an achievement of the day.
      goalSub(e.user.id, 'G-sum-2', { achieved: true, timeAchieved: now - HOUR, instant: true }),
      // Achieved before the window.
      goalSub(e.user.id, 'G-sum-3', { achieved: true, timeAchieved: now - 17 * HOUR }),
      goalSub(e.user.id, 'G-sum-4', { achieved: false, lastInteraction: now - 3 * HOUR }),
      goalSub(e.user.id, 'G-sum-5', { achieved: false, lastInteraction: now - 20 * HOUR }),
    ]);
    const res = await t.http().get(`/api/v1/users/${e.user.id}/recent-summary`).expect(200);
    const body = res.body as {
      since: number;
      playcount: number;
      sessions: { timeEnded: number }[];
      achievedGoalSubs: { goalID: string }[];
      improvedGoalSubs: { goalID: string }[];
      goals: { goalID: string }[];
    };
    expect(body.since).toBeGreaterThanOrEqual(now - 16 * HOUR);
    expect(body.since).toBeLessThanOrEqual(Date.now() - 16 * HOUR);
    expect(body.playcount).toBe(2);
    // The T0 session ended years ago.
    expect(body.sessions.map((s) => s.timeEnded)).toEqual([now - HOUR]);
    expect(body.achievedGoalSubs.map((g) => g.goalID)).toEqual(['G-sum-1']);
    expect(body.improvedGoalSubs.map((g) => g.goalID)).toEqual(['G-sum-4']);
    expect(body.goals.map((g) => g.goalID).sort()).toEqual(['G-sum-1', 'G-sum-4']);
    // Someone who did nothing lately.
    const idle = await signUp(t);
    expect((await t.http().get(`/api/v1/users/${idle.user.id}/recent-summary`).expect(200)).body).toMatchObject({
      playcount: 0,
      sessions: [],
      achievedGoalSubs: [],
      improvedGoalSubs: [],
      goals: [],
    });
    await t.http().get('/api/v1/users/999999/recent-summary').expect(404);
  });

  it('the activity feeds list the window’s highlighted scores (with songs and charts) and achieved goals and quests', async () => {
    await a.agent.patch(`/api/v1/scores/${aScores[0]}`).send({ highlight: true }).expect(200);
    await storeGoals(t, [goalRow('G-feed-in'), goalRow('G-feed-out')]);
    await storeGoalSubs(t, [
      goalSub(a.user.id, 'G-feed-in', { achieved: true, timeAchieved: T0 + 10 * MIN }),
      // Before the earliest session of the page: outside the window.
      goalSub(a.user.id, 'G-feed-out', { achieved: true, timeAchieved: T0 - 10 * HOUR }),
    ]);
    await storeQuests(t, [
      { questID: 'Q-feed', game: 'sdvx', playtype: 'Single', name: 'Feed quest', desc: '', questData: [{ title: 'All', goals: [{ goalID: 'G-feed-in' }] }] },
    ]);
    await storeQuestSubs(t, [
      {
        userID: a.user.id,
        questID: 'Q-feed',
        game: 'sdvx',
        playtype: 'Single',
        achieved: true,
        timeAchieved: T0 + 20 * MIN,
        lastInteraction: null,
        progress: 1,
        wasInstantlyAchieved: false,
      },
    ]);
    const feed = (await t.http().get(`/api/v1/users/${a.user.id}/activity`).expect(200)).body as {
      highlightedScores: { scoreID: string; highlighted: boolean; songID: number; chartID: string }[];
      songs: { id: number }[];
      charts: { chartID: string }[];
      goalSubs: { goalID: string }[];
      goals: { goalID: string }[];
      questSubs: { questID: string }[];
      quests: { questID: string }[];
      users: User[];
    };
    expect(feed.highlightedScores.map((s) => [s.scoreID, s.highlighted])).toEqual([[aScores[0], true]]);
    expect(feed.songs.map((s) => s.id)).toEqual([feed.highlightedScores[0].songID]);
    expect(feed.charts.map((ch) => ch.chartID)).toEqual([feed.highlightedScores[0].chartID]);
    expect(feed.goalSubs.map((g) => g.goalID)).toEqual(['G-feed-in']);
    expect(feed.goals.map((g) => g.goalID)).toEqual(['G-feed-in']);
    expect(feed.questSubs.map((q) => q.questID)).toEqual(['Q-feed']);
    expect(feed.quests.map((q) => q.questID)).toEqual(['Q-feed']);
    expect(ids(feed.users)).toEqual([a.user.id]);
    // b's feed: none of a's.
    const other = (await t.http().get(`/api/v1/users/${b.user.id}/activity`).expect(200)).body as { highlightedScores: unknown[]; goalSubs: unknown[] };
    expect([other.highlightedScores, other.goalSubs]).toEqual([[], []]);
  });

  it('following: simultaneous follows cannot pass MAX_FOLLOWING together', async () => {
    const others = [a, b, c, d];
    const results = await Promise.all(others.map((o) => e.agent.post(`/api/v1/users/${e.user.id}/following/add`).send({ userID: o.user.id })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 400, 400]);
    expect(((await t.http().get(`/api/v1/users/${e.user.id}/following`).expect(200)).body as User[]).length).toBe(2);
  });
});

describe('Social (tachi profile): rivalRank, rival PB routes, recent-summary and the feed lists in Tachi’s shapes', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ API_PROFILE: 'tachi', READ_CACHE_MB: '64' });
    await loadScoreFixtures(t);
  });
  afterAll(() => t.close());

  it("rankingData.rivalRank: the place among the owner's rivals, null without rivals; cached PB answers follow rival and PB changes", async () => {
    const [a, b, c] = [await signUpTachi(t), await signUpTachi(t), await signUpTachi(t)];
    const importAs = async (u: typeof a, score: object) =>
      polledImport(
        t,
        await u.agent.post('/api/v1/ir/direct-manual/import').send({ meta: { game: 'sdvx', playtype: 'Single', service: 'e2e' }, scores: [score] }),
      );
    await importAs(a, sdvxScore(1, 'EXH', 9_500_000, 'CLEAR', T0));
    await importAs(b, sdvxScore(1, 'EXH', 9_700_000, 'CLEAR', T0 + HOUR));
    await importAs(c, sdvxScore(1, 'EXH', 9_400_000, 'CLEAR', T0 + 2 * HOUR));
    const base = (u: typeof a) => `/api/v1/users/${u.user.id}/games/sdvx/Single`;
    /** a's PB on song 1 as the cached pbs/best and chart leaderboard serve it, and as the uncached pbs/:chartID does. */
    const rivalRanks = async () => {
      const best = ok<{ pbs: Pb[] }>(await t.http().get(`${base(a)}/pbs/best`)).pbs.find((p) => p.chartID === SONG1)!;
      const chart = ok<{ pbs: Pb[] }>(await t.http().get(`/api/v1/games/sdvx/Single/charts/${SONG1}/pbs`)).pbs.find((p) => p.userID === a.user.id)!;
      const single = ok<{ pb: Pb }>(await t.http().get(`${base(a)}/pbs/${SONG1}`)).pb;
      return [best.rankingData.rivalRank, chart.rankingData.rivalRank, single.rankingData.rivalRank];
    };

    expect(await rivalRanks()).toEqual([null, null, null]);
    ok(await a.agent.put(`${base(a)}/rivals`).send({ rivalIDs: [b.user.id, c.user.id] }));
    // b (9.7M) is ahead, c (9.4M) behind: second.
    expect(await rivalRanks()).toEqual([2, 2, 2]);
    ok(await a.agent.put(`${base(a)}/rivals`).send({ rivalIDs: [c.user.id] }));
    expect(await rivalRanks()).toEqual([1, 1, 1]);
    // c improves past a: a's place among rivals drops though a's PB did not change.
    await importAs(c, sdvxScore(1, 'EXH', 9_900_000, 'CLEAR', T0 + 3 * HOUR));
    expect(await rivalRanks()).toEqual([2, 2, 2]);
    // Rivals' own PBs: b and c have no rivals.
    const chart = ok<{ pbs: Pb[] }>(await t.http().get(`/api/v1/games/sdvx/Single/charts/${SONG1}/pbs`)).pbs;
    expect(chart.filter((p) => p.userID !== a.user.id).map((p) => p.rankingData.rivalRank)).toEqual([null, null]);

    // The rival routes in Tachi's envelope and documents.
    const board = ok<PbBoard>(await t.http().get(`${base(a)}/rivals/pb-leaderboard`));
    expect(new Set(owners(board.pbs))).toEqual(new Set([a.user.id, c.user.id]));
    expect(board.pbs.find((p) => p.userID === a.user.id)!.rankingData).toEqual({ rank: 3, outOf: 3, rivalRank: 2 });
    const rivalPbs = ok<{ pbs: (Pb & { highlight: boolean })[]; rivals: User[] }>(await t.http().get(`${base(a)}/pbs/${SONG1}/rivals`));
    expect(owners(rivalPbs.pbs)).toEqual([c.user.id, a.user.id]);
    expect(rivalPbs.pbs[1]).toEqual(expect.objectContaining({ highlight: false }));
    expect(ids(rivalPbs.rivals)).toEqual([c.user.id]);
    failed(await t.http().get(`${base(a)}/rivals/pb-leaderboard?alg=nope`), 400);
    failed(await t.http().get(`${base(a)}/pbs/no-such-chart/rivals`), 404);
  });

  it("recent-summary in Tachi's shape; the feed's highlighted scores and goals in Tachi's lists", async () => {
    const u = await signUpTachi(t);
    const now = Date.now();
    const doc = await polledImport<{ scoreIDs: string[] }>(
      t,
      await u.agent
        .post('/api/v1/ir/direct-manual/import')
        .send({ meta: { game: 'sdvx', playtype: 'Single', service: 'e2e' }, scores: [sdvxScore(2, 'EXH', 9_000_000, 'CLEAR', now - HOUR)] }),
    );
    ok(await u.agent.patch(`/api/v1/scores/${doc.scoreIDs[0]}`).send({ highlight: true }));
    await storeGoals(t, [goalRow('G-tachi-sum')]);
    await storeGoalSubs(t, [goalSub(u.user.id, 'G-tachi-sum', { achieved: true, timeAchieved: now - 30 * MIN })]);

    const summary = ok<Record<string, unknown>>(await t.http().get(`/api/v1/users/${u.user.id}/recent-summary`));
    expect(Object.keys(summary).sort()).toEqual(
      ['recentAchievedGoals', 'recentFolderStats', 'recentFolders', 'recentGoals', 'recentImprovedGoals', 'recentPlaycount', 'recentSessions'].sort(),
    );
    expect(summary).toMatchObject({
      recentPlaycount: 1,
      recentFolders: [],
      recentFolderStats: [],
      recentAchievedGoals: [expect.objectContaining({ goalID: 'G-tachi-sum', achieved: true })],
      recentGoals: [expect.objectContaining({ goalID: 'G-tachi-sum' })],
      recentImprovedGoals: [],
    });
    expect((summary.recentSessions as { scoreIDs: string[] }[]).map((s) => s.scoreIDs)).toEqual([doc.scoreIDs]);
    failed(await t.http().get('/api/v1/users/999999/recent-summary'), 404);

    const feed = ok<{
      recentlyHighlightedScores: { scoreID: string; highlight: boolean }[];
      songs: unknown[];
      charts: unknown[];
      goalSubs: { goalID: string }[];
    }>(await t.http().get(`/api/v1/users/${u.user.id}/activity`));
    expect(feed.recentlyHighlightedScores.map((s) => [s.scoreID, s.highlight])).toEqual([[doc.scoreIDs[0], true]]);
    expect([feed.songs.length, feed.charts.length]).toEqual([1, 1]);
    expect(feed.goalSubs.map((g) => g.goalID)).toEqual(['G-tachi-sum']);
  });
});
