import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestApp, type TestApp } from '../support/app.js';
import { storeQuests } from '../support/db-fixtures.js';
import { quickPlayer, type QuickPlayer } from '../support/leaderboard-fixtures.js';
import { countRows } from '../support/stored.js';
import { failed, ok, polledImport } from '../support/tachi.js';
import { FOLDER_ID, GOALS, loadTargetSeeds, QUEST_ONE, QUEST_TWO, targetChart, targetPlay } from '../support/target-fixtures.js';
import { bearer } from '../support/users.js';

/**
 * The target routes Tachi's web client calls (targets page, chart dropdowns, folder page, goal
 * editor), in both profiles: UGPT all-subs, on-chart, on-folder, goals (add, remove, caps), and
 * the GPT's goals/format and questlines.
 */

const GPT = '/api/v1/games/sdvx/Single/targets';
const WRITE = ['submit_score', 'manage_targets'] as const;
/** A quest in no questline, holding score2 (stored straight into the table, as if seeded). */
const STANDALONE = 'c'.repeat(40);
/** A goal on song 1's EXH chart, which the folder does not hold. */
const EXH_GOAL = { charts: { type: 'single', data: targetChart(1, 'EXH') }, criteria: { key: 'lamp', value: 1, mode: 'single' } };
const add = (goal: { charts: unknown; criteria: unknown }) => ({ charts: goal.charts, criteria: goal.criteria });

interface Answer {
  status: number;
  body: unknown;
}
type Ids = {
  goals: { goalID: string }[];
  goalSubs: { goalID: string; userID: number }[];
  quests: { questID: string }[];
  questSubs: { questID: string; userID: number }[];
};

