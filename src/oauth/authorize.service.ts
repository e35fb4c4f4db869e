import { Injectable } from '@nestjs/common';
import { createHmac } from 'node:crypto';
import { AppConfig } from '../config/app-config.js';
import { randomHex, safeEqual } from '../common/crypto.js';
import { AppSecretsRepository } from '../repositories/app-secrets.repository.js';
import { ClientsRepository } from '../repositories/clients.repository.js';
import { UsersRepository } from '../repositories/users.repository.js';
import type { AuthorizationParams, ClientSummary } from './authorize-page.js';
import type { ClientRow } from '../database/schema.js';

/** RFC 7636 4.2: BASE64URL(SHA256(verifier)) is 43 characters. */
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;
const MAX_STATE_LENGTH = 500;

/** A valid authorization request: the client, its owner's name and the parameters to carry along. */
export interface Authorization {
  client: ClientRow;
  summary: ClientSummary;
  params: AuthorizationParams;
}

/**
 * What to do with an authorization request: show an error page (the client or its redirect_uri
 * cannot be trusted, so nothing is sent back to it), send an OAuth2 error to the verified
 * redirect_uri, or go on.
 */
export type AuthorizationCheck =
  { kind: 'page-error'; message: string } | { kind: 'redirect-error'; location: string } | { kind: 'ok'; authorization: Authorization };

/** One value of a query or form field; repeated or non-string fields are refused (RFC 6749 3.1). */
function single(input: Record<string, unknown>, name: string): string | undefined | null {
  const value = input[name];
  if (value === undefined || value === '') return undefined;
  return typeof value === 'string' ? value : null;
}

/** `base` (a registered redirect URI) with the given query parameters added. */
export function redirectTo(base: string, params: Record<string, string | undefined>): string {
  const url = new URL(base);
  for (const [key, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(key, value);
  return url.toString();
}

/** The GET /oauth/authorize page's checks (RFC 6749 4.1, RFC 7636, RFC 9700) and its CSRF tokens. */
@Injectable()
export class AuthorizeService {
  private secret: Promise<string> | undefined;

  constructor(
    private readonly clients: ClientsRepository,
    private readonly users: UsersRepository,
    private readonly secrets: AppSecretsRepository,
    private readonly config: AppConfig,
  ) {}

  async check(input: Record<string, unknown>): Promise<AuthorizationCheck> {
    const clientID = single(input, 'client_id');
    if (!clientID) return { kind: 'page-error', message: 'The request names no client: client_id is missing or given more than once.' };
    const client = clientID.length <= 100 ? await this.clients.findById(clientID) : undefined;
    if (!client) return { kind: 'page-error', message: 'The application that sent you here is not registered on this server (unknown client_id).' };
    if (client.redirectUri === null)
      return { kind: 'page-error', message: `${client.name} has no redirect URI registered, so it cannot ask for authorization.` };
    const redirectUri = single(input, 'redirect_uri');
    // Exact string match with the registered URI (RFC 9700 2.1): nothing is ever sent to another address.
    if (redirectUri !== client.redirectUri)
      return { kind: 'page-error', message: `The redirect_uri does not match the one registered for ${client.name}, so you are not sent back to it.` };

    const state = single(input, 'state');
    const fail = (error: string, description: string) => ({
      kind: 'redirect-error' as const,
      location: redirectTo(client.redirectUri!, { error, error_description: description, state: state ?? undefined }),
    });
    const responseType = single(input, 'response_type');
    if (responseType !== undefined && responseType !== 'code') return fail('unsupported_response_type', "Only response_type 'code' is supported.");
    if (state === null || state === undefined) return fail('invalid_request', 'state is required (once).');
    if (state.length > MAX_STATE_LENGTH) return fail('invalid_request', `state must be at most ${MAX_STATE_LENGTH} characters.`);
    const challenge = single(input, 'code_challenge');
    const method = single(input, 'code_challenge_method');
    if (challenge === null || method === null) return fail('invalid_request', 'code_challenge and code_challenge_method may be given once.');
    if (challenge === undefined && method !== undefined) return fail('invalid_request', 'code_challenge_method was given without code_challenge.');
    if (challenge !== undefined) {
      if (method !== 'S256') return fail('invalid_request', "code_challenge_method must be 'S256' ('plain' is not accepted).");
      if (!S256_CHALLENGE.test(challenge)) return fail('invalid_request', 'code_challenge must be the 43-character base64url SHA-256 of the code verifier.');
    }
    const owner = await this.users.findById(client.author);
    return {
      kind: 'ok',
      authorization: {
        client,
        summary: {
          name: client.name,
          ownerName: owner?.username ?? `user ${client.author}`,
          permissions: client.requestedPermissions,
          redirectUri: client.redirectUri,
        },
        params: {
          client_id: client.clientID,
          redirect_uri: client.redirectUri,
          state,
          ...(challenge !== undefined ? { code_challenge: challenge, code_challenge_method: 'S256' } : {}),
        },
      },
    };
  }

  newNonce(): string {
    return randomHex(16);
  }

  /**
   * The CSRF token of the page's forms: an HMAC of the browser's nonce cookie and of the
   * authorization parameters, so a form cannot be posted from another site (no cookie, or no
   * token for it) nor with its hidden fields changed (a changed state or challenge).
   */
  async csrfToken(nonce: string, params: AuthorizationParams): Promise<string> {
    const fields = [nonce, params.client_id, params.redirect_uri, params.state, params.code_challenge ?? '', params.code_challenge_method ?? ''];
    return createHmac('sha256', await this.hmacSecret())
      .update(fields.map((f) => `${f.length}:${f}`).join('|'))
      .digest('base64url');
  }

  async csrfValid(nonce: string | undefined, params: AuthorizationParams, token: unknown): Promise<boolean> {
    if (!nonce || typeof token !== 'string') return false;
    return safeEqual(await this.csrfToken(nonce, params), token);
  }

  get secureCookies(): boolean {
    return this.config.secureCookies;
  }

  get captchaEnabled(): boolean {
    return this.config.captchaEnabled;
  }

  private hmacSecret(): Promise<string> {
    this.secret ??= this.secrets.getOrCreate('oauth-authorize-csrf').catch((err: unknown) => {
      this.secret = undefined;
      throw err;
    });
    return this.secret;
  }
}
