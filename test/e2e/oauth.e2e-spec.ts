import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { PERMISSIONS } from '../../src/common/permissions.js';
import { sha256Hex } from '../../src/common/crypto.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { expireOauthCode } from '../support/db-fixtures.js';
import { storedApiKey, storedOauthCodes } from '../support/stored.js';
import { bearer, issueToken, signUp, type SignedUpUser } from '../support/users.js';

const TOKEN = '/api/v1/oauth/token';
const REDIRECT = 'https://app.example.com/oauth/callback';

interface Client {
  clientID: string;
  clientSecret: string;
  name: string;
  redirectUri: string | null;
}

describe('OAuth2 (spec 4.2)', () => {
  let t: TestApp;
  let owner: SignedUpUser;
  let user: SignedUpUser;
  let client: Client;
  let otherClient: Client;

  async function createClient(body: Record<string, unknown>): Promise<Client> {
    const res = await owner.agent.post('/api/v1/clients/create').send(body);
    expect(res.status).toBe(200);
    return res.body as Client;
  }

  async function newCode(u = user, body: object = {}): Promise<string> {
    const res = await u.agent.post('/api/v1/oauth/create-code').send(body);
    expect(res.status).toBe(200);
    return res.body.code as string;
  }

  const tokenRequest = (c: Client, code: string, overrides: Record<string, unknown> = {}) => ({
    client_id: c.clientID,
    client_secret: c.clientSecret,
    redirect_uri: c.redirectUri,
    grant_type: 'authorization_code',
    code,
    ...overrides,
  });

  beforeAll(async () => {
    t = await createTestApp();
    owner = await signUp(t);
    user = await signUp(t);
    client = await createClient({ name: 'Score Uploader', redirectUri: REDIRECT, permissions: ['submit_score', 'customise_score'] });
    otherClient = await createClient({ name: 'Another App', redirectUri: REDIRECT, permissions: ['delete_score'] });
  });
  afterAll(async () => {
    await t.close();
  });

  describe('POST /oauth/create-code', () => {
    it('answers a session with {code, userID, createdOn}', async () => {
      const before = Date.now();
      const res = await user.agent.post('/api/v1/oauth/create-code');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ code: expect.stringMatching(/^[0-9a-f]{40}$/), userID: user.user.id, createdOn: expect.any(Number) });
      expect(res.body.createdOn).toBeGreaterThanOrEqual(before);
      expect(res.body.createdOn).toBeLessThanOrEqual(Date.now());
    });

    it('is served at the spec’s alias /create-code too', async () => {
      const res = await user.agent.post('/api/v1/create-code').send({});
      expect(res.status).toBe(200);
      expect(res.body.userID).toBe(user.user.id);
      const exchange = await t
        .http()
        .post(TOKEN)
        .send(tokenRequest(client, res.body.code as string));
      expect(exchange.status).toBe(200);
      expect(exchange.body.userID).toBe(user.user.id);
    });

    it('stores only a hash of the code, expiring 30 minutes after creation', async () => {
      const res = await user.agent.post('/api/v1/oauth/create-code');
      const [row] = await storedOauthCodes(t, { codeHash: sha256Hex(res.body.code as string) });
      expect(row.userID).toBe(user.user.id);
      expect(row.createdOn).toBe(res.body.createdOn);
      expect(row.expiresAt - row.createdOn).toBe(30 * 60 * 1000);
      expect(JSON.stringify(await storedOauthCodes(t))).not.toContain(res.body.code);
    });

    it('refuses a bearer token with 403 and a guest with 401, on both paths', async () => {
      const token = await issueToken(user, [...PERMISSIONS]);
      for (const path of ['/api/v1/oauth/create-code', '/api/v1/create-code']) {
        const viaToken = await t.http().post(path).set(bearer(token)).send({});
        expect(viaToken.status).toBe(403);
        expect(viaToken.body.message).toMatch(/session/);
        expect((await t.http().post(path).send({})).status).toBe(401);
      }
    });

    it('is 404 when binding to an unknown client, and 400 for a malformed clientID or unknown keys', async () => {
      const unknown = await user.agent.post('/api/v1/oauth/create-code').send({ clientID: `CI${'0'.repeat(40)}` });
      expect(unknown.status).toBe(404);
      expect((await user.agent.post('/api/v1/oauth/create-code').send({ clientID: 5 })).status).toBe(400);
      expect((await user.agent.post('/api/v1/oauth/create-code').send({ clientID: null })).status).toBe(400);
      expect((await user.agent.post('/api/v1/oauth/create-code').send({ scope: 'all' })).status).toBe(400);
    });

    it('deletes every expired code, anyone’s, when it issues one, and keeps the unexpired ones', async () => {
      const expired = await newCode(owner);
      const live = await newCode(owner);
      await expireOauthCode(t, sha256Hex(expired));
      await newCode(user);
      const hashes = (await storedOauthCodes(t)).map((r) => r.codeHash);
      expect(hashes).not.toContain(sha256Hex(expired));
      expect(hashes).toContain(sha256Hex(live));
      expect((await t.http().post(TOKEN).send(tokenRequest(client, live))).status).toBe(200);
    });
  });

  describe('POST /oauth/token', () => {
    it('exchanges a code for an APIKeyDocument carrying exactly the client’s permissions', async () => {
      const code = await newCode();
      const res = await t.http().post(TOKEN).send(tokenRequest(client, code));
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        userID: user.user.id,
        token: expect.stringMatching(/^[0-9a-f]{40}$/),
        identifier: 'Score Uploader Token',
        fromAPIClient: client.clientID,
        permissions: {
          submit_score: true,
          customise_score: true,
          customise_profile: false,
          customise_session: false,
          delete_score: false,
          manage_targets: false,
          manage_rivals: false,
        },
      });
      expect(Object.keys(res.body.permissions as object).sort()).toEqual([...PERMISSIONS].sort());

      const status = await t
        .http()
        .get('/api/v1/status')
        .set(bearer(res.body.token as string));
      expect(status.status).toBe(200);
      expect(status.body.whoami).toBe(user.user.id);
      expect([...status.body.permissions].sort()).toEqual(['customise_score', 'submit_score']);

      // Only a hash of the token is stored.
      const row = await storedApiKey(t, sha256Hex(res.body.token as string));
      expect(row).toMatchObject({ userID: user.user.id, fromAPIClient: client.clientID });
    });

    it('accepts application/x-www-form-urlencoded, as RFC 6749 clients send it', async () => {
      const code = await newCode();
      const form = new URLSearchParams(tokenRequest(client, code) as Record<string, string>).toString();
      const res = await t.http().post(TOKEN).type('form').send(form);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ userID: user.user.id, fromAPIClient: client.clientID });
      expect(
        (
          await t
            .http()
            .get('/api/v1/status')
            .set(bearer(res.body.token as string))
        ).body.whoami,
      ).toBe(user.user.id);
    });

    it('mints a new key on every exchange', async () => {
      const first = await t
        .http()
        .post(TOKEN)
        .send(tokenRequest(client, await newCode()));
      const second = await t
        .http()
        .post(TOKEN)
        .send(tokenRequest(client, await newCode()));
      expect(first.status).toBe(200);
      expect(second.status).toBe(200);
      expect(first.body.token).not.toBe(second.body.token);
      expect(first.body.keyID).not.toBe(second.body.keyID);
    });

    it('does not need (and ignores) a user session', async () => {
      const code = await newCode();
      const res = await owner.agent.post(TOKEN).send(tokenRequest(client, code));
      expect(res.status).toBe(200);
      expect(res.body.userID).toBe(user.user.id);
    });

    it('is 404 for an unknown client', async () => {
      const res = await t
        .http()
        .post(TOKEN)
        .send(tokenRequest(client, await newCode(), { client_id: `CI${'f'.repeat(40)}` }));
      expect(res.status).toBe(404);
      expect(res.body.message).toMatch(/does not exist/);
    });

    it('is 401 for a wrong secret, and that failure does not consume the code', async () => {
      const code = await newCode();
      const wrong = await t
        .http()
        .post(TOKEN)
        .send(tokenRequest(client, code, { client_secret: `CS${'0'.repeat(40)}` }));
      expect(wrong.status).toBe(401);
      expect(wrong.body.message).toMatch(/secret/);
      expect(
        (
          await t
            .http()
            .post(TOKEN)
            .send(tokenRequest(client, code, { client_secret: 'short' }))
        ).status,
      ).toBe(401);
      expect((await t.http().post(TOKEN).send(tokenRequest(client, code))).status).toBe(200);
    });

    it('requires redirect_uri to match exactly, without consuming the code', async () => {
      const code = await newCode();
      for (const redirect_uri of [`${REDIRECT}/`, REDIRECT.toUpperCase(), `${REDIRECT}?x=1`, 'https://evil.example.com/oauth/callback', '']) {
        const res = await t
          .http()
          .post(TOKEN)
          .send(tokenRequest(client, code, { redirect_uri }));
        expect([redirect_uri, res.status]).toEqual([redirect_uri, 400]);
        expect(res.body.message).toMatch(/redirect_uri/);
      }
      expect((await t.http().post(TOKEN).send(tokenRequest(client, code))).status).toBe(200);
    });

    it('is 400 for a client without a redirectUri', async () => {
      const bare = await createClient({ name: 'No Redirect', permissions: ['submit_score'] });
      const res = await t
        .http()
        .post(TOKEN)
        .send(tokenRequest(bare, await newCode(), { redirect_uri: REDIRECT }));
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/no redirectUri/);
    });

    it.each(['client_credentials', 'password', 'refresh_token', '', 5])('is 400 for grant_type %p', async (grant_type) => {
      const res = await t
        .http()
        .post(TOKEN)
        .send(tokenRequest(client, await newCode(), { grant_type }));
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/grant_type/);
    });

    it.each(['client_id', 'client_secret', 'redirect_uri', 'grant_type', 'code'])('is 400 without %s, naming it', async (field) => {
      const body: Record<string, unknown> = tokenRequest(client, await newCode());
      delete body[field];
      const res = await t.http().post(TOKEN).send(body);
      expect(res.status).toBe(400);
      expect(res.body.message).toContain(field);
    });

    it('is 400 for an empty body, non-string fields and unknown keys', async () => {
      expect((await t.http().post(TOKEN).send({})).status).toBe(400);
      expect(
        (
          await t
            .http()
            .post(TOKEN)
            .send(tokenRequest(client, await newCode(), { code: 12345 }))
        ).status,
      ).toBe(400);
      const extra = await t
        .http()
        .post(TOKEN)
        .send(tokenRequest(client, await newCode(), { scope: 'everything' }));
      expect(extra.status).toBe(400);
      expect(extra.body.message).toContain('scope');
    });

    it('is 400 for an unknown code', async () => {
      const res = await t
        .http()
        .post(TOKEN)
        .send(tokenRequest(client, 'f'.repeat(40)));
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/invalid or has already been used/);
    });

    it('accepts a code once only', async () => {
      const code = await newCode();
      expect((await t.http().post(TOKEN).send(tokenRequest(client, code))).status).toBe(200);
      const again = await t.http().post(TOKEN).send(tokenRequest(client, code));
      expect(again.status).toBe(400);
      expect(again.body.message).toMatch(/already been used/);
    });

    it('lets only one of three concurrent exchanges of the same code succeed', async () => {
      const code = await newCode();
      const results = await Promise.all([0, 1, 2].map(() => t.http().post(TOKEN).send(tokenRequest(client, code))));
      expect(results.map((r) => r.status).sort()).toEqual([200, 400, 400]);
    });

    it('refuses a code older than 30 minutes', async () => {
      const code = await newCode();
      await expireOauthCode(t, sha256Hex(code));
      const res = await t.http().post(TOKEN).send(tokenRequest(client, code));
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/expired/);
    });

    it('lets a code bound to a client be redeemed by that client only', async () => {
      const code = await newCode(user, { clientID: client.clientID });
      const stolen = await t.http().post(TOKEN).send(tokenRequest(otherClient, code));
      expect(stolen.status).toBe(400);
      expect(stolen.body.message).toMatch(/different client/);
      const res = await t.http().post(TOKEN).send(tokenRequest(client, code));
      expect(res.status).toBe(200);
      expect(res.body.fromAPIClient).toBe(client.clientID);
    });

    it('lets an unbound code be redeemed by any client, with that client’s permissions', async () => {
      const res = await t
        .http()
        .post(TOKEN)
        .send(tokenRequest(otherClient, await newCode()));
      expect(res.status).toBe(200);
      expect(res.body.permissions).toMatchObject({ delete_score: true, submit_score: false });
      expect(res.body.identifier).toBe('Another App Token');
    });

    it('lists the issued key among the user’s API tokens, without the token', async () => {
      const res = await t
        .http()
        .post(TOKEN)
        .send(tokenRequest(client, await newCode()));
      const list = await user.agent.get(`/api/v1/users/${user.user.id}/api-tokens`);
      const listed = (list.body as { keyID: number }[]).find((k) => k.keyID === res.body.keyID);
      expect(listed).toMatchObject({ fromAPIClient: client.clientID, identifier: 'Score Uploader Token' });
      expect(listed).not.toHaveProperty('token');
    });
  });
});
