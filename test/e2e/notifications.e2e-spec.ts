import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { PERMISSIONS } from '../../src/common/permissions.js';
import { randomHex } from '../../src/common/crypto.js';
import { NotificationsService } from '../../src/notifications/notifications.service.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { storeNotifications } from '../support/db-fixtures.js';
import { bearer, issueToken, signUp, type SignedUpUser } from '../support/users.js';

const API = '/api/v1';

describe('/users/:userID/notifications', () => {
  let t: TestApp;
  let service: NotificationsService;
  beforeAll(async () => {
    t = await createTestApp();
    service = t.app.get(NotificationsService);
  });
  afterAll(async () => {
    await t.close();
  });

  /** Inserts notifications with chosen send times, so the order is known. */
  async function insertAt(userID: number, sentAts: number[]): Promise<string[]> {
    const rows = sentAts.map((sentAt, i) => ({
      notifID: `N${randomHex(20)}`,
      sentTo: userID,
      title: `notification ${i}`,
      body: { type: 'SITE_ANNOUNCEMENT', content: { index: i } },
      sentAt,
    }));
    await storeNotifications(t, rows);
    return rows.map((r) => r.notifID);
  }

  const url = (u: SignedUpUser, action = '') => `${API}/users/${u.user.id}/notifications${action}`;
  /** The user's notifications as their GET serves them (to the user's own session). */
  const rowsOf = async (u: SignedUpUser) => {
    const res = await u.agent.get(url(u));
    expect(res.status).toBe(200);
    return res.body as { notifID: string; read: boolean }[];
  };

  describe('GET', () => {
    it('is an empty array for a user without notifications', async () => {
      const u = await signUp(t);
      const res = await u.agent.get(url(u));
      expect(res.status).toBe(200);
      expect(res.body).toEqual([]);
    });

    it("lists the user's notifications newest first, as NotificationDocuments", async () => {
      const u = await signUp(t);
      const other = await signUp(t);
      const now = Date.now();
      const [middle, oldest, newest] = await insertAt(u.user.id, [now - 2000, now - 3000, now - 1000]);
      await insertAt(other.user.id, [now]);
      const sent = await service.send(u.user.id, 'You were rivalled', { type: 'RIVALED_BY', content: { userID: other.user.id, game: 'iidx', playtype: 'SP' } });

      const res = await u.agent.get(url(u));
      expect(res.status).toBe(200);
      expect(res.body.map((n: { notifID: string }) => n.notifID)).toEqual([sent.notifID, newest, middle, oldest]);
      expect(res.body[0]).toEqual({
        notifID: sent.notifID,
        title: 'You were rivalled',
        sentTo: u.user.id,
        sentAt: sent.sentAt,
        read: false,
        body: { type: 'RIVALED_BY', content: { userID: other.user.id, game: 'iidx', playtype: 'SP' } },
      });
      expect(sent.notifID).toMatch(/^N[0-9a-f]{40}$/);
    });
  });

  describe('POST mark-all-read', () => {
    it("marks the user's existing notifications read and nobody else's", async () => {
      const u = await signUp(t);
      const other = await signUp(t);
      const now = Date.now();
      await insertAt(u.user.id, [now - 5000, now - 4000]);
      await insertAt(other.user.id, [now - 5000]);

      const res = await u.agent.post(url(u, '/mark-all-read'));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({});
      expect((await u.agent.get(url(u))).body.map((n: { read: boolean }) => n.read)).toEqual([true, true]);
      expect((await rowsOf(other)).map((n) => n.read)).toEqual([false]);
    });

    it('leaves a notification sent after the request started unread', async () => {
      const u = await signUp(t);
      const [later] = await insertAt(u.user.id, [Date.now() + 60_000]);
      const [earlier] = await insertAt(u.user.id, [Date.now() - 1000]);
      expect((await u.agent.post(url(u, '/mark-all-read'))).status).toBe(200);
      const read = Object.fromEntries((await rowsOf(u)).map((n) => [n.notifID, n.read]));
      expect(read).toEqual({ [later]: false, [earlier]: true });
    });
  });

  describe('POST delete-all', () => {
    it("deletes the user's notifications and nobody else's", async () => {
      const u = await signUp(t);
      const other = await signUp(t);
      await insertAt(u.user.id, [Date.now() - 3000, Date.now() - 2000]);
      await service.send(u.user.id, 'hello', { type: 'SITE_ANNOUNCEMENT', content: {} });
      await insertAt(other.user.id, [Date.now() - 3000]);

      const res = await u.agent.post(url(u, '/delete-all'));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({});
      expect((await u.agent.get(url(u))).body).toEqual([]);
      expect(await rowsOf(other)).toHaveLength(1);
    });

    it('keeps a notification sent after the request started', async () => {
      const u = await signUp(t);
      const [later] = await insertAt(u.user.id, [Date.now() + 60_000]);
      await insertAt(u.user.id, [Date.now() - 1000]);
      expect((await u.agent.post(url(u, '/delete-all'))).status).toBe(200);
      expect((await rowsOf(u)).map((n) => n.notifID)).toEqual([later]);
    });
  });

  describe.each([
    ['GET', ''],
    ['POST', '/mark-all-read'],
    ['POST', '/delete-all'],
  ])('access to %s%s', (method, action) => {
    let owner: SignedUpUser;
    let other: SignedUpUser;
    beforeAll(async () => {
      owner = await signUp(t);
      other = await signUp(t);
      await insertAt(owner.user.id, [Date.now() - 1000]);
    });
    const send = (client: ReturnType<TestApp['http']> | SignedUpUser['agent'], path: string) => (method === 'GET' ? client.get(path) : client.post(path));
    const unchanged = async () => {
      const rows = await rowsOf(owner);
      expect(rows).toHaveLength(1);
      expect(rows[0].read).toBe(false);
    };

    it('refuses an API token with 403, even one holding every permission', async () => {
      const token = await issueToken(owner, [...PERMISSIONS]);
      const res = await send(t.http(), url(owner, action)).set(bearer(token));
      expect(res.status).toBe(403);
      expect(res.body.message).toMatch(/session-level authentication/);
      const viaMe = await send(t.http(), `${API}/users/me/notifications${action}`).set(bearer(token));
      expect(viaMe.status).toBe(403);
      await unchanged();
    });

    it("refuses another user's session with 403", async () => {
      const res = await send(other.agent, url(owner, action));
      expect(res.status).toBe(403);
      expect(res.body.message).toMatch(/not authorised as this user/);
      await unchanged();
    });

    it('refuses a guest with 401, also through `me`', async () => {
      expect((await send(t.http(), url(owner, action))).status).toBe(401);
      expect((await send(t.http(), `${API}/users/me/notifications${action}`)).status).toBe(401);
      await unchanged();
    });

    it('answers 404 for an unknown user', async () => {
      expect((await send(owner.agent, `${API}/users/no_such_user/notifications${action}`)).status).toBe(404);
    });

    it('lets the owner in through `me` and the username', async () => {
      expect((await send(owner.agent, `${API}/users/me/notifications${action}`)).status).toBe(200);
      expect((await send(owner.agent, `${API}/users/${owner.username.toUpperCase()}/notifications${action}`)).status).toBe(200);
    });
  });
});
