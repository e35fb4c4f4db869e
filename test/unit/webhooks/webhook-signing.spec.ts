import { describe, expect, it } from '@jest/globals';
import { signWebhook, verifyWebhookSignature, webhookHeaders } from '../../../src/webhooks/webhook-signing.js';
import { retryDelayMs } from '../../../src/webhooks/webhooks.service.js';

const BODY = '{"type":"class-update/v1","content":{"userID":1}}';

describe('webhook signatures', () => {
  it('is sha256= and the hex HMAC-SHA256 of "<timestamp>.<body>" (value from `openssl dgst -sha256 -hmac`)', () => {
    expect(signWebhook('WSsecret', '1700000000', BODY)).toBe('sha256=40a73f2a34974c9533166e5ddfdb7da0c1ccac81b0f49f506dca4a3bc40258af');
  });

  it('verifies its own signature, and nothing that differs in secret, timestamp or body', () => {
    const sig = signWebhook('WSsecret', '1700000000', BODY);
    expect(verifyWebhookSignature('WSsecret', '1700000000', BODY, sig)).toBe(true);
    expect(verifyWebhookSignature('WSother', '1700000000', BODY, sig)).toBe(false);
    expect(verifyWebhookSignature('WSsecret', '1700000001', BODY, sig)).toBe(false);
    expect(verifyWebhookSignature('WSsecret', '1700000000', `${BODY} `, sig)).toBe(false);
    expect(verifyWebhookSignature('WSsecret', '1700000000', BODY, 'sha256=00')).toBe(false);
  });

  it('sends the timestamp in Unix seconds, the signature, and the bearer token given (the webhook secret under spec)', () => {
    const headers = webhookHeaders('WSsecret', BODY, { deliveryID: 9, type: 'class-update/v1' }, 1_700_000_000_999, 'WSsecret');
    expect(headers).toEqual({
      'Content-Type': 'application/json',
      Authorization: 'Bearer WSsecret',
      'X-Webhook-Timestamp': '1700000000',
      'X-Webhook-Signature': 'sha256=40a73f2a34974c9533166e5ddfdb7da0c1ccac81b0f49f506dca4a3bc40258af',
      'X-Webhook-Delivery': '9',
      'X-Webhook-Event': 'class-update/v1',
    });
  });

  it('sends another bearer token (the client secret under tachi) or none, with the same signature by the webhook secret', () => {
    const event = { deliveryID: 9, type: 'class-update/v1' };
    const signature = 'sha256=40a73f2a34974c9533166e5ddfdb7da0c1ccac81b0f49f506dca4a3bc40258af';
    const tachi = webhookHeaders('WSsecret', BODY, event, 1_700_000_000_999, 'CSclient');
    expect(tachi).toMatchObject({ Authorization: 'Bearer CSclient', 'X-Webhook-Signature': signature });
    const none = webhookHeaders('WSsecret', BODY, event, 1_700_000_000_999, null);
    expect(none).not.toHaveProperty('Authorization');
    expect(none['X-Webhook-Signature']).toBe(signature);
  });
});

describe('retry delays', () => {
  it('start at the base and double: 30 s, 60 s, 120 s, 240 s', () => {
    expect([1, 2, 3, 4].map((n) => retryDelayMs(30_000, n))).toEqual([30_000, 60_000, 120_000, 240_000]);
  });
});
