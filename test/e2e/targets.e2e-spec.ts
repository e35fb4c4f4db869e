import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { ImportDocument } from '../../src/presenters/import.presenter.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { storeGoals, storeGoalSubs, storeQuests, storeQuestSubs } from '../support/db-fixtures.js';
import { importAs, quickPlayer, type QuickPlayer } from '../support/leaderboard-fixtures.js';
import { countRows, storedGoalSub, storedQuestSub } from '../support/stored.js';
import { GOALS, loadTargetSeeds, QUEST_ONE, QUEST_TWO, targetChart, targetPlay } from '../support/target-fixtures.js';
import { bearer, issueToken, signUp, type SignedUpUser } from '../support/users.js';

const T0 = Date.UTC(2024, 4, 1, 12);
const MIN = 60_000;
const GPT = '/api/v1/games/sdvx/Single/targets';
const WRITE = ['submit_score', 'manage_targets', 'delete_score'] as const;

interface GoalSub {
  goalID: string;
  userID: number;
  achieved: boolean;
  progress: number | null;
  progressHuman: string;
  outOf: number;
  outOfHuman: string;
  lastInteraction: number | null;
  timeAchieved: number | null;
  wasInstantlyAchieved: boolean;
  wasAssignedStandalone: boolean;
}
interface QuestSub {
  questID: string;
  userID: number;
  achieved: boolean;
  progress: number;
  lastInteraction: number | null;
  wasInstantlyAchieved: boolean;
}

