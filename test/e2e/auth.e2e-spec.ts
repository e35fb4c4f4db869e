import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { Response } from 'supertest';
import { InvitesService } from '../../src/auth/invites.service.js';
import { SESSION_COOKIE } from '../../src/http/auth/access.decorators.js';
import { UsersRepository } from '../../src/repositories/users.repository.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { TestCaptchaServer } from '../support/captcha-server.js';
import { ban, expireEmailCodes } from '../support/db-fixtures.js';
import { codeFrom, createTestAppWithMail, type TestAppWithMail } from '../support/smtp.js';
import { countRows, emailVerified, storedEmailCodes, storedInvite } from '../support/stored.js';
import { bearer, issueToken, signUp, uniqueUsername } from '../support/users.js';

const API = '/api/v1';

/** The raw Set-Cookie line of the session cookie, if the response set one. */
function setCookieLine(res: Response): string | undefined {
  const header = res.headers['set-cookie'] as unknown as string[] | undefined;
  return header?.find((line) => line.startsWith(`${SESSION_COOKIE}=`));
}

/** The `name=value` pair of the session cookie, ready for a Cookie header. */
function sessionCookie(res: Response): string {
  const line = setCookieLine(res);
  if (!line) throw new Error(`no session cookie in ${JSON.stringify(res.headers['set-cookie'])}`);
  return line.split(';')[0];
}

async function whoami(t: TestApp, cookie: string): Promise<number | null> {
  const res = await t.http().get(`${API}/status`).set('Cookie', cookie);
  expect(res.status).toBe(200);
  return res.body.whoami as number | null;
}

function registerBody(overrides: Record<string, unknown> = {}) {
  const username = uniqueUsername('reg');
  return { username, '!password': 'correct horse', email: `${username.toLowerCase()}@example.test`, captcha: 'x', ...overrides };
}

