import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { isPublicAddress, RefusedWebhookTarget, resolveWebhookTarget, type ResolvedTarget } from './webhook-address.js';

/** Redirects one attempt follows (each one checked like the first URL). */
export const MAX_WEBHOOK_REDIRECTS = 5;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export interface SendOptions {
  /** WEBHOOKS_ALLOW_PRIVATE: any address may be reached. */
  allowPrivate: boolean;
  timeoutMs: number;
  /** Which addresses may be reached when allowPrivate is off; isPublicAddress unless given. */
  isAllowed?: (address: string) => boolean;
}

export interface SendResult {
  /** A 2xx answer. */
  ok: boolean;
  /** The final answer's status, if one came. */
  statusCode: number | null;
  /** Why it was not delivered. */
  error: string | null;
  /** Retrying cannot help (a refused address or scheme): the delivery fails now. */
  permanent: boolean;
  /** The last URL posted to. */
  url: string;
}

interface Answer {
  statusCode: number;
  location: string | undefined;
}

/** Connects to the address already checked, whatever a new lookup would say. */
function pinnedLookup(target: ResolvedTarget): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) (callback as (err: null, addresses: { address: string; family: number }[]) => void)(null, [target]);
    else callback(null, target.address, target.family);
  };
}

function post(url: URL, target: ResolvedTarget, body: string, headers: Record<string, string>, signal: AbortSignal): Promise<Answer> {
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.request(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)), 'User-Agent': 'score-tracker-webhooks' },
        lookup: pinnedLookup(target),
        agent: false,
        signal,
      },
      (res) => {
        // The body is not used: read it to the end (bounded by the timeout) and drop it.
        res.resume();
        res.on('end', () => resolve({ statusCode: res.statusCode ?? 0, location: res.headers.location }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * Posts the body to the URL. Redirects are followed by hand, up to MAX_WEBHOOK_REDIRECTS, each
 * target resolved and checked like the first one; every hop posts the same signed body (a
 * webhook is never turned into a GET), and the bearer secret is only sent to the first URL's origin.
 * Never throws: the result says what happened.
 */
export async function sendWebhook(uri: string, body: string, headers: Record<string, string>, options: SendOptions): Promise<SendResult> {
  const signal = AbortSignal.timeout(options.timeoutMs);
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return { ok: false, statusCode: null, error: `${uri} is not a valid URL.`, permanent: true, url: uri };
  }
  const origin = url.origin;
  const allowed = options.allowPrivate ? () => true : (options.isAllowed ?? isPublicAddress);
  try {
    for (let hop = 0; ; hop++) {
      const target = await resolveWebhookTarget(url, allowed);
      const sent = url.origin === origin ? headers : Object.fromEntries(Object.entries(headers).filter(([k]) => k.toLowerCase() !== 'authorization'));
      const answer = await post(url, target, body, sent, signal);
      if (REDIRECTS.has(answer.statusCode) && answer.location) {
        if (hop >= MAX_WEBHOOK_REDIRECTS)
          return { ok: false, statusCode: answer.statusCode, error: `More than ${MAX_WEBHOOK_REDIRECTS} redirects.`, permanent: false, url: url.href };
        url = new URL(answer.location, url);
        continue;
      }
      const ok = answer.statusCode >= 200 && answer.statusCode < 300;
      return { ok, statusCode: answer.statusCode, error: ok ? null : `The receiver answered ${answer.statusCode}.`, permanent: false, url: url.href };
    }
  } catch (err) {
    if (err instanceof RefusedWebhookTarget) return { ok: false, statusCode: null, error: err.message, permanent: true, url: url.href };
    const message = signal.aborted ? `No answer within ${options.timeoutMs} ms.` : (err as Error).message;
    return { ok: false, statusCode: null, error: message, permanent: false, url: url.href };
  }
}
