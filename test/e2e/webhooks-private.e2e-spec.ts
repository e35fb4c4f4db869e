import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestApp, type TestApp } from '../support/app.js';
import { batchManual, imported, loadFixtureCatalog, MINUTE, T0 } from '../support/imports.js';
import { signUp } from '../support/users.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { authorise, createWebhookClient, settledDeliveries } from '../support/webhooks.js';

/** Without WEBHOOKS_ALLOW_PRIVATE (the production default), a receiver on a loopback address gets nothing. */
describe('webhooks to private addresses', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    t = await createTestApp({ WEBHOOKS_ALLOW_PRIVATE: 'false', WEBHOOK_POLL_INTERVAL_MS: '50' });
    await loadFixtureCatalog(t.database, 'catalog', ['sdvx']);
    receiver = await startWebhookReceiver();
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  it.each([
    ['127.0.0.1', (port: string) => `http://127.0.0.1:${port}/hook`],
    ['localhost (resolved first)', (port: string) => `http://localhost:${port}/hook`],
  ])('are refused for good, without a request, at %s; the log says why', async (_name, uri) => {
    const dev = await signUp(t);
    const client = await createWebhookClient(dev, uri(new URL(receiver.url).port));
    const p = await signUp(t);
    const key = await authorise(p, client);
    const doc = await imported(
      t,
      key,
      batchManual('sdvx', 'Single', [
        { matchType: 'sdvxInGameID', identifier: '1001', difficulty: 'EXH', score: 9_000_000, lamp: 'CLEAR', timeAchieved: T0 },
        { matchType: 'sdvxInGameID', identifier: '1001', difficulty: 'MXM', score: 9_100_000, lamp: 'CLEAR', timeAchieved: T0 + MINUTE },
      ]),
    );
    expect(doc.classDeltas).toHaveLength(1);
    const [log] = await settledDeliveries(t, client, 1);
    expect(log).toMatchObject({ type: 'class-update/v1', status: 'failed', attempts: 1, lastStatusCode: null });
    expect(log.lastError).toMatch(/a private, loopback or link-local address: not delivered to \(WEBHOOKS_ALLOW_PRIVATE is off\)/);
    expect(receiver.received).toEqual([]);
  });
});