describe('auth', () => {
  let t: TestAppWithMail;

  beforeAll(async () => {
    t = await createTestAppWithMail();
  });
  afterAll(async () => {
    await t.close();
  });

  describe('POST /auth/register', () => {
    it('creates the user with the spec defaults, logs them in and mails a verification code', async () => {
      const body = registerBody();
      const before = Date.now();
      const res = await t.http().post(`${API}/auth/register`).send(body);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        id: expect.any(Number),
        username: body.username,
        usernameLowercase: body.username.toLowerCase(),
        socialMedia: { discord: null, twitter: null, github: null, steam: null, youtube: null, twitch: null },
        joinDate: expect.any(Number),
        lastSeen: expect.any(Number),
        about: expect.any(String),
        status: null,
        customPfpLocation: null,
        customBannerLocation: null,
        clan: null,
        badges: [],
        authLevel: 1,
      });
      expect(res.body.about.length).toBeGreaterThan(0);
      expect(res.body.joinDate).toBeGreaterThanOrEqual(before);
      expect(JSON.stringify(res.body)).not.toContain(body.email);
      expect(await whoami(t, sessionCookie(res))).toBe(res.body.id);

      const mail = await t.smtp.waitFor(body.email);
      expect(mail.raw).toMatch(/Subject: Verify your email address/);
      expect(codeFrom(mail)).toMatch(/^[0-9a-f]{40}$/);
    });

    it.each([
      ['3 characters', 'abc'],
      ['20 characters', 'a'.repeat(20)],
      ['a leading underscore', '_under'],
      ['a leading hyphen', '-hyphen'],
      ['digits after the first character', 'z9_-8'],
    ])('accepts a username with %s', async (_label, username) => {
      const res = await t
        .http()
        .post(`${API}/auth/register`)
        .send(registerBody({ username, email: `${username}@limits.test` }));
      expect(res.status).toBe(200);
      expect(res.body.username).toBe(username);
    });

    it.each([
      ['2 characters', 'ab'],
      ['21 characters', 'b'.repeat(21)],
      ['a leading digit', '1abc'],
      ['a dot', 'ab.cd'],
      ['a space', 'ab cd'],
      ['a non-ASCII letter', 'abé'],
    ])('refuses a username with %s (400)', async (_label, username) => {
      const res = await t.http().post(`${API}/auth/register`).send(registerBody({ username }));
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/username must be 3 to 20 characters/);
    });

    it('accepts a password of 8 characters and refuses one of 7', async () => {
      expect(
        (
          await t
            .http()
            .post(`${API}/auth/register`)
            .send(registerBody({ '!password': '12345678' }))
        ).status,
      ).toBe(200);
      const short = await t
        .http()
        .post(`${API}/auth/register`)
        .send(registerBody({ '!password': '1234567' }));
      expect(short.status).toBe(400);
      expect(short.body.message).toMatch(/8 characters or longer/);
    });

    it.each([
      ['no username', { username: undefined }],
      ['no password', { '!password': undefined }],
      ['a numeric password', { '!password': 12345678 }],
      ['no email', { email: undefined }],
      ['a malformed email', { email: 'not-an-email' }],
      ['an unknown key', { admin: true }],
      ['a null captcha', { captcha: null }],
    ])('refuses a body with %s (400)', async (_label, overrides) => {
      const res = await t.http().post(`${API}/auth/register`).send(registerBody(overrides));
      expect(res.status).toBe(400);
      expect(typeof res.body.message).toBe('string');
    });

    it('refuses a taken username in any case and a taken email in any case (409)', async () => {
      const first = registerBody();
      expect((await t.http().post(`${API}/auth/register`).send(first)).status).toBe(200);

      const sameName = await t
        .http()
        .post(`${API}/auth/register`)
        .send(registerBody({ username: first.username.toUpperCase() }));
      expect(sameName.status).toBe(409);
      expect(sameName.body.message).toMatch(/username is already in use/);

      const sameEmail = await t
        .http()
        .post(`${API}/auth/register`)
        .send(registerBody({ email: first.email.toUpperCase() }));
      expect(sameEmail.status).toBe(409);
      expect(sameEmail.body.message).toMatch(/email is already in use/);
    });

    it('gives exactly one of two simultaneous registrations of the same username, the other 409', async () => {
      const username = uniqueUsername('race');
      const results = await Promise.all([
        t
          .http()
          .post(`${API}/auth/register`)
          .send(registerBody({ username, email: `a-${username}@race.test` })),
        t
          .http()
          .post(`${API}/auth/register`)
          .send(registerBody({ username: username.toUpperCase(), email: `b-${username}@race.test` })),
      ]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
      expect(await countRows(t, 'users', { usernameLowercase: username.toLowerCase() })).toBe(1);
    });
  });

  describe('POST /auth/login', () => {
    it('logs in with the username in any case and sets an HttpOnly, SameSite=Lax, non-Secure cookie over http', async () => {
      const u = await signUp(t);
      for (const username of [u.username, u.username.toUpperCase(), u.username.toLowerCase()]) {
        const res = await t.http().post(`${API}/auth/login`).send({ username, '!password': u.password, captcha: 'x' });
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ userID: u.user.id });
        const line = setCookieLine(res)!;
        expect(line).toMatch(/; HttpOnly/i);
        expect(line).toMatch(/; SameSite=Lax/i);
        expect(line).toMatch(/; Path=\//);
        expect(line).not.toMatch(/; Secure/i);
        expect(await whoami(t, sessionCookie(res))).toBe(u.user.id);
      }
    });

    it('answers an unknown user and a wrong password with the same 401', async () => {
      const u = await signUp(t);
      const wrong = await t.http().post(`${API}/auth/login`).send({ username: u.username, '!password': 'wrong password', captcha: 'x' });
      const unknown = await t.http().post(`${API}/auth/login`).send({ username: 'nobody_here', '!password': 'wrong password', captcha: 'x' });
      expect(wrong.status).toBe(401);
      expect(unknown.status).toBe(401);
      expect(wrong.body).toEqual(unknown.body);
      expect(wrong.body.message).toBe('Invalid username or password.');
      expect(setCookieLine(wrong)).toBeUndefined();
    });

    it.each([
      ['no password', { username: 'someone' }],
      ['no username', { '!password': 'whatever1' }],
      ['a numeric username', { username: 5, '!password': 'whatever1' }],
      ['an unknown key', { username: 'someone', '!password': 'whatever1', remember: true }],
    ])('refuses a body with %s (400)', async (_label, body) => {
      const res = await t.http().post(`${API}/auth/login`).send(body);
      expect(res.status).toBe(400);
    });

    it('refuses a banned account with 403 once the password is right', async () => {
      const u = await signUp(t);
      await ban(t, u.user.id);
      const res = await t.http().post(`${API}/auth/login`).send({ username: u.username, '!password': u.password });
      expect(res.status).toBe(403);
      expect(res.body.message).toMatch(/banned/);
    });

    it('gives the session a fresh id at login, so the earlier cookie stops working', async () => {
      const body = registerBody();
      const registered = await t.http().post(`${API}/auth/register`).send(body);
      const before = sessionCookie(registered);
      const login = await t.http().post(`${API}/auth/login`).set('Cookie', before).send({ username: body.username, '!password': body['!password'] });
      expect(login.status).toBe(200);
      const after = sessionCookie(login);
      expect(after).not.toBe(before);
      expect(await whoami(t, after)).toBe(registered.body.id);
      expect(await whoami(t, before)).toBeNull();
    });

    it('replaces the session of another user when someone logs in over it', async () => {
      const a = await signUp(t);
      const b = await signUp(t);
      const res = await a.agent.post(`${API}/auth/login`).send({ username: b.username, '!password': b.password });
      expect(res.status).toBe(200);
      expect((await a.agent.get(`${API}/status`)).body.whoami).toBe(b.user.id);
    });
  });

  describe('POST /auth/logout', () => {
    it('destroys the session server-side: the old cookie no longer authenticates', async () => {
      const u = await signUp(t);
      const login = await t.http().post(`${API}/auth/login`).send({ username: u.username, '!password': u.password });
      const cookie = sessionCookie(login);
      expect(await whoami(t, cookie)).toBe(u.user.id);

      const res = await t.http().post(`${API}/auth/logout`).set('Cookie', cookie);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({});
      expect(setCookieLine(res)).toMatch(/Expires=Thu, 01 Jan 1970/);

      // The client still presents the cookie; only server-side destruction makes it worthless.
      expect(await whoami(t, cookie)).toBeNull();
      expect((await t.http().get(`${API}/users/me`).set('Cookie', cookie)).status).toBe(401);
    });

    it('ends only the session it was called with', async () => {
      const u = await signUp(t);
      const other = sessionCookie(await t.http().post(`${API}/auth/login`).send({ username: u.username, '!password': u.password }));
      expect((await u.agent.post(`${API}/auth/logout`)).status).toBe(200);
      expect((await u.agent.get(`${API}/status`)).body.whoami).toBeNull();
      expect(await whoami(t, other)).toBe(u.user.id);
    });

    it('answers 200 {} without a session', async () => {
      const res = await t.http().post(`${API}/auth/logout`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({});
    });
  });

  describe('POST /auth/verify-email and /auth/resend-verify-email', () => {
    const codeRows = (userID: number) => storedEmailCodes(t, { userID, purpose: 'verify-email' });
    const isVerified = (userID: number) => emailVerified(t, userID);

    it('verifies with the mailed code, which works once and needs no session', async () => {
      const u = await signUp(t);
      const code = codeFrom(await t.smtp.waitFor(u.email));
      expect(await isVerified(u.user.id)).toBe(false);

      const res = await t.http().post(`${API}/auth/verify-email`).send({ code });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({});
      expect(await isVerified(u.user.id)).toBe(true);

      const again = await t.http().post(`${API}/auth/verify-email`).send({ code });
      expect(again.status).toBe(400);
      expect(again.body.message).toMatch(/invalid or has expired/);
    });

    it('refuses an unknown code, a reset code and a malformed body (400)', async () => {
      expect(
        (
          await t
            .http()
            .post(`${API}/auth/verify-email`)
            .send({ code: 'f'.repeat(40) })
        ).status,
      ).toBe(400);
      expect((await t.http().post(`${API}/auth/verify-email`).send({})).status).toBe(400);
      expect((await t.http().post(`${API}/auth/verify-email`).send({ code: 42 })).status).toBe(400);

      const u = await signUp(t);
      await t.smtp.waitFor(u.email);
      await t.http().post(`${API}/auth/forgot-password`).send({ email: u.email });
      const resetCode = codeFrom(await t.smtp.waitFor(u.email));
      expect((await t.http().post(`${API}/auth/verify-email`).send({ code: resetCode })).status).toBe(400);
      expect(await isVerified(u.user.id)).toBe(false);
    });

    it('refuses an expired code', async () => {
      const u = await signUp(t);
      const code = codeFrom(await t.smtp.waitFor(u.email));
      const [row] = await codeRows(u.user.id);
      expect(row.expiresAt - row.createdAt).toBe(24 * 60 * 60 * 1000);
      await expireEmailCodes(t, u.user.id);
      const res = await t.http().post(`${API}/auth/verify-email`).send({ code });
      expect(res.status).toBe(400);
      expect(await isVerified(u.user.id)).toBe(false);
    });

    it('resends a new code that replaces the old one, then answers 409 once verified', async () => {
      const u = await signUp(t);
      const first = codeFrom(await t.smtp.waitFor(u.email));

      const res = await u.agent.post(`${API}/auth/resend-verify-email`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({});
      const second = codeFrom(await t.smtp.waitFor(u.email));
      expect(second).not.toBe(first);
      expect(await codeRows(u.user.id)).toHaveLength(1);

      expect((await t.http().post(`${API}/auth/verify-email`).send({ code: first })).status).toBe(400);
      expect((await t.http().post(`${API}/auth/verify-email`).send({ code: second })).status).toBe(200);

      const verified = await u.agent.post(`${API}/auth/resend-verify-email`);
      expect(verified.status).toBe(409);
      expect(verified.body.message).toMatch(/already verified/);
    });

    it('is self-key only: a guest gets 401 and an API token 403', async () => {
      const u = await signUp(t);
      await t.smtp.waitFor(u.email);
      expect((await t.http().post(`${API}/auth/resend-verify-email`)).status).toBe(401);
      const token = await issueToken(u, ['customise_profile', 'submit_score']);
      const res = await t.http().post(`${API}/auth/resend-verify-email`).set(bearer(token));
      expect(res.status).toBe(403);
      expect(res.body.message).toMatch(/API keys cannot use it/);
      expect(await codeRows(u.user.id)).toHaveLength(1);
    });
  });

  describe('POST /auth/forgot-password and /auth/reset-password', () => {
    it('answers 202 {} for an unknown email and sends no mail', async () => {
      const u = await signUp(t);
      await t.smtp.waitFor(u.email);
      const unknown = `nobody-${u.username.toLowerCase()}@example.test`;
      const codesBefore = (await storedEmailCodes(t)).length;

      const res = await t.http().post(`${API}/auth/forgot-password`).send({ email: unknown });
      expect(res.status).toBe(202);
      expect(res.body).toEqual({});
      expect((await storedEmailCodes(t)).length).toBe(codesBefore);

      // A mail requested afterwards arrives; none went to the unknown address.
      expect((await t.http().post(`${API}/auth/forgot-password`).send({ email: u.email })).status).toBe(202);
      await t.smtp.waitFor(u.email);
      expect(t.smtp.messages.filter((m) => m.to.includes(unknown))).toEqual([]);
    });

    it('answers 202 before looking the email up, and a failure of that work is logged, not thrown', async () => {
      const repository = t.app.get(UsersRepository, { strict: false });
      let fail!: () => void;
      const gate = new Promise<void>((resolve) => (fail = resolve));
      const lookup = jest.spyOn(repository, 'findCredentialsByEmail').mockImplementation(async () => {
        await gate;
        throw new Error('the database went away');
      });
      try {
        const res = await t.http().post(`${API}/auth/forgot-password`).send({ email: 'anyone@example.test' });
        expect(res.status).toBe(202);
        expect(res.body).toEqual({});
        expect(lookup).toHaveBeenCalledTimes(1); // started, still unfinished
        fail();
        await new Promise((resolve) => setImmediate(resolve));
      } finally {
        lookup.mockRestore();
      }
      expect((await t.http().get(`${API}/status`)).status).toBe(200);
    });

    it('refuses a body that is not an email (400)', async () => {
      expect((await t.http().post(`${API}/auth/forgot-password`).send({ email: 'nope' })).status).toBe(400);
      expect((await t.http().post(`${API}/auth/forgot-password`).send({})).status).toBe(400);
    });

    it('resets the password with the mailed code: sessions end, the new password works and the old one does not', async () => {
      const u = await signUp(t);
      await t.smtp.waitFor(u.email);
      const otherSession = sessionCookie(await t.http().post(`${API}/auth/login`).send({ username: u.username, '!password': u.password }));
      const token = await issueToken(u, ['submit_score']);

      const forgot = await t.http().post(`${API}/auth/forgot-password`).send({ email: u.email.toUpperCase() });
      expect(forgot.status).toBe(202);
      expect(forgot.body).toEqual({});
      const mail = await t.smtp.waitFor(u.email);
      expect(mail.raw).toMatch(/Subject: Reset your password/);
      const code = codeFrom(mail);
      expect(JSON.stringify(forgot.body)).not.toContain(code);

      const res = await t.http().post(`${API}/auth/reset-password`).send({ code, '!password': 'a brand new password' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({});

      expect((await u.agent.get(`${API}/status`)).body.whoami).toBeNull();
      expect(await whoami(t, otherSession)).toBeNull();
      // API keys are not sessions: they stay valid until revoked.
      expect((await t.http().get(`${API}/status`).set(bearer(token))).body.whoami).toBe(u.user.id);

      const oldLogin = await t.http().post(`${API}/auth/login`).send({ username: u.username, '!password': u.password });
      expect(oldLogin.status).toBe(401);
      const newLogin = await t.http().post(`${API}/auth/login`).send({ username: u.username, '!password': 'a brand new password' });
      expect(newLogin.status).toBe(200);
      expect(await whoami(t, sessionCookie(newLogin))).toBe(u.user.id);

      const reuse = await t.http().post(`${API}/auth/reset-password`).send({ code, '!password': 'yet another password' });
      expect(reuse.status).toBe(400);
      expect(reuse.body.message).toMatch(/invalid or has expired/);
    });

    it('issuing a code deletes every expired code, anyone’s, and no unexpired one', async () => {
      const stale = await signUp(t); // its verify-email code expires unused
      const pending = await signUp(t); // its code stays valid
      const u = await signUp(t);
      for (const x of [stale, pending, u]) await t.smtp.waitFor(x.email);
      await expireEmailCodes(t, stale.user.id);
      expect((await t.http().post(`${API}/auth/forgot-password`).send({ email: u.email })).status).toBe(202);
      await t.smtp.waitFor(u.email);
      const owners = (await storedEmailCodes(t)).map((r) => r.userID);
      expect(owners).not.toContain(stale.user.id);
      expect(owners).toContain(pending.user.id);
      expect(owners.filter((id) => id === u.user.id)).toHaveLength(2); // its verify code and the new reset code
    });

    it('refuses an expired reset code and leaves the password unchanged', async () => {
      const u = await signUp(t);
      await t.smtp.waitFor(u.email);
      await t.http().post(`${API}/auth/forgot-password`).send({ email: u.email });
      const code = codeFrom(await t.smtp.waitFor(u.email));
      const [row] = await storedEmailCodes(t, { userID: u.user.id, purpose: 'reset-password' });
      expect(row.expiresAt - row.createdAt).toBe(60 * 60 * 1000);
      await expireEmailCodes(t, u.user.id, 'reset-password');

      const res = await t.http().post(`${API}/auth/reset-password`).send({ code, '!password': 'a brand new password' });
      expect(res.status).toBe(400);
      expect((await t.http().post(`${API}/auth/login`).send({ username: u.username, '!password': u.password })).status).toBe(200);
    });

    it('refuses a short new password, an unknown code and a verify-email code', async () => {
      const u = await signUp(t);
      const verifyCode = codeFrom(await t.smtp.waitFor(u.email));
      await t.http().post(`${API}/auth/forgot-password`).send({ email: u.email });
      const code = codeFrom(await t.smtp.waitFor(u.email));

      const short = await t.http().post(`${API}/auth/reset-password`).send({ code, '!password': '1234567' });
      expect(short.status).toBe(400);
      expect(short.body.message).toMatch(/8 characters or longer/);
      expect(
        (
          await t
            .http()
            .post(`${API}/auth/reset-password`)
            .send({ code: 'a'.repeat(40), '!password': 'long enough' })
        ).status,
      ).toBe(400);
      expect((await t.http().post(`${API}/auth/reset-password`).send({ code: verifyCode, '!password': 'long enough' })).status).toBe(400);
      expect((await t.http().post(`${API}/auth/reset-password`).send({ '!password': 'long enough' })).status).toBe(400);

      // The short-password attempt did not use up the code.
      expect((await t.http().post(`${API}/auth/reset-password`).send({ code, '!password': 'long enough' })).status).toBe(200);
    });
  });
});

describe('auth with an https PUBLIC_URL', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ PUBLIC_URL: 'https://scores.example.test' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('marks the session cookie Secure', async () => {
    const res = await t.http().post(`${API}/auth/register`).set('X-Forwarded-Proto', 'https').send(registerBody());
    expect(res.status).toBe(200);
    const line = setCookieLine(res)!;
    expect(line).toMatch(/; Secure/i);
    expect(line).toMatch(/; HttpOnly/i);
    expect(line).toMatch(/; SameSite=Lax/i);
  });
});

describe('auth with INVITE_ONLY=true', () => {
  let t: TestApp;
  let invitesService: InvitesService;
  beforeAll(async () => {
    t = await createTestApp({ INVITE_ONLY: 'true' });
    invitesService = t.app.get(InvitesService);
  });
  afterAll(async () => {
    await t.close();
  });

  it('needs an invite code (400) and creates no user without one', async () => {
    const body = registerBody();
    const res = await t.http().post(`${API}/auth/register`).send(body);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/invite-only: inviteCode is required/);
    expect(await countRows(t, 'users', { usernameLowercase: body.username.toLowerCase() })).toBe(0);
  });

  it('refuses an unknown code (400) without creating the user', async () => {
    const body = registerBody({ inviteCode: 'f'.repeat(40) });
    const res = await t.http().post(`${API}/auth/register`).send(body);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/invite code is not valid/);
    expect(await countRows(t, 'users', { usernameLowercase: body.username.toLowerCase() })).toBe(0);
  });

  it('accepts a valid code once and records who used it', async () => {
    const [code] = await invitesService.create(1);
    const res = await t
      .http()
      .post(`${API}/auth/register`)
      .send(registerBody({ inviteCode: code }));
    expect(res.status).toBe(200);
    const row = await storedInvite(t, code);
    expect(row.consumedBy).toBe(res.body.id);
    expect(row.consumedAt).toEqual(expect.any(Number));

    const body = registerBody({ inviteCode: code });
    const again = await t.http().post(`${API}/auth/register`).send(body);
    expect(again.status).toBe(400);
    expect(again.body.message).toMatch(/already been used/);
    // The refused attempt left nothing behind: the same name registers with a fresh code.
    const [fresh] = await invitesService.create(1);
    expect(
      (
        await t
          .http()
          .post(`${API}/auth/register`)
          .send({ ...body, inviteCode: fresh })
      ).status,
    ).toBe(200);
  });

  it('lets only one of two simultaneous registrations use a code', async () => {
    const [code] = await invitesService.create(1);
    const results = await Promise.all([
      t
        .http()
        .post(`${API}/auth/register`)
        .send(registerBody({ inviteCode: code })),
      t
        .http()
        .post(`${API}/auth/register`)
        .send(registerBody({ inviteCode: code })),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
  });
});

describe('auth with a captcha', () => {
  let t: TestApp;
  let captcha: TestCaptchaServer;
  beforeAll(async () => {
    captcha = new TestCaptchaServer();
    const url = await captcha.start();
    t = await createTestApp({ CAPTCHA_VERIFY_URL: url, CAPTCHA_SECRET: captcha.secret });
  });
  afterAll(async () => {
    await t.close();
    await captcha.stop();
  });

  it('register: a missing captcha is 400 without asking the verifier, an invalid one 400, a valid one passes', async () => {
    const body = registerBody();
    const asked = captcha.requests.length;
    const missing = await t
      .http()
      .post(`${API}/auth/register`)
      .send({ ...body, captcha: undefined });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toMatch(/captcha is required/);
    expect(captcha.requests.length).toBe(asked);

    const invalid = await t
      .http()
      .post(`${API}/auth/register`)
      .send({ ...body, captcha: 'robot-token' });
    expect(invalid.status).toBe(400);
    expect(invalid.body.message).toMatch(/Captcha verification failed/);
    expect(captcha.requests.at(-1)!.get('response')).toBe('robot-token');

    const valid = await t
      .http()
      .post(`${API}/auth/register`)
      .set('X-Forwarded-For', '203.0.113.7')
      .send({ ...body, captcha: captcha.validToken });
    expect(valid.status).toBe(200);
    const sent = captcha.requests.at(-1)!;
    expect(sent.get('secret')).toBe(captcha.secret);
    expect(sent.get('response')).toBe(captcha.validToken);
    expect(sent.get('remoteip')).toBe('203.0.113.7');
  });

  it('login: the captcha is checked before the credentials', async () => {
    const body = registerBody({ captcha: captcha.validToken });
    expect((await t.http().post(`${API}/auth/register`).send(body)).status).toBe(200);
    const credentials = { username: body.username, '!password': body['!password'] };

    expect((await t.http().post(`${API}/auth/login`).send(credentials)).status).toBe(400);
    const invalid = await t
      .http()
      .post(`${API}/auth/login`)
      .send({ ...credentials, captcha: 'robot-token' });
    expect(invalid.status).toBe(400);
    expect(setCookieLine(invalid)).toBeUndefined();
    // A wrong password with a bad captcha is still the captcha's 400, so it reveals nothing.
    expect(
      (
        await t
          .http()
          .post(`${API}/auth/login`)
          .send({ ...credentials, '!password': 'wrong password', captcha: 'robot-token' })
      ).status,
    ).toBe(400);

    const valid = await t
      .http()
      .post(`${API}/auth/login`)
      .send({ ...credentials, captcha: captcha.validToken });
    expect(valid.status).toBe(200);
    expect(captcha.requests.at(-1)!.get('secret')).toBe(captcha.secret);
    expect(captcha.requests.at(-1)!.get('response')).toBe(captcha.validToken);
  });
});

describe('auth with an unreachable captcha verifier', () => {
  let t: TestApp;
  beforeAll(async () => {
    const gone = new TestCaptchaServer();
    const url = await gone.start();
    await gone.stop();
    t = await createTestApp({ CAPTCHA_VERIFY_URL: url, CAPTCHA_SECRET: gone.secret });
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers 503 with a clear message instead of letting anyone in or failing with 500', async () => {
    const res = await t.http().post(`${API}/auth/register`).send(registerBody());
    expect(res.status).toBe(503);
    expect(res.body.message).toMatch(/captcha could not be verified/);
  });
});

describe('auth rate limits (AUTH_RATE_LIMIT_FACTOR=1)', () => {
  let t: TestApp;
  let ipCounter = 0;
  /** A new client address per call, so tests never share an IP bucket. */
  const newIp = () => `198.51.100.${++ipCounter}`;

  beforeAll(async () => {
    t = await createTestApp({ AUTH_RATE_LIMIT_FACTOR: '1' });
  });
  afterAll(async () => {
    await t.close();
  });

  function expectLimited(res: Response) {
    expect(res.status).toBe(429);
    expect(res.body.message).toMatch(/Too many requests/);
    const retryAfter = Number(res.headers['retry-after']);
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThan(0);
    return retryAfter;
  }

  it('login: 15 attempts per IP, then 429 with Retry-After; another IP is unaffected', async () => {
    const ip = newIp();
    for (let i = 0; i < 15; i++) {
      const res = await t
        .http()
        .post(`${API}/auth/login`)
        .set('X-Forwarded-For', ip)
        .send({ username: `nobody${i}`, '!password': 'wrong password' });
      expect(res.status).toBe(401);
    }
    const limited = await t.http().post(`${API}/auth/login`).set('X-Forwarded-For', ip).send({ username: 'nobody99', '!password': 'wrong password' });
    expect(expectLimited(limited)).toBeLessThanOrEqual(600);
    const other = await t.http().post(`${API}/auth/login`).set('X-Forwarded-For', newIp()).send({ username: 'nobody99', '!password': 'wrong password' });
    expect(other.status).toBe(401);
  });

  it('login: 10 failed attempts per account from any IPs and in any case, then 429 even with the right password', async () => {
    const u = await signUp(t);
    const ips = new Set<string>();
    for (let i = 0; i < 10; i++) {
      const ip = newIp();
      ips.add(ip);
      const username = i % 2 ? u.username.toUpperCase() : u.username;
      const res = await t.http().post(`${API}/auth/login`).set('X-Forwarded-For', ip).send({ username, '!password': 'wrong password' });
      expect(res.status).toBe(401);
    }
    expect(ips.size).toBe(10);
    expectLimited(await t.http().post(`${API}/auth/login`).set('X-Forwarded-For', newIp()).send({ username: u.username, '!password': u.password }));
    // Other accounts are unaffected.
    const v = await signUp(t);
    expect((await t.http().post(`${API}/auth/login`).set('X-Forwarded-For', newIp()).send({ username: v.username, '!password': v.password })).status).toBe(200);
  });

  it('login: successful logins do not count against the account, and one clears its failures', async () => {
    const u = await signUp(t);
    const login = (password: string) =>
      t.http().post(`${API}/auth/login`).set('X-Forwarded-For', newIp()).send({ username: u.username, '!password': password });
    // Anyone who knows the password (its owner, on many devices) can log in more often than the limit.
    for (let i = 0; i < 12; i++) expect((await login(u.password)).status).toBe(200);
    // 9 failures, a success, 9 more failures: never 10 in a row, so never limited.
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 9; i++) expect((await login('wrong password')).status).toBe(401);
      expect((await login(u.password)).status).toBe(200);
    }
    // The 10th failure in a row locks the account.
    for (let i = 0; i < 10; i++) expect((await login('wrong password')).status).toBe(401);
    expectLimited(await login(u.password));
  });

  it('register: 10 attempts per IP, counting refused ones', async () => {
    const ip = newIp();
    for (let i = 0; i < 10; i++) {
      expect(
        (
          await t
            .http()
            .post(`${API}/auth/register`)
            .set('X-Forwarded-For', ip)
            .send(registerBody({ username: 'x' }))
        ).status,
      ).toBe(400);
    }
    expectLimited(await t.http().post(`${API}/auth/register`).set('X-Forwarded-For', ip).send(registerBody()));
  });

  it('register: 3 attempts per email', async () => {
    const email = `limited-${newIp()}@example.test`;
    for (let i = 0; i < 3; i++) {
      expect(
        (
          await t
            .http()
            .post(`${API}/auth/register`)
            .set('X-Forwarded-For', newIp())
            .send(registerBody({ email, username: 'x' }))
        ).status,
      ).toBe(400);
    }
    expectLimited(await t.http().post(`${API}/auth/register`).set('X-Forwarded-For', newIp()).send(registerBody({ email })));
  });

  it('forgot-password: 3 per IP and 2 per email, always 202 until then', async () => {
    const ip = newIp();
    for (let i = 0; i < 3; i++) {
      expect(
        (
          await t
            .http()
            .post(`${API}/auth/forgot-password`)
            .set('X-Forwarded-For', ip)
            .send({ email: `ip${i}-${ip}@example.test` })
        ).status,
      ).toBe(202);
    }
    expectLimited(
      await t
        .http()
        .post(`${API}/auth/forgot-password`)
        .set('X-Forwarded-For', ip)
        .send({ email: `last-${ip}@example.test` }),
    );

    const email = `target-${newIp()}@example.test`;
    for (let i = 0; i < 2; i++) {
      expect((await t.http().post(`${API}/auth/forgot-password`).set('X-Forwarded-For', newIp()).send({ email })).status).toBe(202);
    }
    expectLimited(await t.http().post(`${API}/auth/forgot-password`).set('X-Forwarded-For', newIp()).send({ email: email.toUpperCase() }));
  });

  it.each([
    ['verify-email', { code: 'f'.repeat(40) }],
    ['reset-password', { code: 'f'.repeat(40), '!password': 'long enough' }],
  ])('%s: 10 attempts per IP', async (route, body) => {
    const ip = newIp();
    for (let i = 0; i < 10; i++) {
      expect((await t.http().post(`${API}/auth/${route}`).set('X-Forwarded-For', ip).send(body)).status).toBe(400);
    }
    expectLimited(await t.http().post(`${API}/auth/${route}`).set('X-Forwarded-For', ip).send(body));
    expect((await t.http().post(`${API}/auth/${route}`).set('X-Forwarded-For', newIp()).send(body)).status).toBe(400);
  });

  it('oauth/create-code: 10 per user, whatever the IP, on both paths', async () => {
    const u = await signUp(t);
    for (let i = 0; i < 10; i++) {
      const path = i % 2 ? `${API}/create-code` : `${API}/oauth/create-code`;
      expect((await u.agent.post(path).set('X-Forwarded-For', newIp()).send({})).status).toBe(200);
    }
    expectLimited(await u.agent.post(`${API}/oauth/create-code`).set('X-Forwarded-For', newIp()).send({}));
    // Another user is unaffected.
    const v = await signUp(t);
    expect((await v.agent.post(`${API}/oauth/create-code`).set('X-Forwarded-For', newIp()).send({})).status).toBe(200);
  });

  it('resend-verify-email: 2 per account, whatever the IP', async () => {
    const u = await signUp(t);
    for (let i = 0; i < 2; i++) {
      expect((await u.agent.post(`${API}/auth/resend-verify-email`).set('X-Forwarded-For', newIp())).status).toBe(200);
    }
    expectLimited(await u.agent.post(`${API}/auth/resend-verify-email`).set('X-Forwarded-For', newIp()));
  });

  it('logout is not limited by the /auth policies', async () => {
    const ip = newIp();
    for (let i = 0; i < 20; i++) expect((await t.http().post(`${API}/auth/logout`).set('X-Forwarded-For', ip)).status).toBe(200);
  });
});
