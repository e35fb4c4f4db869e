import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ImportsService } from '../../src/imports/imports.service.js';
import { WebhooksService } from '../../src/webhooks/webhooks.service.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { refuseWebhookDeliveries, storeGoals, storeQuests, storeWebhookDelivery } from '../support/db-fixtures.js';
import { batchManual, importFile, imported, loadFixtureCatalog, T0, MINUTE } from '../support/imports.js';
import { countRows, storedApiClient } from '../support/stored.js';
import { bearer, issueToken, signUp, type SignedUpUser } from '../support/users.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { authorise, createWebhookClient, deliveriesOf, settledDeliveries, signatureIsValid, type WebhookClient } from '../support/webhooks.js';

const CLIENTS = '/api/v1/clients';

/** Two sdvx plays: the import derives a first vfClass (SIENNA_I), a class-update/v1 event. */
const raisingImport = (offset = 0) =>
  batchManual('sdvx', 'Single', [
    { matchType: 'sdvxInGameID', identifier: '1001', difficulty: 'EXH', score: 9_000_000, lamp: 'CLEAR', timeAchieved: T0 + offset },
    { matchType: 'sdvxInGameID', identifier: '1001', difficulty: 'MXM', score: 9_100_000, lamp: 'CLEAR', timeAchieved: T0 + offset + MINUTE },
  ]);

/**
 * Webhook events end to end with the in-process delivery (the deliveries table, polled): a real
 * HTTP receiver, signatures checked as the README says, retries, the delivery log and its route,
 * and the webhook secret's reset route. Retries are fast here (100 ms, then 200 ms).
 */