describe.each(['spec', 'tachi'] as const)('targets for Tachi’s client (API_PROFILE=%s)', (profile) => {
  let t: TestApp;
  let p: QuickPlayer;
  let other: QuickPlayer;
  let readOnly: QuickPlayer;
  let nobody: QuickPlayer;
  let n = 0;
  let exhGoalID = '';
  const ugpt = (who: QuickPlayer | number, rest: string) => `/api/v1/users/${typeof who === 'number' ? who : who.id}/games/sdvx/Single/targets${rest}`;

  /** The answer's document: as it is (spec) or inside Tachi's envelope. */
  function body<T = Record<string, unknown>>(res: Answer, status = 200): T {
    if (profile === 'tachi') return ok<T>(res, status);
    expect([res.status, res.body]).toEqual([status, expect.anything()]);
    return res.body as T;
  }
  /** The error's message: {statusCode, error, message} (spec) or {success: false, description}. */
  function error(res: Answer, status: number): string {
    if (profile === 'tachi') return failed(res, status);
    expect([res.status, res.body]).toEqual([status, { statusCode: status, error: expect.any(String), message: expect.any(String) }]);
    return (res.body as { message: string }).message;
  }
  const ids = (a: Ids) => ({
    goals: a.goals.map((g) => g.goalID),
    goalSubs: a.goalSubs.map((s) => `${s.userID}:${s.goalID}`),
    quests: a.quests.map((q) => q.questID),
    questSubs: a.questSubs.map((s) => `${s.userID}:${s.questID}`),
  });
  const sorted = (xs: string[]) => [...xs].sort();

  /** A player with a profile on sdvx Single (one score on song 6, which no goal uses). */
  async function player(prefix: string, permissions: readonly string[] = WRITE): Promise<QuickPlayer> {
    n++;
    const who = await quickPlayer(t, `${prefix}${profile[0]}${n}`, [...permissions] as never);
    const res = await t
      .http()
      .post('/api/v1/ir/direct-manual/import')
      .set(bearer(who.token))
      .send({ meta: { game: 'sdvx', playtype: 'Single', service: 'e2e' }, scores: [targetPlay(6, 8_000_000, 'CLEAR', Date.UTC(2024, 0, 1) + n)] });
    // Under tachi an import answers 202 {url, importID} to poll, as Tachi's deployments do.
    const doc = profile === 'tachi' ? await polledImport<{ errors: unknown[] }>(t, res) : body<{ errors: unknown[] }>(res);
    expect(doc.errors).toEqual([]);
    return who;
  }

  beforeAll(async () => {
    t = await createTestApp({ API_PROFILE: profile, MAX_GOAL_SUBSCRIPTIONS: '5', MAX_QUEST_SUBSCRIPTIONS: '1' });
    await loadTargetSeeds(t);
    await storeQuests(t, [
      {
        questID: STANDALONE,
        game: 'sdvx',
        playtype: 'Single',
        name: 'Standalone Quest',
        desc: 'In no questline.',
        questData: [{ title: 'Scores', goals: [{ goalID: GOALS.score2.goalID }] }],
      },
    ]);
    p = await player('tp');
    other = await player('to');
    readOnly = await player('tr', ['submit_score']);
    nobody = await player('tn');
  }, 120_000);

  afterAll(async () => {
    await t?.close();
  });

  it('a player without subscriptions: all-subs, on-chart and on-folder are empty; unknown charts and folders are 404', async () => {
    const empty = { goals: [], goalSubs: [], quests: [], questSubs: [] };
    expect(body(await t.http().get(ugpt(nobody, '/all-subs')))).toEqual(empty);
    expect(body(await t.http().get(ugpt(nobody, `/on-chart/${targetChart(1)}`)))).toEqual(empty);
    expect(body(await t.http().get(ugpt(nobody, `/on-folder/${FOLDER_ID}`)))).toEqual(empty);
    expect(error(await t.http().get(ugpt(nobody, '/on-chart/no-such-chart')), 404)).toBe('The chart no-such-chart does not exist on sdvx Single.');
    expect(error(await t.http().get(ugpt(nobody, '/on-folder/no-such-folder')), 404)).toBe('The folder no-such-folder does not exist on sdvx Single.');
    // a user who has not played the GPT, and one who does not exist
    const fresh = await quickPlayer(t, `tf${profile[0]}`, ['manage_targets']);
    expect(error(await t.http().get(ugpt(fresh, '/all-subs')), 404)).toMatch(/has not played|not played/i);
    error(await t.http().get(ugpt(999_999, `/on-chart/${targetChart(1)}`)), 404);
  });

  it('add-goal: needs authentication, manage_targets and the user themselves', async () => {
    const url = ugpt(p, '/goals/add-goal');
    error(await t.http().post(url).send(add(GOALS.score2)), 401);
    expect(error(await t.http().post(url).set(bearer(readOnly.token)).send(add(GOALS.score2)), 403)).toMatch(/manage_targets/);
    error(await t.http().post(url).set(bearer(other.token)).send(add(GOALS.score2)), 403);
    expect(
      error(
        await t
          .http()
          .post(url)
          .set(bearer(p.token))
          .send({ charts: { type: 'single', data: 'nope' }, criteria: GOALS.score2.criteria }),
        400,
      ),
    ).toBe('The chart nope does not exist on sdvx Single.');
    error(await t.http().post(url).set(bearer(p.token)).send({ charts: GOALS.score2.charts }), 400);
    expect(await countRows(t, 'goalSubs', { userID: p.id })).toBe(0);
  });

  it('subscriptions through a quest, add-goal (new and existing goals) and PUT; 409 when already subscribed; the caps', async () => {
    const auth = bearer(p.token);
    body(
      await t
        .http()
        .put(ugpt(p, `/quests/${QUEST_ONE}`))
        .set(auth),
    );
    body(
      await t
        .http()
        .put(ugpt(other, `/quests/${QUEST_ONE}`))
        .set(bearer(other.token)),
    );

    const added = body<{ goal: { goalID: string; name: string }; goalSub: { goalID: string; wasAssignedStandalone: boolean } }>(
      await t.http().post(ugpt(p, '/goals/add-goal')).set(auth).send(add(GOALS.score2)),
    );
    expect(added.goal).toEqual({ ...GOALS.score2 });
    expect(added.goalSub).toMatchObject({ goalID: GOALS.score2.goalID, wasAssignedStandalone: true });
    expect(error(await t.http().post(ugpt(p, '/goals/add-goal')).set(auth).send(add(GOALS.score2)), 409)).toBe(
      `You are already subscribed to the goal ${GOALS.score2.goalID}.`,
    );

    const before = await countRows(t, 'goals');
    const exh = body<{ goal: { goalID: string; name: string } }>(await t.http().post(ugpt(p, '/goals/add-goal')).set(auth).send(EXH_GOAL));
    expect(exh.goal.name).toBe('CLEAR Target Song 1 (EXH 17)');
    exhGoalID = exh.goal.goalID;
    expect(await countRows(t, 'goals')).toBe(before + 1);
    body(
      await t
        .http()
        .put(ugpt(p, `/goals/${GOALS.folderProp.goalID}`))
        .set(auth),
    );

    // 5 goal subs now (lamp1 and multi from the quest, score2, the EXH goal, folderProp): MAX_GOAL_SUBSCRIPTIONS=5
    expect(error(await t.http().post(ugpt(p, '/goals/add-goal')).set(auth).send(add(GOALS.folderAbs)), 400)).toBe(
      'You already have 5 goals on sdvx Single; the limit is 5.',
    );
    expect(await countRows(t, 'goalSubs', { userID: p.id })).toBe(5);
    // one quest sub: MAX_QUEST_SUBSCRIPTIONS=1
    expect(
      error(
        await t
          .http()
          .put(ugpt(p, `/quests/${QUEST_TWO}`))
          .set(auth),
        400,
      ),
    ).toBe('You already have 1 quests on sdvx Single; the limit is 1.');
  });

  it('all-subs: every subscription of the user with its goals and quests (public)', async () => {
    const all = body<Ids>(await t.http().get(ugpt(p, '/all-subs')));
    expect(Object.keys(all).sort()).toEqual(['goalSubs', 'goals', 'questSubs', 'quests']);
    expect(sorted(ids(all).goals)).toEqual(sorted([GOALS.lamp1.goalID, GOALS.multi.goalID, GOALS.score2.goalID, GOALS.folderProp.goalID, exhGoalID]));
    expect(all.goalSubs.every((s) => s.userID === p.id)).toBe(true);
    expect(all.goalSubs).toHaveLength(5);
    expect(ids(all).questSubs).toEqual([`${p.id}:${QUEST_ONE}`]);
    expect(ids(all).quests).toEqual([QUEST_ONE]);
  });

  it('on-chart: the goals naming the chart or on a folder holding it, and the user’s own subscribed quests holding them', async () => {
    const song1 = ids(body<Ids>(await t.http().get(ugpt(p, `/on-chart/${targetChart(1)}`))));
    expect({ ...song1, goals: sorted(song1.goals), goalSubs: sorted(song1.goalSubs) }).toEqual({
      goals: sorted([GOALS.lamp1.goalID, GOALS.folderProp.goalID]),
      goalSubs: sorted([`${p.id}:${GOALS.lamp1.goalID}`, `${p.id}:${GOALS.folderProp.goalID}`]),
      quests: [QUEST_ONE],
      // only p's quest sub, not the other player's subscription to the same quest
      questSubs: [`${p.id}:${QUEST_ONE}`],
    });
    const song3 = ids(body<Ids>(await t.http().get(ugpt(p, `/on-chart/${targetChart(3)}`))));
    expect(sorted(song3.goals)).toEqual(sorted([GOALS.multi.goalID, GOALS.folderProp.goalID]));
    expect(song3.quests).toEqual([QUEST_ONE]);
    const song2 = ids(body<Ids>(await t.http().get(ugpt(p, `/on-chart/${targetChart(2)}`))));
    expect(sorted(song2.goals)).toEqual(sorted([GOALS.score2.goalID, GOALS.folderProp.goalID]));
    expect(song2.quests).toEqual([]);
    // song 1's EXH chart is in no folder: only the goal on it
    const exh = body<Omit<Ids, 'goals'> & { goals: { goalID: string; name: string }[] }>(await t.http().get(ugpt(p, `/on-chart/${targetChart(1, 'EXH')}`)));
    expect(exh.goals.map((g) => [g.goalID, g.name])).toEqual([[exhGoalID, 'CLEAR Target Song 1 (EXH 17)']]);
    expect(exh.quests).toEqual([]);
    // song 6's chart is on no goal
    expect(ids(body<Ids>(await t.http().get(ugpt(p, `/on-chart/${targetChart(6)}`))))).toEqual({ goals: [], goalSubs: [], quests: [], questSubs: [] });
    // the other player: their quest's goals only
    const theirs = ids(body<Ids>(await t.http().get(ugpt(other, `/on-chart/${targetChart(1)}`))));
    expect(theirs).toEqual({
      goals: [GOALS.lamp1.goalID],
      goalSubs: [`${other.id}:${GOALS.lamp1.goalID}`],
      quests: [QUEST_ONE],
      questSubs: [`${other.id}:${QUEST_ONE}`],
    });
  });

  it('on-folder: folder goals on it and goals naming its charts (not the EXH chart outside it)', async () => {
    const folder = ids(body<Ids>(await t.http().get(ugpt(p, `/on-folder/${FOLDER_ID}`))));
    expect(sorted(folder.goals)).toEqual(sorted([GOALS.lamp1.goalID, GOALS.multi.goalID, GOALS.score2.goalID, GOALS.folderProp.goalID]));
    expect(folder.goalSubs).toHaveLength(4);
    expect(folder.quests).toEqual([QUEST_ONE]);
    expect(folder.questSubs).toEqual([`${p.id}:${QUEST_ONE}`]);
  });

  it('UGPT quests carries the quests’ goals', async () => {
    const quests = body<{ quests: { questID: string }[]; questSubs: unknown[]; goals: { goalID: string }[] }>(await t.http().get(ugpt(p, '/quests')));
    expect(quests.quests.map((q) => q.questID)).toEqual([QUEST_ONE]);
    expect(quests.goals.map((g) => g.goalID)).toEqual([GOALS.lamp1.goalID, GOALS.multi.goalID]);
  });

  it('DELETE goals/:goalID: refused while a subscribed quest holds the goal; others go; 404 when not subscribed; owner and manage_targets only', async () => {
    const auth = bearer(p.token);
    expect(
      error(
        await t
          .http()
          .delete(ugpt(p, `/goals/${GOALS.lamp1.goalID}`))
          .set(auth),
        400,
      ),
    ).toBe(`This goal is part of quests you are subscribed to: 'Target Quest One' (${QUEST_ONE}). Leave them to remove it.`);
    error(await t.http().delete(ugpt(p, `/goals/${GOALS.score2.goalID}`)), 401);
    error(
      await t
        .http()
        .delete(ugpt(p, `/goals/${GOALS.score2.goalID}`))
        .set(bearer(other.token)),
      403,
    );
    error(
      await t
        .http()
        .delete(ugpt(readOnly, `/goals/${GOALS.score2.goalID}`))
        .set(bearer(readOnly.token)),
      403,
    );
    expect(
      body<{ goal: { goalID: string } }>(
        await t
          .http()
          .delete(ugpt(p, `/goals/${GOALS.score2.goalID}`))
          .set(auth),
      ).goal.goalID,
    ).toBe(GOALS.score2.goalID);
    expect(
      error(
        await t
          .http()
          .delete(ugpt(p, `/goals/${GOALS.score2.goalID}`))
          .set(auth),
        404,
      ),
    ).toBe(`You are not subscribed to the goal ${GOALS.score2.goalID}.`);
    error(await t.http().delete(ugpt(p, '/goals/Gnope')).set(auth), 404);
    const goals = body<{ goalSubs: { goalID: string }[] }>(await t.http().get(ugpt(p, '/goals')));
    expect(goals.goalSubs.map((s) => s.goalID)).not.toContain(GOALS.score2.goalID);
    expect(goals.goalSubs).toHaveLength(4);
  });

  describe('POST /games/:game/:playtype/targets/goals/format', () => {
    const name = (res: Answer) => (profile === 'tachi' ? body<string>(res) : body<{ name: string }>(res).name);
    const format = (goal: object) => t.http().post(`${GPT}/goals/format`).send(goal);

    it('names a goal as Tachi’s goal names read, from the GPT’s lamps and grades, without creating it; public', async () => {
      const before = await countRows(t, 'goals');
      expect(name(await format(add(GOALS.lamp1)))).toBe('EXCESSIVE CLEAR Target Song 1 (MXM 18)');
      expect(name(await format(add(GOALS.score2)))).toBe('Get a score of 9,500,000 on Target Song 2 (MXM 18)');
      expect(name(await format(add(GOALS.multi)))).toBe('CLEAR either Target Song 3 (MXM 18) or Target Song 4 (MXM 18)');
      expect(name(await format(add(GOALS.folderAbs)))).toBe('AAA 2 charts in the Target Level 18 folder');
      expect(name(await format(add(GOALS.folderProp)))).toBe('CLEAR 50% of the charts in the Target Level 18 folder');
      const three = [targetChart(1), targetChart(2), targetChart(3)];
      expect(name(await format({ charts: { type: 'multi', data: three }, criteria: { key: 'grade', value: 6, mode: 'absolute', countNum: 3 } }))).toBe(
        'AA+ Target Song 1 (MXM 18), Target Song 2 (MXM 18) and Target Song 3 (MXM 18)',
      );
      expect(name(await format({ charts: { type: 'multi', data: three }, criteria: { key: 'lamp', value: 3, mode: 'absolute', countNum: 2 } }))).toBe(
        'MAXXIVE CLEAR any 2 of Target Song 1 (MXM 18), Target Song 2 (MXM 18) or Target Song 3 (MXM 18)',
      );
      expect(name(await format({ charts: { type: 'multi', data: three }, criteria: { key: 'lamp', value: 1, mode: 'single' } }))).toBe(
        'CLEAR any one of Target Song 1 (MXM 18), Target Song 2 (MXM 18) or Target Song 3 (MXM 18)',
      );
      expect(await countRows(t, 'goals')).toBe(before);
    });

    it('400 "Invalid goal: …" naming the problem; 400 for a malformed body; 404 for an unknown GPT', async () => {
      expect(error(await format({ charts: { type: 'single', data: 'nope' }, criteria: { key: 'lamp', value: 1, mode: 'single' } }), 400)).toBe(
        'Invalid goal: The chart nope does not exist on sdvx Single.',
      );
      expect(error(await format({ charts: GOALS.lamp1.charts, criteria: { key: 'lamp', value: 9, mode: 'single' } }), 400)).toMatch(
        /^Invalid goal: criteria\.value must be the index of a lamp \(an integer from 0 to 5: 0 FAILED, 1 CLEAR, .*\); got 9\.$/,
      );
      expect(
        error(await format({ charts: { type: 'folder', data: FOLDER_ID }, criteria: { key: 'lamp', value: 1, mode: 'absolute', countNum: 9 } }), 400),
      ).toBe("Invalid goal: criteria.countNum must be a whole number from 2 to 5 (the charts in the set) in mode 'absolute'; got 9.");
      expect(
        error(await format({ charts: { type: 'single', data: targetChart(1) }, criteria: { key: 'lamp', value: 1, mode: 'absolute', countNum: 2 } }), 400),
      ).toBe("Invalid goal: A goal on a single chart must use criteria.mode 'single'.");
      error(await format({ charts: GOALS.lamp1.charts }), 400);
      error(await format({ charts: GOALS.lamp1.charts, criteria: { key: 'lamp', value: 'x', mode: 'single' } }), 400);
      error(await t.http().post('/api/v1/games/nogame/Single/targets/goals/format').send(add(GOALS.lamp1)), 404);
    });
  });

  it('questlines: the spec’s list, or Tachi’s {questlines, standalone, standaloneGoals}; a questline carries its quests’ goals', async () => {
    const lines = body<unknown>(await t.http().get(`${GPT}/questlines`));
    if (profile === 'spec') {
      expect((lines as { questlineID: string }[]).map((l) => l.questlineID)).toEqual(['target-line']);
    } else {
      const tachi = lines as { questlines: { questlineID: string }[]; standalone: { questID: string }[]; standaloneGoals: { goalID: string }[] };
      expect(Object.keys(tachi).sort()).toEqual(['questlines', 'standalone', 'standaloneGoals']);
      expect(tachi.questlines.map((l) => l.questlineID)).toEqual(['target-line']);
      expect(tachi.standalone.map((q) => q.questID)).toEqual([STANDALONE]);
      expect(tachi.standaloneGoals).toEqual([{ ...GOALS.score2 }]);
    }
    const line = body<{ questline: { questlineID: string }; quests: { questID: string }[]; goals: { goalID: string }[] }>(
      await t.http().get(`${GPT}/questlines/target-line`),
    );
    expect(line.quests.map((q) => q.questID)).toEqual([QUEST_ONE, QUEST_TWO]);
    expect(line.goals.map((g) => g.goalID)).toEqual([GOALS.lamp1.goalID, GOALS.multi.goalID, GOALS.folderAbs.goalID]);
    error(await t.http().get(`${GPT}/questlines/nope`), 404);
  });
});
