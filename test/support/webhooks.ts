import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { TestApp } from './app.js';
import type { SignedUpUser } from './users.js';
import { bearer } from './users.js';
import type { WebhookDeliveryDocument } from '../../src/presenters/webhook-delivery.presenter.js';

export interface WebhookClient {
  clientID: string;
  webhookSecret: string;
  owner: SignedUpUser;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Creates an API client (submit_score) posting webhooks to `webhookUri`, through its owner's session. */
export async function createWebhookClient(owner: SignedUpUser, webhookUri: string | null): Promise<WebhookClient> {
  const res = await owner.agent.post('/api/v1/clients/create').send({ name: 'Webhook Receiver', webhookUri, permissions: ['submit_score'] });
  if (res.status !== 200) throw new Error(`client creation failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { clientID: res.body.clientID, webhookSecret: res.body.webhookSecret, owner };
}

/** The user authorises the client: it issues the user an API key (the client-file flow). Returns the key. */
export async function authorise(u: SignedUpUser, client: WebhookClient): Promise<string> {
  const res = await u.agent.post(`/api/v1/users/${u.user.id}/api-tokens/create`).send({ clientID: client.clientID });
  if (res.status !== 200) throw new Error(`key creation failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.token as string;
}

/** The client's delivery log through its owner's session. */
export async function deliveriesOf(t: TestApp, client: WebhookClient, query = ''): Promise<WebhookDeliveryDocument[]> {
  const res = await client.owner.agent.get(`/api/v1/clients/${client.clientID}/webhook-deliveries${query}`);
  if (res.status !== 200) throw new Error(`delivery log failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as WebhookDeliveryDocument[];
}

/** Waits until the client's log has `n` deliveries and none is pending (the test's timeout bounds the wait). */
export async function settledDeliveries(t: TestApp, client: WebhookClient, n: number): Promise<WebhookDeliveryDocument[]> {
  for (;;) {
    const rows = await deliveriesOf(t, client);
    if (rows.length >= n && rows.every((r) => r.status !== 'pending')) return rows;
    await sleep(25);
  }
}

/** What the README tells receivers to do: HMAC-SHA256 of "<timestamp>.<raw body>" with the webhook secret, compared in constant time. */
export function signatureIsValid(secret: string, headers: IncomingHttpHeaders, rawBody: string): boolean {
  const timestamp = headers['x-webhook-timestamp'];
  const signature = headers['x-webhook-signature'];
  if (typeof timestamp !== 'string' || typeof signature !== 'string') return false;
  const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex')}`);
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

export { bearer };
