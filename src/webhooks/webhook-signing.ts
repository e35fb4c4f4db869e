import { createHmac, timingSafeEqual } from 'node:crypto';

export const TIMESTAMP_HEADER = 'X-Webhook-Timestamp';
export const SIGNATURE_HEADER = 'X-Webhook-Signature';
export const DELIVERY_HEADER = 'X-Webhook-Delivery';
export const EVENT_HEADER = 'X-Webhook-Event';

/** `sha256=` and the hex HMAC-SHA256, keyed by the client's webhook secret, of `<timestamp>.<body>`. */
export function signWebhook(secret: string, timestamp: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/** What a receiver does (the README shows the same check): constant-time comparison of the signature. */
export function verifyWebhookSignature(secret: string, timestamp: string, body: string, signature: string): boolean {
  const expected = Buffer.from(signWebhook(secret, timestamp, body));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/**
 * The headers of one attempt: the signature over a fresh timestamp (Unix seconds), keyed by the
 * webhook secret, and `bearer` as the bearer token (none when null): the client secret under
 * API_PROFILE=tachi, as Tachi sends it; the webhook secret under spec.
 */
export function webhookHeaders(
  secret: string,
  body: string,
  event: { deliveryID: number; type: string },
  nowMs: number,
  bearer: string | null,
): Record<string, string> {
  const timestamp = String(Math.floor(nowMs / 1000));
  return {
    'Content-Type': 'application/json',
    ...(bearer !== null ? { Authorization: `Bearer ${bearer}` } : {}),
    [TIMESTAMP_HEADER]: timestamp,
    [SIGNATURE_HEADER]: signWebhook(secret, timestamp, body),
    [DELIVERY_HEADER]: String(event.deliveryID),
    [EVENT_HEADER]: event.type,
  };
}