describe('webhooks', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  let other: WebhookReceiver;
  let dev: SignedUpUser;

  beforeAll(async () => {
    t = await createTestApp({ WEBHOOK_RETRY_BASE_MS: '100', WEBHOOK_POLL_INTERVAL_MS: '50', WEBHOOK_MAX_ATTEMPTS: '3' });
    await loadFixtureCatalog(t.database, 'catalog', ['sdvx']);
    receiver = await startWebhookReceiver();
    other = await startWebhookReceiver();
    dev = await signUp(t);
  }, 120_000);
  /** An import's events stored and queued as its commit does (storeImportEvents in its transaction, then schedule). */
  const storeImportEvents = async (doc: Parameters<WebhooksService['storeImportEvents']>[1]) => {
    const webhooks = t.app.get(WebhooksService);
    webhooks.schedule(await t.database.transaction((tx) => webhooks.storeImportEvents(tx, doc)));
  };

  afterAll(async () => {
    await t?.close();
    await receiver.close();
    await other.close();
  });

  describe('the webhook secret', () => {
    it('is shown when the client is created, and not when it is read or listed', async () => {
      const res = await dev.agent.post(`${CLIENTS}/create`).send({ name: 'Secretive', webhookUri: `${receiver.url}/x`, permissions: ['submit_score'] });
      expect(res.status).toBe(200);
      expect(res.body.webhookSecret).toMatch(/^WS[0-9a-f]{40}$/);
      expect(res.body.webhookSecret).not.toBe(res.body.clientSecret);
      const read = await dev.agent.get(`${CLIENTS}/${res.body.clientID}`);
      expect(read.body).not.toHaveProperty('webhookSecret');
      const list = await dev.agent.get(CLIENTS);
      expect(list.body.find((c: { clientID: string }) => c.clientID === res.body.clientID)).not.toHaveProperty('webhookSecret');
    });

    it('POST /clients/:clientID/reset-webhook-secret gives the owner a new one, which signs from then on', async () => {
      const client = await createWebhookClient(dev, `${receiver.url}/reset`);
      const res = await dev.agent.post(`${CLIENTS}/${client.clientID}/reset-webhook-secret`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ clientID: client.clientID, webhookSecret: expect.stringMatching(/^WS[0-9a-f]{40}$/) });
      expect(res.body.webhookSecret).not.toBe(client.webhookSecret);
      expect(res.body).not.toHaveProperty('clientSecret');

      const p = await signUp(t);
      const key = await authorise(p, client);
      const before = receiver.received.length;
      await imported(t, key, raisingImport());
      const [got] = (await receiver.waitFor(before + 1)).slice(before);
      expect(got.path).toBe('/reset');
      expect(signatureIsValid(res.body.webhookSecret, got.headers, got.body)).toBe(true);
      expect(signatureIsValid(client.webhookSecret, got.headers, got.body)).toBe(false);
      expect(got.headers.authorization).toBe(`Bearer ${res.body.webhookSecret}`);
    });

    it('reset is 403 for another user, 404 for an unknown client, 401 for a guest and 403 for an API key', async () => {
      const client = await createWebhookClient(dev, `${receiver.url}/x`);
      const stranger = await signUp(t);
      const path = `${CLIENTS}/${client.clientID}/reset-webhook-secret`;
      expect((await stranger.agent.post(path)).status).toBe(403);
      expect((await dev.agent.post(`${CLIENTS}/CI${'0'.repeat(40)}/reset-webhook-secret`)).status).toBe(404);
      expect((await t.http().post(path)).status).toBe(401);
      const devKey = await issueToken(dev, ['submit_score']);
      expect((await t.http().post(path).set(bearer(devKey))).status).toBe(403);
      // Nothing changed.
      expect((await storedApiClient(t, client.clientID))?.webhookSecret).toBe(client.webhookSecret);
    });
  });

  describe("an import's events commit with it (an outbox)", () => {
    it('are stored in its transaction: events that cannot be stored fail the import whole, and its retry stores both once', async () => {
      const client = await createWebhookClient(dev, `${receiver.url}/outbox`);
      const p = await signUp(t);
      const key = await authorise(p, client);
      const allow = await refuseWebhookDeliveries(t);
      let refused: Awaited<ReturnType<typeof importFile>>;
      try {
        refused = await importFile(t, key, raisingImport(7 * MINUTE));
      } finally {
        await allow();
      }
      // Nothing of it was kept: no score, no raised class, no delivery (before, the import committed and its events were lost).
      expect(refused.status).toBe(500);
      expect(await countRows(t, 'scores', { userID: p.user.id })).toBe(0);
      expect(await deliveriesOf(t, client)).toEqual([]);

      const doc = await imported(t, key, raisingImport(7 * MINUTE));
      expect(doc.classDeltas).toEqual([expect.objectContaining({ set: 'vfClass', new: 'SIENNA_I' })]);
      // A redelivered job finds the import completed: its events were stored with it, and are not stored again.
      await t.app.get(ImportsService).runQueued(doc.importID, () => undefined);
      const rows = await settledDeliveries(t, client, 1);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ status: 'delivered', payload: { type: 'class-update/v1', content: { userID: p.user.id, new: 'SIENNA_I' } } });
      expect(receiver.received.filter((r) => r.path === '/outbox')).toHaveLength(1);
    });
  });

  describe('class-update/v1', () => {
    let authorised: WebhookClient;
    let unrelated: WebhookClient;
    let p: SignedUpUser;

    beforeAll(async () => {
      authorised = await createWebhookClient(dev, `${receiver.url}/hooks/scores`);
      // A client with a webhookUri that the player never authorised, owned by the player even.
      p = await signUp(t);
      unrelated = await createWebhookClient(p, `${other.url}/not-mine`);
    });

    it('is posted, signed, to the authorised client after the import, and to no other client', async () => {
      const key = await authorise(p, authorised);
      const before = receiver.received.length;
      const sentAfter = Math.floor(Date.now() / 1000);
      const doc = await imported(t, key, raisingImport());
      expect(doc.classDeltas).toEqual([{ game: 'sdvx', playtype: 'Single', set: 'vfClass', old: null, new: 'SIENNA_I' }]);

      const [got] = (await receiver.waitFor(before + 1)).slice(before);
      expect(got.path).toBe('/hooks/scores');
      expect(JSON.parse(got.body)).toEqual({
        type: 'class-update/v1',
        content: { userID: p.user.id, set: 'vfClass', old: null, new: 'SIENNA_I', game: 'sdvx', playtype: 'Single' },
      });
      expect(got.headers['content-type']).toBe('application/json');
      expect(got.headers.authorization).toBe(`Bearer ${authorised.webhookSecret}`);
      expect(got.headers['x-webhook-event']).toBe('class-update/v1');
      expect(Number(got.headers['x-webhook-timestamp'])).toBeGreaterThanOrEqual(sentAfter);
      expect(signatureIsValid(authorised.webhookSecret, got.headers, got.body)).toBe(true);

      const [log] = await settledDeliveries(t, authorised, 1);
      expect(log).toMatchObject({
        deliveryID: Number(got.headers['x-webhook-delivery']),
        type: 'class-update/v1',
        userID: p.user.id,
        status: 'delivered',
        attempts: 1,
        lastStatusCode: 200,
        lastError: null,
        lastUrl: `${receiver.url}/hooks/scores`,
        nextAttemptAt: null,
        payload: JSON.parse(got.body),
      });
      expect(log.deliveredAt).toBeGreaterThanOrEqual(log.createdAt);

      expect(await deliveriesOf(t, unrelated)).toEqual([]);
      expect(other.received).toEqual([]);
    });

    it('is not sent for an import that raises nothing', async () => {
      const key = await authorise(p, authorised);
      const doc = await imported(t, key, raisingImport(10 * MINUTE));
      expect(doc.classDeltas).toEqual([]);
      const log = await settledDeliveries(t, authorised, 1);
      expect(log).toHaveLength(1);
    });
  });

  it('sends goals-achieved/v1 and quest-achieved/v1 for the goals and quests an ImportDocument shows newly achieved', async () => {
    // The targets module fills goalInfo/questInfo; here a hand-made document of that shape, with a real goal and quest row.
    await storeGoals(t, [
      {
        goalID: 'G-webhook-1',
        game: 'sdvx',
        playtype: 'Single',
        name: 'HC a chart',
        charts: { type: 'single', data: 'c1' },
        criteria: { key: 'lamp', value: 3, mode: 'single' },
        seedHash: 'x',
      },
      {
        goalID: 'G-webhook-2',
        game: 'sdvx',
        playtype: 'Single',
        name: 'HC another',
        charts: { type: 'single', data: 'c2' },
        criteria: { key: 'lamp', value: 3, mode: 'single' },
        seedHash: 'x',
      },
    ]);
    await storeQuests(t, [
      {
        questID: 'Q-webhook',
        game: 'sdvx',
        playtype: 'Single',
        name: 'Quest',
        desc: '',
        questData: [{ title: 'All', goals: [{ goalID: 'G-webhook-1' }, { goalID: 'G-webhook-2' }] }],
        seedHash: 'x',
      },
    ]);
    const client = await createWebhookClient(dev, `${receiver.url}/targets`);
    const p = await signUp(t);
    await authorise(p, client);
    const stat = (progress: number | null, achieved: boolean) => ({
      progress,
      progressHuman: achieved ? 'HARD CLEAR' : 'CLEAR',
      outOf: 3,
      outOfHuman: 'HARD CLEAR',
      achieved,
    });
    await storeImportEvents({
      importID: 'hand-made-import',
      userID: p.user.id,
      classDeltas: [],
      goalInfo: [
        { goalID: 'G-webhook-1', old: stat(2, false), new: stat(3, true) },
        { goalID: 'G-webhook-2', old: stat(3, true), new: stat(3, true) },
      ],
      questInfo: [{ questID: 'Q-webhook', old: { progress: 1, achieved: false }, new: { progress: 2, achieved: true } }],
    });
    const log = await settledDeliveries(t, client, 2);
    expect(log.map((d) => [d.type, d.status])).toEqual([
      ['quest-achieved/v1', 'delivered'],
      ['goals-achieved/v1', 'delivered'],
    ]);
    const bodies = receiver.received.filter((r) => r.path === '/targets').map((r) => JSON.parse(r.body));
    expect(bodies).toEqual(
      expect.arrayContaining([
        {
          type: 'goals-achieved/v1',
          content: { userID: p.user.id, game: 'sdvx', goals: [{ goalID: 'G-webhook-1', old: stat(2, false), new: stat(3, true), playtype: 'Single' }] },
        },
        {
          type: 'quest-achieved/v1',
          content: {
            userID: p.user.id,
            questID: 'Q-webhook',
            old: { progress: 1, achieved: false },
            new: { progress: 2, achieved: true },
            game: 'sdvx',
            playtype: 'Single',
          },
        },
      ]),
    );
    expect(bodies).toHaveLength(2);

    // The same document again (a redelivered import job): no second delivery.
    await storeImportEvents({
      importID: 'hand-made-import',
      userID: p.user.id,
      classDeltas: [],
      goalInfo: [{ goalID: 'G-webhook-1', old: stat(2, false), new: stat(3, true) }],
      questInfo: [],
    });
    expect(await deliveriesOf(t, client)).toHaveLength(2);
  });

  it('retries after a 500, with backoff, until the receiver accepts it', async () => {
    const client = await createWebhookClient(dev, `${receiver.url}/flaky`);
    const p = await signUp(t);
    const key = await authorise(p, client);
    receiver.respond((req) => (req.path === '/flaky' && receiver.received.filter((r) => r.path === '/flaky').length === 1 ? { status: 500 } : { status: 200 }));
    try {
      await imported(t, key, raisingImport());
      const [log] = await settledDeliveries(t, client, 1);
      expect(log).toMatchObject({ status: 'delivered', attempts: 2, lastStatusCode: 200, lastError: null });
      const attempts = receiver.received.filter((r) => r.path === '/flaky');
      expect(attempts).toHaveLength(2);
      expect(attempts[1].body).toBe(attempts[0].body);
      expect(attempts[1].headers['x-webhook-delivery']).toBe(attempts[0].headers['x-webhook-delivery']);
      expect(attempts[1].at - attempts[0].at).toBeGreaterThanOrEqual(100);
      expect(signatureIsValid(client.webhookSecret, attempts[1].headers, attempts[1].body)).toBe(true);
    } finally {
      receiver.respond(() => ({ status: 200 }));
    }
  });

  it('gives up after WEBHOOK_MAX_ATTEMPTS, and the import itself is unaffected', async () => {
    const client = await createWebhookClient(dev, `${receiver.url}/down`);
    const p = await signUp(t);
    const key = await authorise(p, client);
    receiver.respond((req) => (req.path === '/down' ? { status: 503 } : { status: 200 }));
    try {
      const doc = await imported(t, key, raisingImport());
      expect(doc.scoreIDs).toHaveLength(2);
      const [log] = await settledDeliveries(t, client, 1);
      expect(log).toMatchObject({ status: 'failed', attempts: 3, lastStatusCode: 503, lastError: 'The receiver answered 503.', deliveredAt: null });
      expect(receiver.received.filter((r) => r.path === '/down')).toHaveLength(3);
    } finally {
      receiver.respond(() => ({ status: 200 }));
    }
  });

  it('an unreachable receiver neither blocks nor fails the import', async () => {
    const closed = await startWebhookReceiver();
    await closed.close();
    const client = await createWebhookClient(dev, `${closed.url}/gone`);
    const p = await signUp(t);
    const key = await authorise(p, client);
    const doc = await imported(t, key, raisingImport());
    expect(doc.classDeltas).toHaveLength(1);
    const [log] = await settledDeliveries(t, client, 1);
    expect(log).toMatchObject({ status: 'failed', attempts: 3, lastStatusCode: null });
    expect(log.lastError).toMatch(/ECONNREFUSED/);
  });

  it('delivers rows left pending in the table (by a stopped process): the poll finds them', async () => {
    const client = await createWebhookClient(dev, `${receiver.url}/leftover`);
    const p = await signUp(t);
    const payload = { type: 'class-update/v1', content: { userID: p.user.id, set: 'dan', old: null, new: 'DAN_1', game: 'sdvx', playtype: 'Single' } };
    await storeWebhookDelivery(t, {
      clientID: client.clientID,
      userID: p.user.id,
      eventKey: 'left-by-another-process',
      eventType: 'class-update/v1',
      payload,
      status: 'pending',
      attempts: 1,
      nextAttemptAt: Date.now() - 1000,
      createdAt: Date.now() - 60_000,
    });
    const [log] = await settledDeliveries(t, client, 1);
    expect(log).toMatchObject({ status: 'delivered', attempts: 2 });
    const got = receiver.received.find((r) => r.path === '/leftover')!;
    expect(JSON.parse(got.body)).toEqual(payload);
  });

  describe('GET /clients/:clientID/webhook-deliveries', () => {
    let client: WebhookClient;

    beforeAll(async () => {
      client = await createWebhookClient(dev, `${receiver.url}/log`);
      const p = await signUp(t);
      const key = await authorise(p, client);
      // Two players' first imports: two deliveries in the log.
      await imported(t, key, raisingImport());
      const q = await signUp(t);
      await imported(t, await authorise(q, client), raisingImport());
      await settledDeliveries(t, client, 2);
    });

    it('lists newest first, with limit and before paging', async () => {
      const all = await deliveriesOf(t, client);
      expect(all).toHaveLength(2);
      expect(all[0].deliveryID).toBeGreaterThan(all[1].deliveryID);
      expect(await deliveriesOf(t, client, '?limit=1')).toEqual([all[0]]);
      expect(await deliveriesOf(t, client, `?limit=1&before=${all[0].deliveryID}`)).toEqual([all[1]]);
      expect(await deliveriesOf(t, client, `?before=${all[1].deliveryID}`)).toEqual([]);
    });

    it('is 403 for another user, 404 for an unknown client, 401 for a guest, 403 for an API key', async () => {
      const path = `${CLIENTS}/${client.clientID}/webhook-deliveries`;
      const stranger = await signUp(t);
      expect((await stranger.agent.get(path)).status).toBe(403);
      expect((await dev.agent.get(`${CLIENTS}/CI${'1'.repeat(40)}/webhook-deliveries`)).status).toBe(404);
      expect((await t.http().get(path)).status).toBe(401);
      expect(
        (
          await t
            .http()
            .get(path)
            .set(bearer(await issueToken(dev, ['submit_score'])))
        ).status,
      ).toBe(403);
    });

    it('is 400 for a bad limit or before, or an unknown parameter', async () => {
      const path = `${CLIENTS}/${client.clientID}/webhook-deliveries`;
      for (const query of ['?limit=0', '?limit=101', '?limit=abc', '?before=-1', '?before=1.5', '?status=failed']) {
        const res = await dev.agent.get(`${path}${query}`);
        expect([query, res.status]).toEqual([query, 400]);
      }
      const res = await dev.agent.get(`${path}?limit=0`);
      expect(JSON.stringify(res.body)).toMatch(/limit must be an integer from 1 to 100/);
    });
  });
});
