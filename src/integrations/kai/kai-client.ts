import type { KaiServiceConfig } from '../../config/app-config.js';
import { FromApiError } from '../from-api/source.js';

export type KaiService = 'flo' | 'eag' | 'min';
/** A player's KAI tokens, stored encrypted. */
export interface KaiCredentials {
  token: string;
  refreshToken: string;
}

export const KAI_NAMES: Readonly<Record<KaiService, string>> = { flo: 'FLO', eag: 'EAG', min: 'MIN' };

/** What one request needs besides its URL: the sync's signal, the per-request timeout, the User-Agent. */
export interface RequestOptions {
  signal: AbortSignal;
  requestTimeoutMs: number;
  userAgent: string;
}

/**
 * One HTTP request to a KAI network, with the sync's signal and the per-request timeout. Network
 * errors and timeouts become FromApiErrors that name the service, never a URL's secrets.
 */
export async function kaiRequest(name: string, url: string, init: RequestInit, options: RequestOptions): Promise<Response> {
  try {
    return await fetch(url, {
      ...init,
      redirect: 'error',
      headers: { 'User-Agent': options.userAgent, Accept: 'application/json', ...(init.headers as Record<string, string>) },
      signal: AbortSignal.any([options.signal, AbortSignal.timeout(options.requestTimeoutMs)]),
    });
  } catch (err) {
    if (options.signal.aborted)
      throw new FromApiError(504, `The sync with ${name} took longer than allowed and was stopped; nothing was saved. Try again later.`);
    if ((err as Error).name === 'TimeoutError')
      throw new FromApiError(504, `${name} did not answer within ${options.requestTimeoutMs} ms; nothing was saved. Try again later.`);
    throw new FromApiError(502, `${name} could not be reached; nothing was saved. Are they down?`);
  }
}

/** Reads a JSON body; anything else is the service's fault (502). */
export async function kaiJson(name: string, response: Response): Promise<unknown> {
  const text = await response.text().catch(() => {
    throw new FromApiError(502, `${name}'s answer was cut off; nothing was saved.`);
  });
  try {
    return JSON.parse(text);
  } catch {
    throw new FromApiError(502, `${name} answered with something other than JSON (HTTP ${response.status}); nothing was saved.`);
  }
}

function tokensOf(name: string, body: unknown): KaiCredentials {
  const b = body as { access_token?: unknown; refresh_token?: unknown } | null;
  if (typeof b?.access_token !== 'string' || typeof b.refresh_token !== 'string' || !b.access_token || !b.refresh_token)
    throw new FromApiError(502, `${name} answered the token request without an access_token and refresh_token.`);
  return { token: b.access_token, refreshToken: b.refresh_token };
}

/** The OAuth2 code exchange of a link: `POST <API_URL>/oauth/token` (form). A refused code is a 400; the service failing, a 502. */
export async function exchangeCode(service: KaiService, config: KaiServiceConfig, code: string, options: RequestOptions): Promise<KaiCredentials> {
  const name = KAI_NAMES[service];
  const form = new URLSearchParams({
    grant_type: 'authorization_code',
    code,
    client_id: config.clientId,
    client_secret: config.clientSecret,
    redirect_uri: config.redirectUri,
  });
  const response = await kaiRequest(name, `${config.apiUrl}/oauth/token`, { method: 'POST', body: form }, options);
  if (response.status >= 400 && response.status < 500) {
    await response.body?.cancel();
    throw new FromApiError(
      400,
      `${name} refused this authorization code (HTTP ${response.status}): it may have expired or been used already. Link ${name} again.`,
    );
  }
  if (response.status !== 200) {
    await response.body?.cancel();
    throw new FromApiError(502, `${name} failed to exchange the authorization code (HTTP ${response.status}). Try again later.`);
  }
  return tokensOf(name, await kaiJson(name, response));
}

/** A refresh of the player's tokens. A 400 means the refresh token is no good: the player must link again. */
export async function refreshTokens(service: KaiService, config: KaiServiceConfig, refreshToken: string, options: RequestOptions): Promise<KaiCredentials> {
  const name = KAI_NAMES[service];
  const form = new URLSearchParams({
    grant_type: 'refresh_token',
    refresh_token: refreshToken,
    client_id: config.clientId,
    client_secret: config.clientSecret,
  });
  const response = await kaiRequest(name, `${config.apiUrl}/oauth/token`, { method: 'POST', body: form }, options);
  if (response.status === 400 || response.status === 401) {
    await response.body?.cancel();
    throw new FromApiError(400, `${name} no longer accepts your link. Unlink ${name} and link it again.`);
  }
  if (response.status !== 200) {
    await response.body?.cancel();
    throw new FromApiError(502, `${name} failed to refresh your link (HTTP ${response.status}). Try again later.`);
  }
  return tokensOf(name, await kaiJson(name, response));
}
