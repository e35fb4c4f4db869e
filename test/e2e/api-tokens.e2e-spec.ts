import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import sharp from 'sharp';
import { PERMISSIONS } from '../../src/common/permissions.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { setAuthLevel } from '../support/db-fixtures.js';
import { bearer, issueToken, signUp, type SignedUpUser } from '../support/users.js';

const tokensOf = (userID: number | string) => `/api/v1/users/${userID}/api-tokens`;

interface KeyDoc {
  keyID: number;
  userID: number;
  token?: string;
  identifier: string;
  permissions: Record<string, boolean>;
  fromAPIClient: string | null;
  createdAt: number;
}

describe('API tokens (/users/:userID/api-tokens) and the permission matrix', () => {
  let t: TestApp;
  let alice: SignedUpUser;
  let bob: SignedUpUser;

  const create = (u: SignedUpUser, body: object) => u.agent.post(`${tokensOf(u.user.id)}/create`).send(body);
  const whoami = (token: string) => t.http().get('/api/v1/status').set(bearer(token));

  beforeAll(async () => {
    t = await createTestApp();
    alice = await signUp(t);
    bob = await signUp(t);
  });
  afterAll(async () => {
    await t.close();
  });

  describe('POST .../create with permissions (a custom token)', () => {
    it('issues a working token with exactly the requested permissions', async () => {
      const res = await create(alice, { permissions: ['submit_score', 'manage_targets'], identifier: 'My score hook' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        keyID: expect.any(Number),
        userID: alice.user.id,
        token: expect.stringMatching(/^[0-9a-f]{40}$/),
        identifier: 'My score hook',
        permissions: {
          submit_score: true,
          manage_targets: true,
          customise_profile: false,
          customise_score: false,
          customise_session: false,
          delete_score: false,
          manage_rivals: false,
        },
        fromAPIClient: null,
        createdAt: expect.any(Number),
      });
      const status = await whoami(res.body.token as string);
      expect(status.body.whoami).toBe(alice.user.id);
      expect([...status.body.permissions].sort()).toEqual(['manage_targets', 'submit_score']);
    });

    it('defaults the identifier to "Custom Token" and accepts an empty permission list', async () => {
      const res = await create(alice, { permissions: [] });
      expect(res.status).toBe(200);
      expect(res.body.identifier).toBe('Custom Token');
      expect(Object.values(res.body.permissions as object).every((v) => v === false)).toBe(true);
      const status = await whoami(res.body.token as string);
      expect(status.status).toBe(200);
      expect(status.body.permissions).toEqual([]);
    });

    it('works through the `me` alias and a case-changed username', async () => {
      expect((await alice.agent.post(`${tokensOf('me')}/create`).send({ permissions: [] })).status).toBe(200);
      expect((await alice.agent.post(`${tokensOf(alice.username.toUpperCase())}/create`).send({ permissions: [] })).status).toBe(200);
    });

    it.each([
      ['an unknown permission', { permissions: ['submit_score', 'fly'] }, /permission must be one of/],
      ['permissions as a string', { permissions: 'submit_score' }, /array/],
      ['a repeated permission', { permissions: ['submit_score', 'submit_score'] }, /unique/],
      ['permissions: null', { permissions: null }, /permissions/],
      ['an empty identifier', { permissions: [], identifier: '' }, /identifier/],
      ['an 81-character identifier', { permissions: [], identifier: 'x'.repeat(81) }, /identifier/],
      ['an unknown key', { permissions: [], token: 'my-own-token' }, /token/],
      ['an empty body', {}, /either clientID .* or permissions/],
      ['only an identifier', { identifier: 'Only a name' }, /either clientID .* or permissions/],
      ['both clientID and permissions', { permissions: ['submit_score'], clientID: 'CIabc' }, /not both/],
    ])('is 400 for %s', async (_label, body, message) => {
      const res = await create(alice, body);
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(message);
    });
  });

  describe('POST .../create with clientID (the client-file flow)', () => {
    it('issues a key with the client’s permissions and answers with the filled-in file', async () => {
      const client = await bob.agent.post('/api/v1/clients/create').send({
        name: 'Fervidex',
        apiKeyFormat: '{"url":"https://example.test","token":"%%SERVICE_KEY%%","again":"%%SERVICE_KEY%%"}',
        apiKeyFilename: 'fervidex.json',
        permissions: ['submit_score'],
      });
      expect(client.status).toBe(200);

      const res = await create(alice, { clientID: client.body.clientID });
      expect(res.status).toBe(200);
      const token = res.body.token as string;
      expect(res.body).toMatchObject({
        userID: alice.user.id,
        token: expect.stringMatching(/^[0-9a-f]{40}$/),
        identifier: 'Fervidex',
        fromAPIClient: client.body.clientID,
        permissions: { submit_score: true, customise_profile: false },
        apiKeyFile: `{"url":"https://example.test","token":"${token}","again":"${token}"}`,
        apiKeyFilename: 'fervidex.json',
      });
      expect((await whoami(token)).body.permissions).toEqual(['submit_score']);
    });

    it('gives the bare token as the file when the client has no apiKeyFormat', async () => {
      const client = await bob.agent.post('/api/v1/clients/create').send({ name: 'Plain Hook', permissions: ['customise_profile'] });
      const res = await create(alice, { clientID: client.body.clientID, identifier: 'My laptop' });
      expect(res.status).toBe(200);
      expect(res.body.apiKeyFile).toBe(res.body.token);
      expect(res.body.apiKeyFilename).toBeNull();
      expect(res.body.identifier).toBe('My laptop');
    });

    it('is 404 for an unknown client', async () => {
      const res = await create(alice, { clientID: `CI${'0'.repeat(40)}` });
      expect(res.status).toBe(404);
      expect(res.body.message).toMatch(/does not exist/);
    });
  });

  describe('GET .../api-tokens', () => {
    it('lists the user’s own keys, newest first, never with the token value or its hash', async () => {
      const carol = await signUp(t);
      const first = await create(carol, { permissions: ['submit_score'], identifier: 'first' });
      const second = await create(carol, { permissions: ['delete_score'], identifier: 'second' });
      await create(alice, { permissions: [], identifier: 'not carol’s' });

      const res = await carol.agent.get(tokensOf(carol.user.id));
      expect(res.status).toBe(200);
      expect((res.body as KeyDoc[]).map((k) => k.identifier)).toEqual(['second', 'first']);
      const { token: _t1, ...firstListed } = first.body as KeyDoc;
      const { token: _t2, ...secondListed } = second.body as KeyDoc;
      expect(res.body).toEqual([secondListed, firstListed]);

      const raw = JSON.stringify(res.body);
      for (const issued of [first.body.token, second.body.token] as string[]) expect(raw).not.toContain(issued);
      expect(raw).not.toMatch(/[0-9a-f]{40}/);
      expect(raw).not.toMatch(/hash/i);
    });
  });

  describe('DELETE .../api-tokens/:keyID', () => {
    it('revokes a key: that token is then 401, other keys keep working', async () => {
      const doomed = (await create(alice, { permissions: ['submit_score'] })).body as KeyDoc;
      const kept = (await create(alice, { permissions: ['submit_score'] })).body as KeyDoc;
      expect((await whoami(doomed.token!)).status).toBe(200);

      const res = await alice.agent.delete(`${tokensOf(alice.user.id)}/${doomed.keyID}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({});
      expect((await whoami(doomed.token!)).status).toBe(401);
      expect((await whoami(kept.token!)).status).toBe(200);
      expect(((await alice.agent.get(tokensOf('me'))).body as KeyDoc[]).some((k) => k.keyID === doomed.keyID)).toBe(false);
      expect((await alice.agent.delete(`${tokensOf(alice.user.id)}/${doomed.keyID}`)).status).toBe(404);
    });

    it('is 404 for another user’s key, which keeps working', async () => {
      const bobs = (await create(bob, { permissions: [] })).body as KeyDoc;
      const res = await alice.agent.delete(`${tokensOf(alice.user.id)}/${bobs.keyID}`);
      expect(res.status).toBe(404);
      expect((await whoami(bobs.token!)).status).toBe(200);
    });

    it.each(['abc', '1.5', '-1', '0', '99999999999'])('is 400 for the key id %p', async (keyID) => {
      const res = await alice.agent.delete(`${tokensOf(alice.user.id)}/${keyID}`);
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/keyID/);
    });
  });

  describe('access', () => {
    const routes = (userID: number | string, keyID: number): [string, string, object?][] => [
      ['get', tokensOf(userID)],
      ['post', `${tokensOf(userID)}/create`, { permissions: ['submit_score'] }],
      ['delete', `${tokensOf(userID)}/${keyID}`],
    ];

    it('refuses a bearer token with 403, even one holding every permission', async () => {
      const token = await issueToken(alice, [...PERMISSIONS]);
      const key = (await create(alice, { permissions: [] })).body as KeyDoc;
      for (const [method, path, body] of routes(alice.user.id, key.keyID)) {
        const res = await t.http()[method as 'get'](path).set(bearer(token)).send(body);
        expect([method, res.status]).toEqual([method, 403]);
      }
      expect((await whoami(key.token!)).status).toBe(200);
    });

    it('refuses another user’s session with 403', async () => {
      const key = (await create(alice, { permissions: [] })).body as KeyDoc;
      for (const [method, path, body] of routes(alice.user.id, key.keyID)) {
        const res = await bob.agent[method as 'get'](path).send(body);
        expect([method, res.status]).toEqual([method, 403]);
      }
      expect((await whoami(key.token!)).status).toBe(200);
    });

    it('refuses a guest with 401, also through `me`', async () => {
      for (const [method, path, body] of [...routes(alice.user.id, 1), ...routes('me', 1)]) {
        const res = await t.http()[method as 'get'](path).send(body);
        expect([method, path, res.status]).toEqual([method, path, 401]);
      }
    });

    it('is 404 for an unknown user', async () => {
      expect((await alice.agent.get(tokensOf('nobody_here'))).status).toBe(404);
    });
  });

  describe('the permission matrix (AccessGuard)', () => {
    let png: Buffer;
    beforeAll(async () => {
      png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#3366cc' } })
        .png()
        .toBuffer();
    });

    it('lets a token with customise_profile change the pfp, and refuses one without it', async () => {
      const dave = await signUp(t);
      const withPerm = await issueToken(dave, ['customise_profile']);
      const withoutPerm = await issueToken(dave, ['submit_score', 'customise_score', 'customise_session', 'delete_score', 'manage_targets']);

      const refused = await t.http().put(`/api/v1/users/${dave.user.id}/pfp`).set(bearer(withoutPerm)).attach('pfp', png, 'a.png');
      expect(refused.status).toBe(403);
      expect(refused.body.message).toMatch(/missing the following permissions.*customise_profile/);
      expect((await t.http().delete(`/api/v1/users/${dave.user.id}/pfp`).set(bearer(withoutPerm))).status).toBe(403);

      const put = await t.http().put(`/api/v1/users/${dave.user.id}/pfp`).set(bearer(withPerm)).attach('pfp', png, 'a.png');
      expect(put.status).toBe(200);
      expect(put.body.get).toMatch(new RegExp(`/api/v1/users/${dave.user.id}/pfp$`));
      const del = await t.http().delete(`/api/v1/users/${dave.user.id}/pfp`).set(bearer(withPerm));
      expect(del.status).toBe(200);
      // Past the guard, the route's own rule applies: nothing left to delete.
      expect((await t.http().delete(`/api/v1/users/${dave.user.id}/pfp`).set(bearer(withPerm))).status).toBe(404);
    });

    it('gives a session every permission', async () => {
      const erin = await signUp(t);
      expect((await erin.agent.put(`/api/v1/users/${erin.user.id}/pfp`).attach('pfp', png, 'a.png')).status).toBe(200);
      expect((await erin.agent.delete(`/api/v1/users/me/pfp`)).status).toBe(200);
    });

    it('checks ownership after the permission: another user’s token with the permission gets 403', async () => {
      const frank = await signUp(t);
      const bobsToken = await issueToken(bob, ['customise_profile']);
      const res = await t.http().put(`/api/v1/users/${frank.user.id}/pfp`).set(bearer(bobsToken)).attach('pfp', png, 'a.png');
      expect(res.status).toBe(403);
      expect(res.body.message).toMatch(/not authorised as this user/);
      // Still no picture of theirs: the default's redirect.
      expect((await t.http().get(`/api/v1/users/${frank.user.id}/pfp`)).status).toBe(302);
    });

    it('refuses a guest on a permission route with 401', async () => {
      expect((await t.http().delete(`/api/v1/users/${alice.user.id}/pfp`)).status).toBe(401);
    });

    it('bans a user (authLevel 0): their session and tokens get 403 everywhere, even on public routes', async () => {
      const mallory = await signUp(t);
      const token = await issueToken(mallory, ['customise_profile']);
      await setAuthLevel(t, mallory.user.id, 0);

      for (const res of [
        await t.http().get('/api/v1/status').set(bearer(token)),
        await t.http().delete(`/api/v1/users/${mallory.user.id}/pfp`).set(bearer(token)),
        await mallory.agent.get('/api/v1/status'),
        await mallory.agent.get(tokensOf(mallory.user.id)),
      ]) {
        expect(res.status).toBe(403);
        expect(res.body.message).toMatch(/banned/);
      }

      await setAuthLevel(t, mallory.user.id, 1);
      expect((await t.http().get('/api/v1/status').set(bearer(token))).status).toBe(200);
    });
  });
});