describe('targets: goals, quests, questlines and subscriptions', () => {
  let t: TestApp;
  let players: Record<string, QuickPlayer>;
  let n = 0;
  const ugpt = (p: QuickPlayer | number, rest = '') => `/api/v1/users/${typeof p === 'number' ? p : p.id}/games/sdvx/Single/targets${rest}`;

  /** A player with targets permissions and a profile (one score on song 6, which no goal uses). */
  async function newPlayer(prefix: string, permissions: readonly string[] = WRITE): Promise<QuickPlayer> {
    n++;
    const p = await quickPlayer(t, `${prefix}${n}`, [...permissions] as never);
    await importAs(t, p, [targetPlay(6, 8_000_000, 'CLEAR', T0 - 100 * MIN + n)]);
    return p;
  }
  /** The player's goal and quest subscriptions, as GET …/targets/goals/:goalID and …/quests/:questID serve them. */
  const sub = (p: QuickPlayer, goalID: string) => storedGoalSub(t, p.id, goalID);
  const qsub = (p: QuickPlayer, questID: string) => storedQuestSub(t, p.id, questID);

  beforeAll(async () => {
    t = await createTestApp();
    await loadTargetSeeds(t);
    players = { nobody: await newPlayer('nobody') };
  }, 120_000);

  afterAll(async () => {
    await t?.close();
  });

  describe('GPT routes (public)', () => {
    it('lists quests and questlines as arrays, filtered by search', async () => {
      const all = await t.http().get(`${GPT}/quests`);
      expect(all.status).toBe(200);
      expect(all.body.map((q: { questID: string }) => q.questID)).toEqual([QUEST_ONE, QUEST_TWO]);
      expect(all.body[0]).toEqual({
        questID: QUEST_ONE,
        name: 'Target Quest One',
        desc: 'The first quest.',
        game: 'sdvx',
        playtype: 'Single',
        questData: [
          {
            title: 'Clears',
            desc: '',
            goals: [
              { goalID: GOALS.lamp1.goalID, note: 'go' },
              { goalID: GOALS.multi.goalID, note: 'go' },
            ],
          },
        ],
      });
      const two = await t.http().get(`${GPT}/quests?search=two`);
      expect(two.body.map((q: { questID: string }) => q.questID)).toEqual([QUEST_TWO]);
      expect((await t.http().get(`${GPT}/quests?search=nothing-like-this`)).body).toEqual([]);
      const lines = await t.http().get(`${GPT}/questlines`);
      expect(lines.body).toEqual([
        { questlineID: 'target-line', name: 'Target Line', desc: 'Both quests.', game: 'sdvx', playtype: 'Single', quests: [QUEST_ONE, QUEST_TWO] },
      ]);
      expect((await t.http().get(`${GPT}/questlines?search=zzz`)).body).toEqual([]);
      expect((await t.http().get(`${GPT}/quests?unknown=1`)).status).toBe(400);
    });

    it('questline, quest and goal documents; 404 for unknown ids and other GPTs', async () => {
      const line = await t.http().get(`${GPT}/questlines/target-line`);
      expect(line.status).toBe(200);
      expect(line.body.quests.map((q: { questID: string }) => q.questID)).toEqual([QUEST_ONE, QUEST_TWO]);
      expect((await t.http().get(`${GPT}/questlines/nope`)).status).toBe(404);

      const quest = await t.http().get(`${GPT}/quests/${QUEST_TWO}`);
      expect(quest.status).toBe(200);
      expect(Object.keys(quest.body).sort()).toEqual(['goals', 'parentQuestlines', 'quest', 'questSubs', 'users']);
      expect(quest.body.goals.map((g: { goalID: string }) => g.goalID)).toEqual([GOALS.multi.goalID, GOALS.folderAbs.goalID]);
      expect(quest.body.parentQuestlines.map((q: { questlineID: string }) => q.questlineID)).toEqual(['target-line']);
      expect((await t.http().get(`${GPT}/quests/${'c'.repeat(40)}`)).status).toBe(404);
      expect((await t.http().get(`/api/v1/games/iidx/SP/targets/quests/${QUEST_ONE}`)).status).toBe(404);

      const goal = await t.http().get(`${GPT}/goals/${GOALS.multi.goalID}`);
      expect(goal.status).toBe(200);
      expect(goal.body.goal).toEqual({
        goalID: GOALS.multi.goalID,
        name: GOALS.multi.name,
        game: 'sdvx',
        playtype: 'Single',
        charts: GOALS.multi.charts,
        criteria: GOALS.multi.criteria,
      });
      expect(goal.body.parentQuests.map((q: { questID: string }) => q.questID)).toEqual([QUEST_ONE, QUEST_TWO]);
      expect((await t.http().get(`${GPT}/goals/Gnope`)).status).toBe(404);
      expect((await t.http().get(`/api/v1/games/sdvx/Nope/targets/goals/${GOALS.multi.goalID}`)).status).toBe(404);
    });

    it('evaluates a goal and a quest for a user with no data; 404 unknown user, 400 without userID', async () => {
      const p = players.nobody;
      const res = await t.http().get(`${GPT}/goals/${GOALS.lamp1.goalID}/evaluate-for?userID=${p.username}`);
      expect(res.status).toBe(200);
      const expected = { achieved: false, progress: null, progressHuman: 'NO DATA', outOf: 2, outOfHuman: 'EXCESSIVE CLEAR' };
      expect(res.body.results).toEqual(expected);
      expect(res.body.result).toEqual(expected);
      expect(res.body.user.id).toBe(p.id);
      const folder = await t.http().get(`${GPT}/goals/${GOALS.folderProp.goalID}/evaluate-for?userID=${p.id}`);
      expect(folder.body.results).toEqual({ achieved: false, progress: 0, progressHuman: '0', outOf: 2, outOfHuman: '2' });
      expect((await t.http().get(`${GPT}/goals/${GOALS.lamp1.goalID}/evaluate-for?userID=nobody_at_all`)).status).toBe(404);
      expect((await t.http().get(`${GPT}/goals/${GOALS.lamp1.goalID}/evaluate-for`)).status).toBe(400);

      const quest = await t.http().get(`${GPT}/quests/${QUEST_TWO}/evaluate-for?userID=${p.id}`);
      expect(quest.status).toBe(200);
      expect(quest.body).toMatchObject({ achieved: false, progress: 0, outOf: 2 });
      expect(quest.body.goalResults).toEqual([
        { goalID: GOALS.multi.goalID, achieved: false, progress: null, progressHuman: 'NO DATA', outOf: 1, outOfHuman: 'CLEAR' },
        { goalID: GOALS.folderAbs.goalID, achieved: false, progress: 0, progressHuman: '0', outOf: 2, outOfHuman: '2' },
      ]);
      expect((await t.http().get(`${GPT}/quests/nope/evaluate-for?userID=${p.id}`)).status).toBe(404);
    });
  });

  describe('quest subscriptions (PUT/DELETE /quests/:questID)', () => {
    it('needs authentication, manage_targets and the user themselves; 404 for an unknown quest or unplayed GPT', async () => {
      const owner = await newPlayer('qowner');
      const stranger = await newPlayer('qstranger');
      const noPerm = await newPlayer('qnoperm', ['submit_score']);
      expect((await t.http().put(ugpt(owner, `/quests/${QUEST_ONE}`))).status).toBe(401);
      const missing = await t
        .http()
        .put(ugpt(noPerm, `/quests/${QUEST_ONE}`))
        .set(bearer(noPerm.token));
      expect(missing.status).toBe(403);
      expect(missing.body.message).toMatch(/manage_targets/);
      expect(
        (
          await t
            .http()
            .put(ugpt(owner, `/quests/${QUEST_ONE}`))
            .set(bearer(stranger.token))
        ).status,
      ).toBe(403);
      expect(
        (
          await t
            .http()
            .delete(ugpt(owner, `/quests/${QUEST_ONE}`))
            .set(bearer(stranger.token))
        ).status,
      ).toBe(403);
      expect(
        (
          await t
            .http()
            .put(ugpt(owner, `/quests/${'c'.repeat(40)}`))
            .set(bearer(owner.token))
        ).status,
      ).toBe(404);
      const unplayed = await quickPlayer(t, `unplayed${++n}`, [...WRITE] as never);
      expect(
        (
          await t
            .http()
            .put(ugpt(unplayed, `/quests/${QUEST_ONE}`))
            .set(bearer(unplayed.token))
        ).status,
      ).toBe(404);
      expect(await qsub(owner, QUEST_ONE)).toBeUndefined();
    });

    it('subscribing subscribes the quest’s goals; again is 409; GET shows it; leaving keeps goal subs something else keeps', async () => {
      const p = await newPlayer('quester');
      // a standalone goal first: lamp1 is also in quest one
      expect(
        (
          await t
            .http()
            .put(ugpt(p, `/goals/${GOALS.lamp1.goalID}`))
            .set(bearer(p.token))
        ).status,
      ).toBe(200);
      const res = await t
        .http()
        .put(ugpt(p, `/quests/${QUEST_ONE}`))
        .set(bearer(p.token));
      expect(res.status).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual(['goalResults', 'goals', 'quest', 'questSub']);
      expect(res.body.questSub).toMatchObject({
        userID: p.id,
        questID: QUEST_ONE,
        achieved: false,
        progress: 0,
        lastInteraction: null,
        wasInstantlyAchieved: false,
      });
      expect(res.body.goalResults.map((r: { goalID: string }) => r.goalID)).toEqual([GOALS.lamp1.goalID, GOALS.multi.goalID]);
      expect((await sub(p, GOALS.multi.goalID))?.wasAssignedStandalone).toBe(false);
      expect((await sub(p, GOALS.lamp1.goalID))?.wasAssignedStandalone).toBe(true);
      expect(
        (
          await t
            .http()
            .put(ugpt(p, `/quests/${QUEST_ONE}`))
            .set(bearer(p.token))
        ).status,
      ).toBe(409);
      expect(
        (
          await t
            .http()
            .put(ugpt(p, `/quests/${QUEST_TWO}`))
            .set(bearer(p.token))
        ).status,
      ).toBe(200);
      expect((await sub(p, GOALS.folderAbs.goalID))?.wasAssignedStandalone).toBe(false);

      const list = await t.http().get(ugpt(p, '/quests'));
      expect(list.status).toBe(200);
      expect(list.body.questSubs.map((s: QuestSub) => s.questID)).toEqual([QUEST_ONE, QUEST_TWO]);
      expect(list.body.quests.map((q: { questID: string }) => q.questID)).toEqual([QUEST_ONE, QUEST_TWO]);
      const one = await t.http().get(ugpt(p, `/quests/${QUEST_ONE}`));
      expect(one.status).toBe(200);
      expect(Object.keys(one.body).sort()).toEqual(['goals', 'quest', 'questSub', 'results']);
      expect(one.body.results[0]).toEqual({
        goalID: GOALS.lamp1.goalID,
        achieved: false,
        progress: null,
        outOf: 2,
        progressHuman: 'NO DATA',
        outOfHuman: 'EXCESSIVE CLEAR',
      });

      // a goal held by a subscribed quest cannot go on its own
      const held = await t
        .http()
        .delete(ugpt(p, `/goals/${GOALS.multi.goalID}`))
        .set(bearer(p.token));
      expect(held.status).toBe(400);
      expect(held.body.message).toMatch(/Target Quest One/);
      expect(held.body.message).toMatch(/Target Quest Two/);

      // leaving quest one: lamp1 stays (standalone), multi stays (quest two)
      const left = await t
        .http()
        .delete(ugpt(p, `/quests/${QUEST_ONE}`))
        .set(bearer(p.token));
      expect(left.status).toBe(200);
      expect(left.body.quest.questID).toBe(QUEST_ONE);
      expect(await qsub(p, QUEST_ONE)).toBeUndefined();
      expect(await sub(p, GOALS.lamp1.goalID)).toBeDefined();
      expect(await sub(p, GOALS.multi.goalID)).toBeDefined();
      expect(
        (
          await t
            .http()
            .delete(ugpt(p, `/quests/${QUEST_ONE}`))
            .set(bearer(p.token))
        ).status,
      ).toBe(409);
      expect((await t.http().get(ugpt(p, `/quests/${QUEST_ONE}`))).status).toBe(404);
      // leaving quest two: multi and folderAbs go, nothing keeps them
      expect(
        (
          await t
            .http()
            .delete(ugpt(p, `/quests/${QUEST_TWO}`))
            .set(bearer(p.token))
        ).status,
      ).toBe(200);
      expect(await sub(p, GOALS.multi.goalID)).toBeUndefined();
      expect(await sub(p, GOALS.folderAbs.goalID)).toBeUndefined();
      expect(await sub(p, GOALS.lamp1.goalID)).toBeDefined();
    });

    it('an achieved quest may be subscribed: instantly achieved, left out of recently-achieved', async () => {
      const p = await newPlayer('instant');
      await importAs(t, p, [targetPlay(3, 9_800_000, 'CLEAR', T0 - 50 * MIN), targetPlay(1, 9_800_000, 'EXCESSIVE CLEAR', T0 - 49 * MIN)]);
      const res = await t
        .http()
        .put(ugpt(p, `/quests/${QUEST_ONE}`))
        .set(bearer(p.token));
      expect(res.status).toBe(200);
      expect(res.body.questSub).toMatchObject({ achieved: true, progress: 2, wasInstantlyAchieved: true });
      expect((await sub(p, GOALS.multi.goalID))?.wasInstantlyAchieved).toBe(true);
      const recent = await t.http().get(ugpt(p, '/recently-achieved'));
      expect(recent.body.goalSubs).toEqual([]);
      expect(recent.body.questSubs).toEqual([]);
    });

    it('caps quest subscriptions at 100 per GPT', async () => {
      const p = await newPlayer('qcap');
      const ids = Array.from({ length: 100 }, (_, i) => `capquest${String(i).padStart(3, '0')}`);
      await storeQuests(
        t,
        ids.map((questID) => ({ questID, game: 'sdvx', playtype: 'Single', name: questID, desc: '', questData: [] })),
      );
      await storeQuestSubs(
        t,
        ids.slice(0, 99).map((questID, i) => ({
          userID: p.id,
          questID,
          game: 'sdvx',
          playtype: 'Single',
          achieved: true,
          timeAchieved: T0 + i,
          lastInteraction: T0,
          progress: 0,
          wasInstantlyAchieved: false,
        })),
      );
      expect(
        (
          await t
            .http()
            .put(ugpt(p, `/quests/${ids[99]}`))
            .set(bearer(p.token))
        ).status,
      ).toBe(200);
      const over = await t
        .http()
        .put(ugpt(p, `/quests/${QUEST_ONE}`))
        .set(bearer(p.token));
      expect(over.status).toBe(400);
      expect(over.body.message).toMatch(/limit is 100/);
      // recently-achieved lists the 50 latest quest subs, newest first
      const recent = await t.http().get(ugpt(p, '/recently-achieved'));
      expect(recent.body.questSubs).toHaveLength(50);
      expect(recent.body.questSubs[0].questID).toBe(ids[98]);
      expect(recent.body.questSubs[49].questID).toBe(ids[49]);
      expect(recent.body.quests).toHaveLength(50);
    });
  });

  describe('goal subscriptions (/targets/goals)', () => {
    it('add-goal builds, names and creates a goal, subscribes; 409 again; GET and DELETE it', async () => {
      const p = await newPlayer('adder');
      const body = { charts: { type: 'multi', data: [targetChart(2), targetChart(5)] }, criteria: { key: 'grade', value: 9, mode: 'absolute', countNum: 2 } };
      expect((await t.http().post(ugpt(p, '/goals/add-goal')).send(body)).status).toBe(401);
      const res = await t.http().post(ugpt(p, '/goals/add-goal')).set(bearer(p.token)).send(body);
      expect(res.status).toBe(200);
      expect(res.body.goal).toMatchObject({ name: 'S Target Song 2 (MXM 18) and Target Song 5 (MXM 18)', charts: body.charts, criteria: body.criteria });
      expect(res.body.goal.goalID).toMatch(/^G[0-9a-f]{64}$/);
      expect(res.body.goalSub).toMatchObject({
        userID: p.id,
        achieved: false,
        progress: 0,
        outOf: 2,
        wasAssignedStandalone: true,
        wasInstantlyAchieved: false,
        lastInteraction: null,
      });
      const goalID = res.body.goal.goalID as string;
      expect((await t.http().post(ugpt(p, '/goals/add-goal')).set(bearer(p.token)).send(body)).status).toBe(409);

      // another user adding the same goal shares the document
      const q = await newPlayer('adder');
      const again = await t.http().post(ugpt(q, '/goals/add-goal')).set(bearer(q.token)).send(body);
      expect(again.body.goal.goalID).toBe(goalID);
      expect(await countRows(t, 'goals', { goalID })).toBe(1);

      const got = await t.http().get(ugpt(p, `/goals/${goalID}`));
      expect(got.status).toBe(200);
      expect(Object.keys(got.body).sort()).toEqual(['goal', 'goalSub', 'quests', 'result', 'user']);
      expect(got.body.result).toEqual({ goalID, achieved: false, progress: 0, outOf: 2, progressHuman: '0', outOfHuman: '2' });
      const list = await t.http().get(ugpt(p, '/goals'));
      expect(list.body.goalSubs.map((s: GoalSub) => s.goalID)).toEqual([goalID]);

      expect(
        (
          await t
            .http()
            .delete(ugpt(p, `/goals/${goalID}`))
            .set(bearer(q.token))
        ).status,
      ).toBe(403);
      const del = await t
        .http()
        .delete(ugpt(p, `/goals/${goalID}`))
        .set(bearer(p.token));
      expect(del.status).toBe(200);
      expect(del.body.goal.goalID).toBe(goalID);
      expect((await t.http().get(ugpt(p, `/goals/${goalID}`))).status).toBe(404);
      expect(
        (
          await t
            .http()
            .delete(ugpt(p, `/goals/${goalID}`))
            .set(bearer(p.token))
        ).status,
      ).toBe(404);
      expect((await t.http().delete(ugpt(p, '/goals/Gnope')).set(bearer(p.token))).status).toBe(404);
    });

    it('refuses invalid goals with 400 naming the problem', async () => {
      const p = await newPlayer('invalid');
      const add = (body: object) => t.http().post(ugpt(p, '/goals/add-goal')).set(bearer(p.token)).send(body);
      const cases: [object, RegExp][] = [
        [{ charts: { type: 'single', data: 'nochart' }, criteria: { key: 'lamp', value: 1, mode: 'single' } }, /chart nochart does not exist/],
        [{ charts: { type: 'folder', data: 'Fnope' }, criteria: { key: 'lamp', value: 1, mode: 'single' } }, /folder Fnope does not exist/],
        [{ charts: { type: 'single', data: targetChart(1) }, criteria: { key: 'lamp', value: 9, mode: 'single' } }, /index of a lamp/],
        [{ charts: { type: 'single', data: targetChart(1) }, criteria: { key: 'bp', value: 1, mode: 'single' } }, /criteria.key/],
        [{ charts: { type: 'single', data: targetChart(1) }, criteria: { key: 'lamp', value: 1, mode: 'absolute', countNum: 2 } }, /single chart must use/],
        [{ charts: { type: 'multi', data: [targetChart(1)] }, criteria: { key: 'lamp', value: 1, mode: 'single' } }, /2 to 10/],
        [{ charts: { type: 'any', data: 'x' }, criteria: { key: 'lamp', value: 1, mode: 'single' } }, /charts.type/],
        [{ charts: { type: 'folder', data: GOALS.folderAbs.charts.data }, criteria: { key: 'lamp', value: 1, mode: 'absolute', countNum: 6 } }, /from 2 to 5/],
        [
          { charts: { type: 'folder', data: GOALS.folderAbs.charts.data }, criteria: { key: 'lamp', value: 1, mode: 'proportion', countNum: 0.1 } },
          /rounds down to 0/,
        ],
        [{ charts: { type: 'single', data: targetChart(1) }, criteria: { key: 'lamp', value: 1, mode: 'single' }, extra: 1 }, /extra/],
        [{ charts: { type: 'single', data: targetChart(1) } }, /criteria/],
      ];
      for (const [body, message] of cases) {
        const res = await add(body);
        expect([JSON.stringify(body), res.status]).toEqual([JSON.stringify(body), 400]);
        expect(String(res.body.message)).toMatch(message);
      }
      expect(await countRows(t, 'goalSubs', { userID: p.id })).toBe(0);
    });

    it('a goal already achieved cannot be added (400); PUT subscribes to existing goals and makes quest goals standalone', async () => {
      const p = await newPlayer('achiever');
      await importAs(t, p, [targetPlay(2, 9_600_000, 'CLEAR', T0 - 40 * MIN)]);
      const res = await t
        .http()
        .put(ugpt(p, `/goals/${GOALS.score2.goalID}`))
        .set(bearer(p.token));
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/immediately achieve/);
      const body = { charts: GOALS.score2.charts, criteria: GOALS.score2.criteria };
      expect((await t.http().post(ugpt(p, '/goals/add-goal')).set(bearer(p.token)).send(body)).status).toBe(400);

      expect(
        (
          await t
            .http()
            .put(ugpt(p, `/quests/${QUEST_TWO}`))
            .set(bearer(p.token))
        ).status,
      ).toBe(200);
      const flip = await t
        .http()
        .put(ugpt(p, `/goals/${GOALS.multi.goalID}`))
        .set(bearer(p.token));
      expect(flip.status).toBe(200);
      expect(flip.body.goalSub.wasAssignedStandalone).toBe(true);
      expect(
        (
          await t
            .http()
            .put(ugpt(p, `/goals/${GOALS.multi.goalID}`))
            .set(bearer(p.token))
        ).status,
      ).toBe(409);
      expect((await t.http().put(ugpt(p, '/goals/Gnope')).set(bearer(p.token))).status).toBe(404);
      // leaving the quest keeps the now standalone goal
      expect(
        (
          await t
            .http()
            .delete(ugpt(p, `/quests/${QUEST_TWO}`))
            .set(bearer(p.token))
        ).status,
      ).toBe(200);
      expect(await sub(p, GOALS.multi.goalID)).toBeDefined();
      expect(await sub(p, GOALS.folderAbs.goalID)).toBeUndefined();
    });

    it('caps goal subscriptions at 1,000 per GPT', async () => {
      const p = await newPlayer('gcap');
      const made = Array.from({ length: 1000 }, (_, i) => ({
        goalID: `Gcap${p.id}_${i}`,
        game: 'sdvx',
        playtype: 'Single',
        name: `cap ${i}`,
        charts: { type: 'single' as const, data: targetChart(4) },
        criteria: { key: 'score', value: 1_000_000 + i, mode: 'single' as const },
      }));
      await storeGoals(t, made);
      await storeGoalSubs(
        t,
        made.slice(0, 999).map((g) => ({
          userID: p.id,
          goalID: g.goalID,
          game: 'sdvx',
          playtype: 'Single',
          achieved: false,
          timeAchieved: null,
          lastInteraction: null,
          progress: null,
          progressHuman: 'NO DATA',
          outOf: g.criteria.value,
          outOfHuman: String(g.criteria.value),
          wasInstantlyAchieved: false,
          wasAssignedStandalone: true,
        })),
      );
      expect(
        (
          await t
            .http()
            .put(ugpt(p, `/goals/${made[999].goalID}`))
            .set(bearer(p.token))
        ).status,
      ).toBe(200);
      const over = await t
        .http()
        .put(ugpt(p, `/goals/${GOALS.lamp1.goalID}`))
        .set(bearer(p.token));
      expect(over.status).toBe(400);
      expect(over.body.message).toMatch(/limit is 1000/);
      // quest goals do not count against the cap
      expect(
        (
          await t
            .http()
            .put(ugpt(p, `/quests/${QUEST_ONE}`))
            .set(bearer(p.token))
        ).status,
      ).toBe(200);
      expect(await sub(p, GOALS.lamp1.goalID)).toBeDefined();
      // an import re-evaluates only the subs on its charts: the 1,000 on song 4 move, quest one's goals on songs 1, 3 and 4 too
      const doc = await importAs(t, p, [targetPlay(4, 1_000_500, 'CLEAR', T0 - 30 * MIN)]);
      expect(doc.goalInfo).toHaveLength(1001);
      expect((await sub(p, made[0].goalID))?.achieved).toBe(true);
      // recently-achieved and recently-raised list at most 100 goal subs
      expect((await t.http().get(ugpt(p, '/recently-achieved'))).body.goalSubs).toHaveLength(100);
      expect((await t.http().get(ugpt(p, '/recently-raised'))).body.goalSubs).toHaveLength(100);
      expect(await sub(p, made[999].goalID)).toMatchObject({ achieved: false, progress: 1_000_500, progressHuman: '1,000,500', outOfHuman: '1,000,999' });
    }, 60_000);
  });

  describe('progress moves with the scores', () => {
    let p: QuickPlayer;
    let first: ImportDocument;
    let second: ImportDocument;

    beforeAll(async () => {
      p = await newPlayer('mover');
      for (const questID of [QUEST_ONE, QUEST_TWO])
        expect(
          (
            await t
              .http()
              .put(ugpt(p, `/quests/${questID}`))
              .set(bearer(p.token))
          ).status,
        ).toBe(200);
      expect(
        (
          await t
            .http()
            .put(ugpt(p, `/goals/${GOALS.folderProp.goalID}`))
            .set(bearer(p.token))
        ).status,
      ).toBe(200);
    });

    it('an import fills goalInfo and questInfo with before and after, and achieves goals', async () => {
      first = await importAs(t, p, [targetPlay(1, 9_650_000, 'CLEAR', T0)]);
      expect(first.goalInfo).toEqual(
        expect.arrayContaining([
          {
            goalID: GOALS.lamp1.goalID,
            old: { progress: null, progressHuman: 'NO DATA', outOf: 2, outOfHuman: 'EXCESSIVE CLEAR', achieved: false },
            new: { progress: 1, progressHuman: 'CLEAR', outOf: 2, outOfHuman: 'EXCESSIVE CLEAR', achieved: false },
          },
          {
            goalID: GOALS.folderProp.goalID,
            old: { progress: 0, progressHuman: '0', outOf: 2, outOfHuman: '2', achieved: false },
            new: { progress: 1, progressHuman: '1', outOf: 2, outOfHuman: '2', achieved: false },
          },
        ]),
      );
      // folderAbs (AAA) did not move: 9,650,000 is AA+
      expect(first.goalInfo).toHaveLength(2);
      expect(first.questInfo).toEqual([]);
      const raised = await t.http().get(ugpt(p, '/recently-raised'));
      expect(raised.body.goalSubs.map((s: GoalSub) => s.goalID).sort()).toEqual([GOALS.lamp1.goalID, GOALS.folderProp.goalID].sort());
      expect(Object.keys(raised.body).sort()).toEqual(['goalSubs', 'goals', 'quest', 'questSubs', 'quests', 'user']);

      second = await importAs(t, p, [targetPlay(1, 9_750_000, 'EXCESSIVE CLEAR', T0 + MIN), targetPlay(3, 9_710_000, 'CLEAR', T0 + 2 * MIN)]);
      const byGoal = new Map(second.goalInfo.map((g) => [(g as { goalID: string }).goalID, g as { old: GoalSub; new: GoalSub }]));
      expect(byGoal.get(GOALS.lamp1.goalID)?.new).toEqual({
        progress: 2,
        progressHuman: 'EXCESSIVE CLEAR',
        outOf: 2,
        outOfHuman: 'EXCESSIVE CLEAR',
        achieved: true,
      });
      expect(byGoal.get(GOALS.multi.goalID)?.new).toMatchObject({ progress: 1, achieved: true });
      expect(byGoal.get(GOALS.folderAbs.goalID)?.new).toMatchObject({ progress: 2, achieved: true });
      expect(byGoal.get(GOALS.folderProp.goalID)?.new).toMatchObject({ progress: 2, achieved: true });
      expect(second.questInfo).toEqual(
        expect.arrayContaining([
          { questID: QUEST_ONE, old: { progress: 0, achieved: false }, new: { progress: 2, achieved: true } },
          { questID: QUEST_TWO, old: { progress: 0, achieved: false }, new: { progress: 2, achieved: true } },
        ]),
      );
      const stored = (await sub(p, GOALS.lamp1.goalID))!;
      expect(stored).toMatchObject({ achieved: true, wasInstantlyAchieved: false });
      expect(stored.timeAchieved).toEqual(stored.lastInteraction);

      // the GPT's and the user's recent lists
      const gptRecent = await t.http().get(`${GPT}/recently-achieved`);
      expect(
        gptRecent.body.goalSubs
          .filter((s: GoalSub) => s.userID === p.id)
          .map((s: GoalSub) => s.goalID)
          .sort(),
      ).toEqual([GOALS.lamp1.goalID, GOALS.multi.goalID, GOALS.folderAbs.goalID, GOALS.folderProp.goalID].sort());
      expect(gptRecent.body.questSubs.filter((s: QuestSub) => s.userID === p.id)).toHaveLength(2);
      expect(gptRecent.body.goals.length).toBeGreaterThanOrEqual(4);
      const mine = await t.http().get(ugpt(p, '/recently-achieved'));
      expect(mine.body.user.id).toBe(p.id);
      expect(mine.body.quest).toEqual(mine.body.quests);
      expect(mine.body.questSubs.map((s: QuestSub) => s.questID).sort()).toEqual([QUEST_ONE, QUEST_TWO]);
      // achieved ones leave recently-raised
      expect((await t.http().get(ugpt(p, '/recently-raised'))).body.goalSubs).toEqual([]);
      // popular goals count subscribers
      const popular = await t.http().get(`${GPT}/goals/popular`);
      const lamp1 = popular.body.find((g: { goalID: string }) => g.goalID === GOALS.lamp1.goalID);
      expect(lamp1.__subscriptions).toBe(await countRows(t, 'goalSubs', { goalID: GOALS.lamp1.goalID }));
      expect(popular.body.length).toBeLessThanOrEqual(100);
      const counts = popular.body.map((g: { __subscriptions: number }) => g.__subscriptions);
      expect(counts).toEqual([...counts].sort((a: number, b: number) => b - a));
    });

    it('a re-sent import moves nothing', async () => {
      const again = await importAs(t, p, [targetPlay(1, 9_750_000, 'EXCESSIVE CLEAR', T0 + MIN)]);
      expect(again.goalInfo).toEqual([]);
      expect(again.questInfo).toEqual([]);
    });

    it('deleting a score moves progress back and un-achieves', async () => {
      const scoreID = second.scoreIDs[1]; // song 3 CLEAR
      const res = await t.http().delete(`/api/v1/scores/${scoreID}`).set(bearer(p.token));
      expect(res.status).toBe(200);
      expect(await sub(p, GOALS.multi.goalID)).toMatchObject({ achieved: false, progress: null, progressHuman: 'NO DATA', timeAchieved: null });
      expect(await sub(p, GOALS.folderAbs.goalID)).toMatchObject({ achieved: false, progress: 1 });
      expect(await qsub(p, QUEST_ONE)).toMatchObject({ achieved: false, progress: 1 });
      expect(await qsub(p, QUEST_TWO)).toMatchObject({ achieved: false, progress: 0 });
    });

    it('reverting an import moves progress back', async () => {
      const res = await t.http().post(`/api/v1/imports/${second.importID}/revert`).set(bearer(p.token));
      expect(res.status).toBe(200);
      expect(await sub(p, GOALS.lamp1.goalID)).toMatchObject({ achieved: false, progress: 1, progressHuman: 'CLEAR' });
      expect(await qsub(p, QUEST_ONE)).toMatchObject({ achieved: false, progress: 0 });
      const quest = await t.http().get(ugpt(p, `/quests/${QUEST_ONE}`));
      expect(quest.body.results.map((r: { achieved: boolean }) => r.achieved)).toEqual([false, false]);
    });
  });

  describe('seed changes', () => {
    let alice: SignedUpUser;
    let token: string;

    beforeAll(async () => {
      alice = await signUp(t);
      token = await issueToken(alice, [...WRITE] as never);
      await importAs(t, { id: alice.user.id, username: alice.username, token }, [targetPlay(1, 9_900_000, 'CLEAR', T0 + 10 * MIN)]);
      expect(
        (
          await t
            .http()
            .put(ugpt(alice.user.id, `/quests/${QUEST_ONE}`))
            .set(bearer(token))
        ).status,
      ).toBe(200);
      expect(
        (
          await t
            .http()
            .put(ugpt(alice.user.id, `/goals/${GOALS.folderProp.goalID}`))
            .set(bearer(token))
        ).status,
      ).toBe(200);
    });

    it('a folder that gains a chart re-evaluates its goals; a changed quest re-subscribes and notifies its subscribers', async () => {
      const before = await storedGoalSub(t, alice.user.id, GOALS.folderProp.goalID);
      expect(before).toMatchObject({ outOf: 2, progress: 1 });
      await loadTargetSeeds(t, { folderSongs: [1, 2, 3, 4, 5, 6], questOneGoals: [GOALS.lamp1.goalID, GOALS.multi.goalID, GOALS.score2.goalID] });
      const after = (await storedGoalSub(t, alice.user.id, GOALS.folderProp.goalID))!;
      // 6 charts now: floor(0.5 × 6) = 3; alice cleared song 1 only
      expect(after).toMatchObject({ outOf: 3, progress: 1, outOfHuman: '3' });
      expect(after.lastInteraction).not.toBeNull();
      // quest one now holds score2 too: alice got a sub for it, and a notification
      const score2 = await storedGoalSub(t, alice.user.id, GOALS.score2.goalID);
      expect(score2).toMatchObject({ wasAssignedStandalone: false });
      const notes = await alice.agent.get(`/api/v1/users/${alice.user.id}/notifications`);
      expect(notes.status).toBe(200);
      expect(notes.body).toEqual([
        expect.objectContaining({
          title: "The quest 'Target Quest One' has received an update.",
          sentTo: alice.user.id,
          read: false,
          body: { type: 'QUEST_CHANGED', content: { questID: QUEST_ONE, game: 'sdvx', playtype: 'Single' } },
        }),
      ]);
      const quest = await t.http().get(ugpt(alice.user.id, `/quests/${QUEST_ONE}`));
      expect(quest.body.results.map((r: { goalID: string }) => r.goalID)).toEqual([GOALS.lamp1.goalID, GOALS.multi.goalID, GOALS.score2.goalID]);
    });

    it('deleting the account removes its subscriptions', async () => {
      const bob = await signUp(t);
      const bobToken = await issueToken(bob, [...WRITE] as never);
      await importAs(t, { id: bob.user.id, username: bob.username, token: bobToken }, [targetPlay(2, 9_000_000, 'CLEAR', T0 + 20 * MIN)]);
      expect(
        (
          await t
            .http()
            .put(ugpt(bob.user.id, `/quests/${QUEST_TWO}`))
            .set(bearer(bobToken))
        ).status,
      ).toBe(200);
      expect(await countRows(t, 'goalSubs', { userID: bob.user.id })).toBe(2);
      const res = await bob.agent.delete(`/api/v1/users/${bob.user.id}`).send({ '!password': bob.password });
      expect(res.status).toBe(200);
      expect(await countRows(t, 'goalSubs', { userID: bob.user.id })).toBe(0);
      expect(await countRows(t, 'questSubs', { userID: bob.user.id })).toBe(0);
    });

    it('removing the profile (destroy-ugpt route of the user) removes the subscriptions', async () => {
      const res = await alice.agent.delete(`/api/v1/users/${alice.user.id}/games/sdvx/Single`).send({ '!password': alice.password });
      expect(res.status).toBe(200);
      expect(await countRows(t, 'goalSubs', { userID: alice.user.id })).toBe(0);
      expect(await countRows(t, 'questSubs', { userID: alice.user.id })).toBe(0);
    });
  });
});
