import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { InvitesService } from '../../src/auth/invites.service.js';
import { INVITE_MONTH_MS } from '../../src/auth/invite-allowance.js';
import type { UserDocument } from '../../src/presenters/user.presenter.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { makeAdmin, setJoinDateAndBadges, setLastSeen, setUsernameChangedAt } from '../support/db-fixtures.js';
import { codeFrom, createTestAppWithMail, type TestAppWithMail } from '../support/smtp.js';
import { emailVerified, rowsHeldBy, storedInvite, storedUser } from '../support/stored.js';
import { failed, ok } from '../support/tachi.js';
import { bearer, issueToken, signUp, uniqueUsername, type SignedUpUser } from '../support/users.js';

const API = '/api/v1';
const DAY = 24 * 60 * 60 * 1000;
const COOLDOWN = 180 * DAY;

/** A spec error: the status and {statusCode, error, message}; returns the message. */
function refused(res: { status: number; body: unknown }, status: number): string {
  expect([res.status, res.body]).toEqual([status, { statusCode: status, error: expect.any(String), message: expect.any(String) }]);
  return (res.body as { message: string }).message;
}

async function whoami(agent: SignedUpUser['agent']): Promise<number | null> {
  return (await agent.get(`${API}/status`)).body.whoami as number | null;
}

