import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { ImportDocument } from '../../src/presenters/import.presenter.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { GOALS, loadTargetSeeds, QUEST_ONE, targetPlay } from '../support/target-fixtures.js';
import { signUp, type SignedUpUser } from '../support/users.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { bearer, signatureIsValid } from '../support/webhooks.js';

const T0 = Date.UTC(2025, 2, 1, 12);
const MIN = 60_000;

/**
 * Issue 9, tried as a new user would: an app the player authorised (its key may submit scores and
 * manage targets) subscribes the player to a seed quest, imports scores that clear one of its
 * goals, and the progress shows in the ImportDocument, in the player's quest, in the game's
 * recently-achieved list and at the app's own webhook receiver, whose signature check passes.
 */
describe('targets, end to end: a quest subscribed with a token, cleared by an import, told to a webhook', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  let player: SignedUpUser;
  let webhookSecret: string;
  let token: string;

  const importScores = async (scores: object[]) => {
    const res = await t
      .http()
      .post('/api/v1/ir/direct-manual/import')
      .set(bearer(token))
      .send({ meta: { game: 'sdvx', playtype: 'Single', service: 'journey' }, scores });
    expect(res.status).toBe(200);
    return res.body as ImportDocument;
  };

  beforeAll(async () => {
    t = await createTestApp({ WEBHOOK_POLL_INTERVAL_MS: '50' });
    await loadTargetSeeds(t);
    receiver = await startWebhookReceiver();
    const developer = await signUp(t);
    const client = await developer.agent
      .post('/api/v1/clients/create')
      .send({ name: 'Quest Tracker', webhookUri: `${receiver.url}/hooks`, permissions: ['submit_score', 'manage_targets'] });
    expect(client.status).toBe(200);
    webhookSecret = client.body.webhookSecret as string;
    player = await signUp(t);
    // The player authorises the app: it issues the player a key with the app's permissions.
    const key = await player.agent.post(`/api/v1/users/${player.user.id}/api-tokens/create`).send({ clientID: client.body.clientID });
    expect(key.status).toBe(200);
    token = key.body.token as string;
  }, 120_000);

  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });

  it('shows the cleared goal everywhere and delivers a signed goals-achieved/v1', async () => {
    // A first score makes the profile; quest one asks for EXCESSIVE CLEAR on song 1 and a CLEAR on song 3 or 4.
    await importScores([targetPlay(1, 9_000_000, 'CLEAR', T0)]);
    const ugpt = `/api/v1/users/${player.user.id}/games/sdvx/Single/targets`;
    const subscribed = await t.http().put(`${ugpt}/quests/${QUEST_ONE}`).set(bearer(token));
    expect(subscribed.status).toBe(200);
    expect(subscribed.body.questSub).toMatchObject({ questID: QUEST_ONE, achieved: false, progress: 0, wasInstantlyAchieved: false });

    const doc = await importScores([targetPlay(1, 9_700_000, 'EXCESSIVE CLEAR', T0 + 10 * MIN)]);
    expect(doc.goalInfo).toEqual([
      {
        goalID: GOALS.lamp1.goalID,
        old: { progress: 1, progressHuman: 'CLEAR', outOf: 2, outOfHuman: 'EXCESSIVE CLEAR', achieved: false },
        new: { progress: 2, progressHuman: 'EXCESSIVE CLEAR', outOf: 2, outOfHuman: 'EXCESSIVE CLEAR', achieved: true },
      },
    ]);
    expect(doc.questInfo).toEqual([{ questID: QUEST_ONE, old: { progress: 0, achieved: false }, new: { progress: 1, achieved: false } }]);

    const quest = await t.http().get(`${ugpt}/quests/${QUEST_ONE}`);
    expect(quest.status).toBe(200);
    expect(quest.body.questSub).toMatchObject({ progress: 1, achieved: false });
    expect(quest.body.results).toEqual(
      expect.arrayContaining([expect.objectContaining({ goalID: GOALS.lamp1.goalID, achieved: true, progressHuman: 'EXCESSIVE CLEAR' })]),
    );

    const recent = await t.http().get('/api/v1/games/sdvx/Single/targets/recently-achieved');
    expect(recent.status).toBe(200);
    expect(recent.body.goalSubs).toEqual([
      expect.objectContaining({ goalID: GOALS.lamp1.goalID, userID: player.user.id, achieved: true, wasInstantlyAchieved: false }),
    ]);
    expect(recent.body.goals.map((g: { goalID: string }) => g.goalID)).toEqual([GOALS.lamp1.goalID]);

    // The first import also raised the player's VOLFORCE class (a class-update/v1 delivery).
    let delivery = receiver.received.find((r) => r.body.includes('goals-achieved/v1'));
    for (let n = 1; !delivery; n++) delivery = (await receiver.waitFor(n)).find((r) => r.body.includes('goals-achieved/v1'));
    expect(delivery.path).toBe('/hooks');
    expect(signatureIsValid(webhookSecret, delivery.headers, delivery.body)).toBe(true);
    expect(delivery.headers.authorization).toBe(`Bearer ${webhookSecret}`);
    expect(JSON.parse(delivery.body)).toEqual({
      type: 'goals-achieved/v1',
      content: {
        userID: player.user.id,
        game: 'sdvx',
        goals: [
          {
            goalID: GOALS.lamp1.goalID,
            playtype: 'Single',
            old: { progress: 1, progressHuman: 'CLEAR', outOf: 2, outOfHuman: 'EXCESSIVE CLEAR', achieved: false },
            new: { progress: 2, progressHuman: 'EXCESSIVE CLEAR', outOf: 2, outOfHuman: 'EXCESSIVE CLEAR', achieved: true },
          },
        ],
      },
    });
  }, 60_000);
});
