import { expect } from '@jest/globals';
import type { Permission } from '../../src/common/permissions.js';
import type { UserDocument } from '../../src/presenters/user.presenter.js';
import type { TestApp } from './app.js';
import { uniqueUsername, type SignedUpUser } from './users.js';

interface Answer {
  status: number;
  body: unknown;
}

/** The body of a Tachi-enveloped success: checks the status and the envelope {success: true, description, body}. */
export function ok<T = Record<string, unknown>>(res: Answer, status = 200): T {
  expect([res.status, res.body]).toEqual([status, { success: true, description: expect.any(String), body: expect.anything() }]);
  return (res.body as { body: T }).body;
}

/**
 * A Tachi import answer, as Tachi's deployments give it: 202 with {url, importID}; then GET of the url (its path on
 * this app) answers the completed import, whose ImportDocument this returns.
 */
export async function polledImport<T = Record<string, unknown>>(t: TestApp, res: Answer): Promise<T> {
  const { url, importID } = ok<{ url: string; importID: string }>(res, 202);
  expect(url).toBe(`${t.config.PUBLIC_URL.replace(/\/$/, '')}/api/v1/imports/${importID}/poll-status`);
  const poll = ok<{ importStatus: string; import: T & { importID: string } }>(await t.http().get(new URL(url).pathname));
  expect(poll).toEqual({ importStatus: 'completed', import: expect.objectContaining({ importID }) });
  return poll.import;
}

/** Checks a Tachi-enveloped failure: the status and {success: false, description}; returns the description. */
export function failed(res: Answer, status: number): string {
  expect([res.status, res.body]).toEqual([status, { success: false, description: expect.any(String) }]);
  return (res.body as { description: string }).description;
}

/** signUp for an app under API_PROFILE=tachi (register answers inside the envelope). */
export async function signUpTachi(t: TestApp): Promise<SignedUpUser> {
  const username = uniqueUsername('tachi');
  const password = 'tachi-password';
  const email = `${username.toLowerCase()}@example.test`;
  const agent = t.agent();
  const user = ok<UserDocument>(await agent.post('/api/v1/auth/register').send({ username, '!password': password, email, captcha: 'x' }));
  return { user, username, password, email, agent };
}

/** A custom API token, issued under API_PROFILE=tachi. */
export async function issueTachiToken(u: SignedUpUser, permissions: Permission[]): Promise<string> {
  return ok<{ token: string }>(await u.agent.post(`/api/v1/users/${u.user.id}/api-tokens/create`).send({ permissions })).token;
}

/** Every key, at any depth, of a JSON value. */
export function keysIn(value: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(value)) value.forEach((v) => keysIn(v, found));
  else if (value && typeof value === 'object') {
    for (const [key, v] of Object.entries(value)) {
      found.add(key);
      keysIn(v, found);
    }
  }
  return found;
}