describe('account settings (spec profile)', () => {
  let t: TestAppWithMail;

  /** A new user whose registration mail was already received. */
  async function user(): Promise<SignedUpUser> {
    const u = await signUp(t);
    await t.smtp.waitFor(u.email);
    return u;
  }

  beforeAll(async () => {
    t = await createTestAppWithMail();
  });
  afterAll(async () => {
    await t.close();
  });

  describe('GET/PATCH /users/:userID/settings', () => {
    it('starts with every preference false, and PATCH sets only the given ones', async () => {
      const u = await user();
      const fresh = await u.agent.get(`${API}/users/${u.user.id}/settings`);
      expect([fresh.status, fresh.body]).toEqual([
        200,
        {
          userID: u.user.id,
          preferences: { invisible: false, developerMode: false, advancedMode: false, contentiousContent: false, deletableScores: false },
          following: [],
        },
      ]);
      const patched = await u.agent.patch(`${API}/users/me/settings`).send({ developerMode: true, deletableScores: true });
      expect([patched.status, patched.body]).toEqual([
        200,
        {
          userID: u.user.id,
          preferences: { invisible: false, developerMode: true, advancedMode: false, contentiousContent: false, deletableScores: true },
          following: [],
        },
      ]);
      await u.agent.patch(`${API}/users/me/settings`).send({ developerMode: false }).expect(200);
      // `following` lists whom the user follows (POST …/following/add), oldest first; it is not a preference to PATCH.
      const [first, second] = [await user(), await user()];
      await u.agent.post(`${API}/users/${u.user.id}/following/add`).send({ userID: second.user.id }).expect(200);
      await u.agent.post(`${API}/users/${u.user.id}/following/add`).send({ userID: first.user.id }).expect(200);
      expect((await u.agent.get(`${API}/users/${u.user.id}/settings`)).body.following).toEqual([second.user.id, first.user.id]);
      expect((await u.agent.get(`${API}/users/${u.user.id}/settings`)).body.preferences).toEqual({
        invisible: false,
        developerMode: false,
        advancedMode: false,
        contentiousContent: false,
        deletableScores: true,
      });
    });

    it.each([
      ['an unknown key', { following: [1] }, /following should not exist/],
      ['a string for a boolean', { invisible: 'yes' }, /invisible must be a boolean/],
      ['null', { advancedMode: null }, /advancedMode must be a boolean/],
      ['nothing', {}, /Nothing was provided to change/],
    ])('refuses %s (400)', async (_label, body, message) => {
      const u = await user();
      expect(refused(await u.agent.patch(`${API}/users/${u.user.id}/settings`).send(body), 400)).toMatch(message);
    });

    it("answers 401 to guests, 403 for another user's, and lets an administrator read and change anyone's", async () => {
      const [u, other, admin] = [await user(), await user(), await user()];
      refused(await t.http().get(`${API}/users/${u.user.id}/settings`), 401);
      refused(await t.http().patch(`${API}/users/${u.user.id}/settings`).send({ invisible: true }), 401);
      refused(await other.agent.get(`${API}/users/${u.user.id}/settings`), 403);
      refused(await other.agent.patch(`${API}/users/${u.user.id}/settings`).send({ invisible: true }), 403);
      await makeAdmin(t, admin.user.id);
      expect((await admin.agent.get(`${API}/users/${u.user.id}/settings`)).status).toBe(200);
      const set = await admin.agent.patch(`${API}/users/${u.user.id}/settings`).send({ advancedMode: true });
      expect([set.status, set.body.userID, set.body.preferences.advancedMode]).toEqual([200, u.user.id, true]);
      expect(refused(await t.http().get(`${API}/users/999999/settings`), 404)).toMatch(/does not exist/);
    });

    it("lets an API token read its own user's settings, and change them only with customise_profile", async () => {
      const u = await user();
      const plain = await issueToken(u, []);
      const customise = await issueToken(u, ['customise_profile']);
      expect((await t.http().get(`${API}/users/${u.user.id}/settings`).set(bearer(plain))).status).toBe(200);
      expect(refused(await t.http().patch(`${API}/users/${u.user.id}/settings`).set(bearer(plain)).send({ invisible: true }), 403)).toMatch(
        /customise_profile/,
      );
      const set = await t.http().patch(`${API}/users/${u.user.id}/settings`).set(bearer(customise)).send({ contentiousContent: true });
      expect([set.status, set.body.preferences.contentiousContent]).toEqual([200, true]);
    });

    it('invisible: left out of GET /users (list, online and search) and lastSeen stops moving; visible again once unset', async () => {
      const u = await user();
      const inList = async (query: string) => ((await t.http().get(`${API}/users${query}`)).body as UserDocument[]).some((d) => d.id === u.user.id);
      expect([await inList(''), await inList('?online=1'), await inList(`?search=${u.username}`)]).toEqual([true, true, true]);
      await u.agent.patch(`${API}/users/me/settings`).send({ invisible: true }).expect(200);
      expect([await inList(''), await inList('?online=1'), await inList(`?search=${u.username}`)]).toEqual([false, false, false]);
      // A request an hour later would have moved lastSeen; an invisible user's stays.
      const anHourAgo = Date.now() - 60 * 60 * 1000;
      await setLastSeen(t, [u.user.id], anHourAgo);
      expect(await whoami(u.agent)).toBe(u.user.id);
      expect((await storedUser(t, { id: u.user.id })).lastSeen).toBe(anHourAgo);
      // Their profile itself stays reachable by id and name.
      expect((await t.http().get(`${API}/users/${u.username}`)).body.id).toBe(u.user.id);
      await u.agent.patch(`${API}/users/me/settings`).send({ invisible: false }).expect(200);
      expect(await whoami(u.agent)).toBe(u.user.id);
      expect((await storedUser(t, { id: u.user.id })).lastSeen).toBeGreaterThan(anHourAgo);
      expect(await inList('?online=1')).toBe(true);
    });
  });

  describe('POST /users/:userID/change-password', () => {
    it("sets the password, signs out the user's other sessions but not this one, and mails a notice", async () => {
      const u = await user();
      const other = t.agent();
      await other.post(`${API}/auth/login`).send({ username: u.username, '!password': u.password, captcha: 'x' }).expect(200);
      const token = await issueToken(u, []);
      expect(await whoami(other)).toBe(u.user.id);

      const res = await u.agent.post(`${API}/users/${u.user.id}/change-password`).send({ '!oldPassword': u.password, '!password': 'a new password' });
      expect([res.status, res.body]).toEqual([200, {}]);
      expect(await whoami(u.agent)).toBe(u.user.id);
      expect(await whoami(other)).toBeNull();
      expect((await t.http().get(`${API}/status`).set(bearer(token))).body.whoami).toBe(u.user.id);

      const mail = await t.smtp.waitFor(u.email);
      expect(mail.raw).toMatch(/Subject: Your password was changed/);
      expect((await t.http().post(`${API}/auth/login`).send({ username: u.username, '!password': u.password, captcha: 'x' })).status).toBe(401);
      expect((await t.http().post(`${API}/auth/login`).send({ username: u.username, '!password': 'a new password', captcha: 'x' })).status).toBe(200);
    });

    it('refuses a wrong current password (403) and a new one the register rules refuse (400), changing nothing', async () => {
      const u = await user();
      const url = `${API}/users/${u.user.id}/change-password`;
      expect(refused(await u.agent.post(url).send({ '!oldPassword': 'not the password', '!password': 'a new password' }), 403)).toMatch(/password is wrong/);
      expect(refused(await u.agent.post(url).send({ '!oldPassword': u.password, '!password': '1234567' }), 400)).toMatch(/8 characters or longer/);
      expect(refused(await u.agent.post(url).send({ '!password': 'a new password' }), 400)).toMatch(/!oldPassword/);
      expect(refused(await u.agent.post(url).send({ '!oldPassword': u.password, '!password': 'a new password', extra: 1 }), 400)).toMatch(
        /extra should not exist/,
      );
      expect((await t.http().post(`${API}/auth/login`).send({ username: u.username, '!password': u.password, captcha: 'x' })).status).toBe(200);
    });

    it('is session-only and self-only: 401 for guests, 403 for tokens and other users', async () => {
      const [u, other] = [await user(), await user()];
      const token = await issueToken(u, ['customise_profile']);
      const body = { '!oldPassword': u.password, '!password': 'a new password' };
      refused(await t.http().post(`${API}/users/${u.user.id}/change-password`).send(body), 401);
      refused(await t.http().post(`${API}/users/${u.user.id}/change-password`).set(bearer(token)).send(body), 403);
      refused(await other.agent.post(`${API}/users/${u.user.id}/change-password`).send(body), 403);
    });
  });

  describe('POST /users/:userID/change-username and GET last-username-change', () => {
    it('renames the user, mails a notice, and allows the next change 180 days later', async () => {
      const u = await user();
      const before = await u.agent.get(`${API}/users/${u.user.id}/last-username-change`);
      expect([before.status, before.body]).toEqual([200, { lastChange: null, canChange: true, nextAvailableChange: null }]);

      const renamed = uniqueUsername('renamed');
      const at = Date.now();
      const res = await u.agent.post(`${API}/users/${u.user.id}/change-username`).send({ '!password': u.password, username: renamed });
      expect([res.status, res.body]).toEqual([200, {}]);
      const profile = await t.http().get(`${API}/users/${u.user.id}`);
      expect([profile.body.username, profile.body.usernameLowercase]).toEqual([renamed, renamed.toLowerCase()]);
      expect((await t.http().get(`${API}/users/${renamed.toUpperCase()}`)).body.id).toBe(u.user.id);
      expect((await t.http().get(`${API}/users/${u.username}`)).status).toBe(404);
      expect((await t.smtp.waitFor(u.email)).raw).toMatch(/Subject: Your username was changed/);

      const after = (await u.agent.get(`${API}/users/me/last-username-change`)).body as { lastChange: number; canChange: boolean; nextAvailableChange: number };
      expect(after.lastChange).toBeGreaterThanOrEqual(at);
      expect(after).toEqual({ lastChange: after.lastChange, canChange: false, nextAvailableChange: after.lastChange + COOLDOWN });

      const again = await u.agent.post(`${API}/users/${u.user.id}/change-username`).send({ '!password': u.password, username: uniqueUsername('again') });
      expect(refused(again, 409)).toContain(new Date(after.lastChange + COOLDOWN).toISOString());

      // 180 days (and a minute) later it is possible again.
      await setUsernameChangedAt(t, u.user.id, Date.now() - COOLDOWN - 60_000);
      expect((await u.agent.get(`${API}/users/me/last-username-change`)).body.canChange).toBe(true);
      const third = uniqueUsername('third');
      expect((await u.agent.post(`${API}/users/me/change-username`).send({ '!password': u.password, username: third })).status).toBe(200);
      expect((await t.http().get(`${API}/users/${u.user.id}`)).body.username).toBe(third);
    });

    it('refuses a taken username in any case (409), a wrong password (403), bad usernames and the same one (400)', async () => {
      const [u, other] = [await user(), await user()];
      const url = `${API}/users/${u.user.id}/change-username`;
      expect(refused(await u.agent.post(url).send({ '!password': u.password, username: other.username.toUpperCase() }), 409)).toMatch(/already in use/);
      expect(refused(await u.agent.post(url).send({ '!password': 'wrong password', username: uniqueUsername('x') }), 403)).toMatch(/password is wrong/);
      for (const bad of ['ab', 'b'.repeat(21), '1abc', 'ab cd']) {
        expect(refused(await u.agent.post(url).send({ '!password': u.password, username: bad }), 400)).toMatch(/username must be 3 to 20 characters/);
      }
      expect(refused(await u.agent.post(url).send({ '!password': u.password, username: u.username }), 400)).toMatch(/already your username/);
      expect(refused(await u.agent.post(url).send({ '!password': u.password, newUsername: 'abcdef' }), 400)).toMatch(/newUsername should not exist/);
      expect((await t.http().get(`${API}/users/${u.user.id}`)).body.username).toBe(u.username);
      expect((await u.agent.get(`${API}/users/${u.user.id}/last-username-change`)).body.canChange).toBe(true);
    });

    it('allows changing only the case of the own username', async () => {
      const u = await user();
      const res = await u.agent.post(`${API}/users/${u.user.id}/change-username`).send({ '!password': u.password, username: u.username.toUpperCase() });
      expect(res.status).toBe(200);
      expect((await t.http().get(`${API}/users/${u.user.id}`)).body.username).toBe(u.username.toUpperCase());
    });

    it('is session-only and self-only', async () => {
      const [u, other] = [await user(), await user()];
      const token = await issueToken(u, ['customise_profile']);
      refused(await t.http().get(`${API}/users/${u.user.id}/last-username-change`), 401);
      refused(await t.http().get(`${API}/users/${u.user.id}/last-username-change`).set(bearer(token)), 403);
      refused(await other.agent.get(`${API}/users/${u.user.id}/last-username-change`), 403);
      refused(await other.agent.post(`${API}/users/${u.user.id}/change-username`).send({ '!password': other.password, username: uniqueUsername('y') }), 403);
      refused(
        await t
          .http()
          .post(`${API}/users/${u.user.id}/change-username`)
          .set(bearer(token))
          .send({ '!password': u.password, username: uniqueUsername('y') }),
        403,
      );
    });
  });

  describe('email: GET email, POST change-email, GET is-email-verified', () => {
    it('changes the address: unverified, a code to the new address (which verifies it), a notice to the old', async () => {
      const u = await user();
      expect((await u.agent.get(`${API}/users/${u.user.id}/email`)).body).toEqual({ email: u.email });
      expect((await u.agent.get(`${API}/users/${u.user.id}/is-email-verified`)).body).toEqual({ verified: false });
      // Verify the first address, so that the change visibly makes it unverified again.
      await u.agent.post(`${API}/auth/resend-verify-email`).expect(200);
      await t
        .http()
        .post(`${API}/auth/verify-email`)
        .send({ code: codeFrom(await t.smtp.waitFor(u.email)) })
        .expect(200);
      expect((await u.agent.get(`${API}/users/${u.user.id}/is-email-verified`)).body).toEqual({ verified: true });

      const next = `new-${u.email}`;
      const res = await u.agent.post(`${API}/users/${u.user.id}/change-email`).send({ '!password': u.password, email: next });
      expect([res.status, res.body]).toEqual([200, {}]);
      expect((await u.agent.get(`${API}/users/me/email`)).body).toEqual({ email: next });
      expect(await emailVerified(t, u.user.id)).toBe(false);
      expect((await u.agent.get(`${API}/users/me/is-email-verified`)).body).toEqual({ verified: false });
      expect((await t.smtp.waitFor(u.email)).raw).toMatch(/Subject: Your email address was changed/);
      const verify = await t.smtp.waitFor(next);
      expect(verify.raw).toMatch(/Subject: Verify your email address/);
      await t
        .http()
        .post(`${API}/auth/verify-email`)
        .send({ code: codeFrom(verify) })
        .expect(200);
      expect((await u.agent.get(`${API}/users/me/is-email-verified`)).body).toEqual({ verified: true });
      // forgot-password now finds the account by the new address
      await t.http().post(`${API}/auth/forgot-password`).send({ email: next }).expect(202);
      expect((await t.smtp.waitFor(next)).raw).toMatch(/Subject: Reset your password/);
    });

    it("refuses another account's address in any case (409), a wrong password (403), a bad or the same address (400)", async () => {
      const [u, other] = [await user(), await user()];
      const url = `${API}/users/${u.user.id}/change-email`;
      expect(refused(await u.agent.post(url).send({ '!password': u.password, email: other.email.toUpperCase() }), 409)).toMatch(/already in use/);
      expect(refused(await u.agent.post(url).send({ '!password': 'wrong password', email: `x-${u.email}` }), 403)).toMatch(/password is wrong/);
      expect(refused(await u.agent.post(url).send({ '!password': u.password, email: 'not-an-address' }), 400)).toMatch(/valid email/);
      expect(refused(await u.agent.post(url).send({ '!password': u.password, email: u.email.toUpperCase() }), 400)).toMatch(/already your email/);
      expect(refused(await u.agent.post(url).send({ email: `x-${u.email}` }), 400)).toMatch(/!password/);
      expect((await u.agent.get(`${API}/users/me/email`)).body).toEqual({ email: u.email });
    });

    it('are session-only and self-only', async () => {
      const [u, other] = [await user(), await user()];
      const token = await issueToken(u, ['customise_profile']);
      for (const path of ['email', 'is-email-verified']) {
        refused(await t.http().get(`${API}/users/${u.user.id}/${path}`), 401);
        refused(await t.http().get(`${API}/users/${u.user.id}/${path}`).set(bearer(token)), 403);
        refused(await other.agent.get(`${API}/users/${u.user.id}/${path}`), 403);
      }
      refused(await other.agent.post(`${API}/users/${u.user.id}/change-email`).send({ '!password': other.password, email: `z-${u.email}` }), 403);
    });
  });

  it('invites answer 404 when the server is not invite-only (401 to guests first)', async () => {
    const u = await user();
    expect(refused(await u.agent.get(`${API}/users/${u.user.id}/invites`), 404)).toMatch(/invite-only/);
    refused(await u.agent.get(`${API}/users/${u.user.id}/invites/limit`), 404);
    refused(await u.agent.post(`${API}/users/${u.user.id}/invites/create`), 404);
    refused(await t.http().get(`${API}/users/${u.user.id}/invites`), 401);
  });
});

