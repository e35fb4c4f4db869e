import type { Permission } from '../../src/common/permissions.js';
import { randomHex } from '../../src/common/crypto.js';
import type { UserDocument } from '../../src/presenters/user.presenter.js';
import type { TestApp } from './app.js';

export interface SignedUpUser {
  user: UserDocument;
  username: string;
  password: string;
  email: string;
  /** A cookie-keeping client logged in as this user. */
  agent: ReturnType<TestApp['agent']>;
}

let counter = 0;

export function uniqueUsername(prefix = 'user'): string {
  counter += 1;
  return `${prefix}_${randomHex(3)}${counter}`.slice(0, 20);
}

/** Registers through the API; the returned agent holds the session cookie that register sets. */
export async function signUp(t: TestApp, options: { username?: string; password?: string; email?: string } = {}): Promise<SignedUpUser> {
  const username = options.username ?? uniqueUsername();
  const password = options.password ?? `pw-${randomHex(8)}`;
  const email = options.email ?? `${username.toLowerCase()}@example.test`;
  const agent = t.agent();
  const res = await agent.post('/api/v1/auth/register').send({ username, '!password': password, email, captcha: 'x' });
  if (res.status !== 200) throw new Error(`register failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { user: res.body as UserDocument, username, password, email, agent };
}

/** Issues a custom API token for the user (through their session) with exactly these permissions. */
export async function issueToken(u: SignedUpUser, permissions: Permission[]): Promise<string> {
  const res = await u.agent.post(`/api/v1/users/${u.user.id}/api-tokens/create`).send({ permissions });
  if (res.status !== 200) throw new Error(`token creation failed: ${res.status} ${JSON.stringify(res.body)}`);
  return (res.body as { token: string }).token;
}

export const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
