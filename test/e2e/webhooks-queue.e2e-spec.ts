import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Queue } from 'bullmq';
import { WEBHOOK_QUEUE_NAME } from '../../src/webhooks/bullmq-webhook-queue.js';
import { createTestApp, usingRedis, type TestApp } from '../support/app.js';
import { storeWebhookDelivery } from '../support/db-fixtures.js';
import { batchManual, imported, loadFixtureCatalog, MINUTE, T0 } from '../support/imports.js';
import { signUp, type SignedUpUser } from '../support/users.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { authorise, createWebhookClient, deliveriesOf, settledDeliveries, signatureIsValid } from '../support/webhooks.js';

const raisingImport = () =>
  batchManual('sdvx', 'Single', [
    { matchType: 'sdvxInGameID', identifier: '1001', difficulty: 'EXH', score: 9_000_000, lamp: 'CLEAR', timeAchieved: T0 },
    { matchType: 'sdvxInGameID', identifier: '1001', difficulty: 'MXM', score: 9_100_000, lamp: 'CLEAR', timeAchieved: T0 + MINUTE },
  ]);

/**
 * Queue mode (REDIS_URL): each delivery is a BullMQ job on the real Redis of TEST_REDIS_URL,
 * retried by BullMQ with exponential backoff; the delivery log records every attempt as in the
 * polled mode. Skipped without TEST_REDIS_URL.
 */
(usingRedis ? describe : describe.skip)('webhooks through BullMQ', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  let dev: SignedUpUser;

  beforeAll(async () => {
    t = await createTestApp({ WEBHOOK_RETRY_BASE_MS: '100', WEBHOOK_MAX_ATTEMPTS: '3', WEBHOOK_POLL_INTERVAL_MS: '100' }, { webhookQueue: 'queue' });
    await loadFixtureCatalog(t.database, 'catalog', ['sdvx']);
    receiver = await startWebhookReceiver();
    dev = await signUp(t);
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  it('delivers class-update/v1 as a job, signed, to the authorised client only', async () => {
    const client = await createWebhookClient(dev, `${receiver.url}/queued`);
    const unrelated = await createWebhookClient(dev, `${receiver.url}/unrelated`);
    const p = await signUp(t);
    await imported(t, await authorise(p, client), raisingImport());
    const [log] = await settledDeliveries(t, client, 1);
    expect(log).toMatchObject({ type: 'class-update/v1', status: 'delivered', attempts: 1, lastStatusCode: 200 });
    const got = receiver.received.filter((r) => r.path === '/queued');
    expect(got).toHaveLength(1);
    expect(JSON.parse(got[0].body)).toEqual({
      type: 'class-update/v1',
      content: { userID: p.user.id, set: 'vfClass', old: null, new: 'SIENNA_I', game: 'sdvx', playtype: 'Single' },
    });
    expect(signatureIsValid(client.webhookSecret, got[0].headers, got[0].body)).toBe(true);
    expect(await deliveriesOf(t, unrelated)).toEqual([]);
    expect(receiver.received.filter((r) => r.path === '/unrelated')).toEqual([]);

    // The job was this app's queue's, under its key prefix.
    const queue = new Queue(WEBHOOK_QUEUE_NAME, { connection: t.redis!.ioredis, prefix: t.keyPrefix });
    try {
      expect(await queue.getJobCounts('waiting', 'delayed', 'active')).toEqual({ waiting: 0, delayed: 0, active: 0 });
    } finally {
      await queue.close();
    }
  });

  it('retries after a 500 with backoff, then gives up after WEBHOOK_MAX_ATTEMPTS', async () => {
    const flaky = await createWebhookClient(dev, `${receiver.url}/q-flaky`);
    const down = await createWebhookClient(dev, `${receiver.url}/q-down`);
    receiver.respond((req) => {
      if (req.path === '/q-down') return { status: 500 };
      if (req.path === '/q-flaky' && receiver.received.filter((r) => r.path === '/q-flaky').length === 1) return { status: 500 };
      return { status: 200 };
    });
    try {
      const p = await signUp(t);
      await authorise(p, down);
      await imported(t, await authorise(p, flaky), raisingImport());
      const [ok] = await settledDeliveries(t, flaky, 1);
      expect(ok).toMatchObject({ status: 'delivered', attempts: 2 });
      const flakyAttempts = receiver.received.filter((r) => r.path === '/q-flaky');
      expect(flakyAttempts[1].at - flakyAttempts[0].at).toBeGreaterThanOrEqual(100);
      const [failed] = await settledDeliveries(t, down, 1);
      expect(failed).toMatchObject({ status: 'failed', attempts: 3, lastStatusCode: 500 });
      expect(receiver.received.filter((r) => r.path === '/q-down')).toHaveLength(3);
    } finally {
      receiver.respond(() => ({ status: 200 }));
    }
  });

  it('queues deliveries stored without a job (by the CLI, or while Redis was down) at its next sweep', async () => {
    const client = await createWebhookClient(dev, `${receiver.url}/q-stored`);
    const p = await signUp(t);
    const payload = { type: 'class-update/v1', content: { userID: p.user.id, set: 'dan', old: null, new: 'DAN_1', game: 'sdvx', playtype: 'Single' } };
    await storeWebhookDelivery(t, {
      clientID: client.clientID,
      userID: p.user.id,
      eventKey: 'stored-by-the-cli',
      eventType: 'class-update/v1',
      payload,
      status: 'pending',
      nextAttemptAt: Date.now(),
      createdAt: Date.now(),
    });
    const [log] = await settledDeliveries(t, client, 1);
    expect(log).toMatchObject({ status: 'delivered', attempts: 1 });
    expect(JSON.parse(receiver.received.find((r) => r.path === '/q-stored')!.body)).toEqual(payload);
  });
});