describe('invites (spec profile, INVITE_ONLY)', () => {
  let t: TestApp;
  let codes: InvitesService;

  async function register(inviteCode: string): Promise<SignedUpUser> {
    const username = uniqueUsername('inv');
    const password = 'invite password';
    const email = `${username.toLowerCase()}@example.test`;
    const agent = t.agent();
    const res = await agent.post(`${API}/auth/register`).send({ username, '!password': password, email, inviteCode, captcha: 'x' });
    expect(res.status).toBe(200);
    return { user: res.body as UserDocument, username, password, email, agent };
  }
  const newUser = async () => register((await codes.create(1))[0]);

  beforeAll(async () => {
    t = await createTestApp({ INVITE_ONLY: 'true', INVITE_BATCH_SIZE: '2', INVITE_BETA_BONUS: '5', INVITE_CAP: '7' });
    codes = t.app.get(InvitesService);
  });
  afterAll(async () => {
    await t.close();
  });

  it('a new user may create none; each whole 28-day month adds the batch size', async () => {
    const u = await newUser();
    expect((await u.agent.get(`${API}/users/${u.user.id}/invites/limit`)).body).toEqual({ invites: 0, limit: 0 });
    expect(refused(await u.agent.post(`${API}/users/${u.user.id}/invites/create`), 400)).toMatch(/all 0 of the invites/);
    await setJoinDateAndBadges(t, u.user.id, Date.now() - INVITE_MONTH_MS - DAY);
    expect((await u.agent.get(`${API}/users/${u.user.id}/invites/limit`)).body).toEqual({ invites: 0, limit: 2 });
  });

  it('creates invites up to the limit, lists them with the users who used them, and refuses one more (400)', async () => {
    const u = await newUser();
    await setJoinDateAndBadges(t, u.user.id, Date.now() - INVITE_MONTH_MS - DAY);
    const first = await u.agent.post(`${API}/users/${u.user.id}/invites/create`);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      code: expect.stringMatching(/^[0-9a-f]{40}$/),
      createdBy: u.user.id,
      createdAt: expect.any(Number),
      consumed: false,
      consumedBy: null,
      consumedAt: null,
    });
    const second = (await u.agent.post(`${API}/users/me/invites/create`).expect(200)).body as { code: string };
    expect(refused(await u.agent.post(`${API}/users/${u.user.id}/invites/create`), 400)).toMatch(/all 2 of the invites/);
    expect((await u.agent.get(`${API}/users/${u.user.id}/invites/limit`)).body).toEqual({ invites: 2, limit: 2 });

    const invited = await register(first.body.code as string);
    const list = await u.agent.get(`${API}/users/${u.user.id}/invites`);
    expect(list.status).toBe(200);
    expect(list.body.invites).toEqual([
      { ...first.body, consumed: true, consumedBy: invited.user.id, consumedAt: expect.any(Number) },
      { ...second, consumed: false, consumedBy: null, consumedAt: null },
    ]);
    expect((list.body.consumers as UserDocument[]).map((c) => [c.id, c.username])).toEqual([[invited.user.id, invited.username]]);
    // A used invite still counts against the limit.
    expect((await u.agent.get(`${API}/users/${u.user.id}/invites/limit`)).body).toEqual({ invites: 2, limit: 2 });
    // The invited user sees none of them.
    expect((await invited.agent.get(`${API}/users/${invited.user.id}/invites`)).body).toEqual({ invites: [], consumers: [] });
  });

  it('adds the beta bonus, caps the total, and exempts administrators from the limit', async () => {
    const beta = await newUser();
    await setJoinDateAndBadges(t, beta.user.id, Date.now(), ['beta']);
    expect((await beta.agent.get(`${API}/users/${beta.user.id}/invites/limit`)).body).toEqual({ invites: 0, limit: 5 });
    await setJoinDateAndBadges(t, beta.user.id, Date.now() - 3 * INVITE_MONTH_MS - DAY, ['alpha']);
    expect((await beta.agent.get(`${API}/users/${beta.user.id}/invites/limit`)).body).toEqual({ invites: 0, limit: 7 });

    const admin = await newUser();
    await makeAdmin(t, admin.user.id);
    for (let i = 0; i < 2; i++) await admin.agent.post(`${API}/users/${admin.user.id}/invites/create`).expect(200);
    expect((await admin.agent.get(`${API}/users/${admin.user.id}/invites/limit`)).body).toEqual({ invites: 2, limit: 0 });
  });

  it('allows no more than the limit when requests race', async () => {
    const u = await newUser();
    await setJoinDateAndBadges(t, u.user.id, Date.now() - INVITE_MONTH_MS - DAY);
    const statuses = await Promise.all(Array.from({ length: 5 }, () => u.agent.post(`${API}/users/${u.user.id}/invites/create`).then((r) => r.status)));
    expect(statuses.sort()).toEqual([200, 200, 400, 400, 400]);
    expect((await u.agent.get(`${API}/users/${u.user.id}/invites/limit`)).body).toEqual({ invites: 2, limit: 2 });
  });

  it('deleting the account removes its settings and the invites it created', async () => {
    const u = await newUser();
    await setJoinDateAndBadges(t, u.user.id, Date.now(), ['beta']);
    await u.agent.patch(`${API}/users/me/settings`).send({ invisible: true }).expect(200);
    const { code } = (await u.agent.post(`${API}/users/me/invites/create`).expect(200)).body as { code: string };
    await u.agent.delete(`${API}/users/${u.user.id}`).send({ '!password': u.password }).expect(200);
    expect(await rowsHeldBy(t, u.user.id)).toEqual([]);
    expect(await storedInvite(t, code)).toBeUndefined();
  });

  it('are session-only and self-only: 401 for guests, 403 for tokens and other users', async () => {
    const [u, other] = [await newUser(), await newUser()];
    const token = await issueToken(u, ['customise_profile']);
    for (const [method, path] of [
      ['get', ''],
      ['get', '/limit'],
      ['post', '/create'],
    ] as const) {
      refused(await t.http()[method](`${API}/users/${u.user.id}/invites${path}`), 401);
      refused(await t.http()[method](`${API}/users/${u.user.id}/invites${path}`).set(bearer(token)), 403);
      refused(await other.agent[method](`${API}/users/${u.user.id}/invites${path}`), 403);
    }
  });
});

describe('account settings (tachi profile)', () => {
  let t: TestAppWithMail;
  let codes: InvitesService;

  async function register(): Promise<SignedUpUser> {
    const username = uniqueUsername('tac');
    const password = 'tachi password';
    const email = `${username.toLowerCase()}@example.test`;
    const agent = t.agent();
    const [inviteCode] = await codes.create(1);
    const user = ok<UserDocument>(await agent.post(`${API}/auth/register`).send({ username, '!password': password, email, inviteCode, captcha: 'x' }));
    await t.smtp.waitFor(email);
    return { user, username, password, email, agent };
  }

  beforeAll(async () => {
    t = await createTestAppWithMail({ API_PROFILE: 'tachi', INVITE_ONLY: 'true' });
    codes = t.app.get(InvitesService);
  });
  afterAll(async () => {
    await t.close();
  });

  it("serves Tachi's UserSettingsDocument and Tachi's errors", async () => {
    const u = await register();
    expect(ok(await u.agent.get(`${API}/users/${u.user.id}/settings`))).toEqual({
      userID: u.user.id,
      preferences: { invisible: false, developerMode: false, advancedMode: false, contentiousContent: false, deletableScores: false },
      following: [],
    });
    expect(ok(await u.agent.patch(`${API}/users/${u.user.id}/settings`).send({ invisible: true }))).toEqual({
      userID: u.user.id,
      preferences: { invisible: true, developerMode: false, advancedMode: false, contentiousContent: false, deletableScores: false },
      following: [],
    });
    expect(failed(await u.agent.patch(`${API}/users/${u.user.id}/settings`).send({}), 400)).toMatch(/Nothing was provided/);
    expect(failed(await u.agent.patch(`${API}/users/${u.user.id}/settings`).send({ invisible: 1 }), 400)).toMatch(/invisible/);
    failed(await t.http().get(`${API}/users/${u.user.id}/settings`), 401);
  });

  it("takes Tachi's newUsername and answers last-username-change as Tachi does", async () => {
    const u = await register();
    expect(ok(await u.agent.get(`${API}/users/${u.user.id}/last-username-change`))).toEqual({ canChange: true });
    expect(failed(await u.agent.post(`${API}/users/${u.user.id}/change-username`).send({ '!password': u.password, username: 'abcdef' }), 400)).toMatch(
      /username should not exist/,
    );
    const renamed = uniqueUsername('tnew');
    expect(ok(await u.agent.post(`${API}/users/${u.user.id}/change-username`).send({ '!password': u.password, newUsername: renamed }))).toEqual({});
    expect(ok<UserDocument>(await t.http().get(`${API}/users/${u.user.id}`)).username).toBe(renamed);
    const body = ok<{ canChange: boolean; nextAvailableChange: number }>(await u.agent.get(`${API}/users/${u.user.id}/last-username-change`));
    expect(body).toEqual({ canChange: false, nextAvailableChange: expect.any(Number) });
    expect(body.nextAvailableChange).toBeGreaterThan(Date.now() + COOLDOWN - 60_000);
    failed(await u.agent.post(`${API}/users/${u.user.id}/change-username`).send({ '!password': u.password, newUsername: uniqueUsername('t2') }), 409);
    failed(await u.agent.post(`${API}/users/${u.user.id}/change-username`).send({ '!password': 'wrong password', newUsername: uniqueUsername('t3') }), 403);
  });

  it('answers email with the address and is-email-verified with a boolean, and changes password and email', async () => {
    const u = await register();
    expect(ok<string>(await u.agent.get(`${API}/users/${u.user.id}/email`))).toBe(u.email);
    expect(ok<boolean>(await u.agent.get(`${API}/users/${u.user.id}/is-email-verified`))).toBe(false);
    expect(ok(await u.agent.post(`${API}/users/${u.user.id}/change-password`).send({ '!oldPassword': u.password, '!password': 'another password' }))).toEqual(
      {},
    );
    expect((await t.smtp.waitFor(u.email)).raw).toMatch(/Your password was changed/);
    failed(await u.agent.post(`${API}/users/${u.user.id}/change-password`).send({ '!oldPassword': u.password, '!password': 'another password' }), 403);
    const next = `n-${u.email}`;
    expect(ok(await u.agent.post(`${API}/users/${u.user.id}/change-email`).send({ '!password': 'another password', email: next }))).toEqual({});
    expect(ok<string>(await u.agent.get(`${API}/users/me/email`))).toBe(next);
    expect((await t.smtp.waitFor(next)).raw).toMatch(/Verify your email address/);
    expect((await t.smtp.waitFor(u.email)).raw).toMatch(/Your email address was changed/);
    const other = await register();
    failed(await other.agent.post(`${API}/users/${other.user.id}/change-email`).send({ '!password': other.password, email: next }), 409);
  });

  it("serves Tachi's invite documents", async () => {
    const u = await register();
    await setJoinDateAndBadges(t, u.user.id, Date.now(), ['alpha']);
    expect(ok(await u.agent.get(`${API}/users/${u.user.id}/invites/limit`))).toEqual({ invites: 0, limit: 5 });
    const invite = ok<{ code: string }>(await u.agent.post(`${API}/users/${u.user.id}/invites/create`));
    expect(invite).toEqual({
      code: expect.stringMatching(/^[0-9a-f]{40}$/),
      createdBy: u.user.id,
      createdAt: expect.any(Number),
      consumed: false,
      consumedBy: null,
      consumedAt: null,
    });
    const list = ok<{ invites: unknown[]; consumers: unknown[] }>(await u.agent.get(`${API}/users/${u.user.id}/invites`));
    expect(list).toEqual({ invites: [invite], consumers: [] });
    failed(await t.http().get(`${API}/users/${u.user.id}/invites`), 401);
  });
});

describe('password-checking account changes: rate limit', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ AUTH_RATE_LIMIT_FACTOR: '1' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('allows 10 change-password, change-username and change-email requests per user in 10 minutes, then 429', async () => {
    const [u, other] = [await signUp(t), await signUp(t)];
    const attempts = [
      () => u.agent.post(`${API}/users/${u.user.id}/change-password`).send({ '!oldPassword': 'wrong password', '!password': 'a new password' }),
      () => u.agent.post(`${API}/users/${u.user.id}/change-username`).send({ '!password': 'wrong password', username: uniqueUsername('rl') }),
      () => u.agent.post(`${API}/users/${u.user.id}/change-email`).send({ '!password': 'wrong password', email: `rl-${u.email}` }),
    ];
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await attempts[i % 3]()).status);
    expect(statuses).toEqual(Array.from({ length: 10 }, () => 403));
    expect((await attempts[0]()).status).toBe(429);
    expect((await attempts[2]()).status).toBe(429);
    // Another user's count is their own.
    const theirs = await other.agent
      .post(`${API}/users/${other.user.id}/change-password`)
      .send({ '!oldPassword': other.password, '!password': 'a new password' });
    expect(theirs.status).toBe(200);
  });
});
