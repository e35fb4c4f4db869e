import { afterAll, beforeAll, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { PERMISSIONS } from '../../src/common/permissions.js';
import { sha256Hex } from '../../src/common/crypto.js';
import { ClientsService } from '../../src/clients/clients.service.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { makeAdmin, removeApiClient } from '../support/db-fixtures.js';
import { storedApiClient } from '../support/stored.js';
import { bearer, issueToken, signUp, type SignedUpUser } from '../support/users.js';

const CLIENTS = '/api/v1/clients';

interface ClientDoc {
  clientID: string;
  clientSecret?: string;
  name: string;
  author: number;
  requestedPermissions: string[];
  requestPermissions?: string[];
  redirectUri: string | null;
  webhookUri: string | null;
  apiKeyFormat: string | null;
  apiKeyFilename: string | null;
}

const validClient = (overrides: Record<string, unknown> = {}) => ({
  name: 'My Score Hook',
  redirectUri: 'https://hook.example.com/callback',
  webhookUri: 'http://127.0.0.1:9000/webhook',
  apiKeyFormat: '{"url":"https://example.test","key":"%%SERVICE_KEY%%"}',
  apiKeyFilename: 'hook-config.json',
  permissions: ['submit_score', 'customise_score'],
  ...overrides,
});

async function createClient(u: SignedUpUser, overrides: Record<string, unknown> = {}): Promise<ClientDoc> {
  const res = await u.agent.post(`${CLIENTS}/create`).send(validClient(overrides));
  if (res.status !== 200) throw new Error(`client creation failed: ${res.status} ${JSON.stringify(res.body)}`);
  // The webhook secret is shown at creation only (webhooks.e2e-spec.ts covers it): the other answers are compared without it.
  const { webhookSecret: _webhookSecret, ...doc } = res.body as ClientDoc & { webhookSecret: string };
  return doc;
}

/** Issues an API key through the OAuth2 flow, the way a real client gets one. */
async function keyThroughOAuth(t: TestApp, u: SignedUpUser, client: ClientDoc, secret = client.clientSecret): Promise<string> {
  const code = await u.agent.post('/api/v1/oauth/create-code').send({});
  expect(code.status).toBe(200);
  const res = await t.http().post('/api/v1/oauth/token').send({
    client_id: client.clientID,
    client_secret: secret,
    redirect_uri: client.redirectUri,
    grant_type: 'authorization_code',
    code: code.body.code,
  });
  expect(res.status).toBe(200);
  return res.body.token as string;
}

describe('API clients (spec 4.3)', () => {
  let t: TestApp;
  let alice: SignedUpUser;
  let bob: SignedUpUser;

  beforeAll(async () => {
    t = await createTestApp();
    bob = await signUp(t);
  });
  // A fresh owner per test, so that no test runs into another's client cap.
  beforeEach(async () => {
    alice = await signUp(t);
  });
  afterAll(async () => {
    await t.close();
  });

  describe('POST /clients/create', () => {
    it('creates a client with a CI id and CS secret and returns the full document', async () => {
      const res = await alice.agent.post(`${CLIENTS}/create`).send(validClient());
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        clientID: expect.stringMatching(/^CI[0-9a-f]{40}$/),
        clientSecret: expect.stringMatching(/^CS[0-9a-f]{40}$/),
        webhookSecret: expect.stringMatching(/^WS[0-9a-f]{40}$/),
        name: 'My Score Hook',
        author: alice.user.id,
        requestedPermissions: ['submit_score', 'customise_score'],
        redirectUri: 'https://hook.example.com/callback',
        webhookUri: 'http://127.0.0.1:9000/webhook',
        apiKeyFormat: '{"url":"https://example.test","key":"%%SERVICE_KEY%%"}',
        apiKeyFilename: 'hook-config.json',
      });
    });

    it('defaults the optional fields to null', async () => {
      const res = await alice.agent.post(`${CLIENTS}/create`).send({ name: 'Bare', permissions: ['submit_score'] });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ redirectUri: null, webhookUri: null, apiKeyFormat: null, apiKeyFilename: null });
    });

    it('accepts names of exactly 3 and 80 characters and refuses 2 and 81', async () => {
      for (const name of ['abc', 'x'.repeat(80)]) {
        expect((await alice.agent.post(`${CLIENTS}/create`).send(validClient({ name }))).status).toBe(200);
      }
      for (const name of ['ab', 'x'.repeat(81)]) {
        const res = await alice.agent.post(`${CLIENTS}/create`).send(validClient({ name }));
        expect(res.status).toBe(400);
        expect(res.body.message).toMatch(/name/);
      }
      expect((await alice.agent.post(`${CLIENTS}/create`).send(validClient({ name: 12345 }))).status).toBe(400);
      expect((await alice.agent.post(`${CLIENTS}/create`).send(validClient({ name: undefined }))).status).toBe(400);
    });

    it.each([
      ['redirectUri', 'ftp://files.example.com/cb'],
      ['redirectUri', 'not a url'],
      ['redirectUri', 'javascript:alert(1)'],
      ['redirectUri', 'example.com/callback'],
      ['redirectUri', 42],
      ['webhookUri', 'ftp://files.example.com/hook'],
      ['webhookUri', 'http//broken'],
      ['webhookUri', ''],
    ])('refuses %s = %p with a 400 naming the field', async (field, value) => {
      const res = await alice.agent.post(`${CLIENTS}/create`).send(validClient({ [field]: value }));
      expect(res.status).toBe(400);
      expect(res.body.message).toContain(field);
    });

    it('accepts http and https URLs, including localhost with a port', async () => {
      const res = await alice.agent
        .post(`${CLIENTS}/create`)
        .send(validClient({ redirectUri: 'http://localhost:8080/cb?x=1', webhookUri: 'https://a.b.example/hook' }));
      expect(res.status).toBe(200);
      expect(res.body.redirectUri).toBe('http://localhost:8080/cb?x=1');
    });

    it('requires apiKeyFormat to contain %%SERVICE_KEY%%', async () => {
      const res = await alice.agent.post(`${CLIENTS}/create`).send(validClient({ apiKeyFormat: 'key=%%TACHI_KEY%%' }));
      expect(res.status).toBe(400);
      expect(res.body.message).toContain('%%SERVICE_KEY%%');
      expect((await alice.agent.post(`${CLIENTS}/create`).send(validClient({ apiKeyFormat: 7 }))).status).toBe(400);
    });

    it.each([
      [[], /at least one/],
      [['submit_score', 'fly'], /permission must be one of/],
      [['submit_score', 'submit_score'], /unique/],
      ['submit_score', /array/],
      [undefined, /permissions/],
    ])('refuses permissions = %p', async (permissions, message) => {
      const res = await alice.agent.post(`${CLIENTS}/create`).send(validClient({ permissions }));
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(message);
    });

    it('refuses unknown keys, including Tachi’s apiKeyTemplate', async () => {
      const res = await alice.agent.post(`${CLIENTS}/create`).send(validClient({ apiKeyTemplate: '%%SERVICE_KEY%%' }));
      expect(res.status).toBe(400);
      expect(res.body.message).toContain('apiKeyTemplate');
    });
  });

  describe('the per-user cap (OAUTH_CLIENT_CAP = 15)', () => {
    it('allows 15 clients and refuses the 16th with a 400 that explains it', async () => {
      const carol = await signUp(t);
      for (let i = 0; i < 15; i++) await createClient(carol, { name: `client ${i}` });
      const res = await carol.agent.post(`${CLIENTS}/create`).send(validClient());
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/too many API clients.*15/);
      expect((await carol.agent.get(CLIENTS)).body).toHaveLength(15);

      // Deleting one makes room again.
      const [first] = (await carol.agent.get(CLIENTS)).body as ClientDoc[];
      expect((await carol.agent.delete(`${CLIENTS}/${first.clientID}`)).status).toBe(200);
      expect((await carol.agent.post(`${CLIENTS}/create`).send(validClient())).status).toBe(200);
    });

    it('exempts administrators (authLevel 3)', async () => {
      const admin = await signUp(t);
      await makeAdmin(t, admin.user.id);
      for (let i = 0; i < 17; i++) await createClient(admin, { name: `admin client ${i}` });
      expect((await admin.agent.get(CLIENTS)).body).toHaveLength(17);
    });

    it('cannot be exceeded by concurrent requests', async () => {
      const dave = await signUp(t);
      for (let i = 0; i < 12; i++) await createClient(dave, { name: `client ${i}` });
      const results = await Promise.all(Array.from({ length: 8 }, (_, i) => dave.agent.post(`${CLIENTS}/create`).send(validClient({ name: `racer ${i}` }))));
      expect(results.map((r) => r.status).sort()).toEqual([200, 200, 200, 400, 400, 400, 400, 400]);
      expect((await dave.agent.get(CLIENTS)).body).toHaveLength(15);
    });
  });

  describe('GET /clients', () => {
    it('lists only the requester’s clients, with requestPermissions and author, never their secrets', async () => {
      const erin = await signUp(t);
      const a = await createClient(erin, { name: 'Erin one', permissions: ['manage_targets'] });
      const b = await createClient(erin, { name: 'Erin two' });
      await createClient(bob, { name: 'Not Erin’s' });

      const res = await erin.agent.get(CLIENTS);
      expect(res.status).toBe(200);
      const { clientSecret: secretA, ...shownA } = a;
      const { clientSecret: secretB, ...shownB } = b;
      expect(res.body).toEqual([
        { ...shownA, requestPermissions: ['manage_targets'] },
        { ...shownB, requestPermissions: ['submit_score', 'customise_score'] },
      ]);
      for (const item of res.body as ClientDoc[]) {
        expect(item.author).toBe(erin.user.id);
        expect(item).not.toHaveProperty('clientSecret');
      }
      expect(JSON.stringify(res.body)).not.toContain(secretA);
      expect(JSON.stringify(res.body)).not.toContain(secretB);
    });

    it('is an empty array for a user without clients', async () => {
      const fresh = await signUp(t);
      const res = await fresh.agent.get(CLIENTS);
      expect(res.status).toBe(200);
      expect(res.body).toEqual([]);
    });
  });

  describe('GET /clients/:clientID', () => {
    it('returns the client without its secret', async () => {
      const client = await createClient(alice);
      const res = await alice.agent.get(`${CLIENTS}/${client.clientID}`);
      expect(res.status).toBe(200);
      expect(res.body).not.toHaveProperty('clientSecret');
      const { clientSecret: _secret, ...rest } = client;
      expect(res.body).toEqual(rest);
      expect(JSON.stringify(res.body)).not.toContain(client.clientSecret);
    });

    it('shows another user’s client to any session (the consent screen reads it), still without the secret', async () => {
      const client = await createClient(alice);
      const res = await bob.agent.get(`${CLIENTS}/${client.clientID}`);
      expect(res.status).toBe(200);
      expect(res.body.clientID).toBe(client.clientID);
      expect(res.body).not.toHaveProperty('clientSecret');
    });

    it('is 404 for an unknown client', async () => {
      const res = await alice.agent.get(`${CLIENTS}/CI${'0'.repeat(40)}`);
      expect(res.status).toBe(404);
      expect(res.body.message).toMatch(/does not exist/);
    });
  });

  describe('PATCH /clients/:clientID', () => {
    it('changes only the keys given and unsets those given as null', async () => {
      const client = await createClient(alice);
      const res = await alice.agent.patch(`${CLIENTS}/${client.clientID}`).send({ name: 'Renamed hook', webhookUri: null, apiKeyFilename: null });
      expect(res.status).toBe(200);
      const { clientSecret: _secret, ...shown } = client;
      expect(res.body).toEqual({ ...shown, name: 'Renamed hook', webhookUri: null, apiKeyFilename: null });

      const again = await alice.agent
        .patch(`${CLIENTS}/${client.clientID}`)
        .send({ redirectUri: 'https://new.example.com/cb', apiKeyFormat: 'KEY=%%SERVICE_KEY%%' });
      expect(again.status).toBe(200);
      expect(again.body).toMatchObject({
        name: 'Renamed hook',
        redirectUri: 'https://new.example.com/cb',
        apiKeyFormat: 'KEY=%%SERVICE_KEY%%',
        webhookUri: null,
      });

      const read = await alice.agent.get(`${CLIENTS}/${client.clientID}`);
      expect(read.body).toMatchObject({ name: 'Renamed hook', redirectUri: 'https://new.example.com/cb', webhookUri: null, apiKeyFilename: null });
    });

    it('refuses a permissions key with a 400 that says permissions cannot change', async () => {
      const client = await createClient(alice);
      for (const permissions of [['delete_score'], null, []]) {
        const res = await alice.agent.patch(`${CLIENTS}/${client.clientID}`).send({ name: 'Sneaky', permissions });
        expect(res.status).toBe(400);
        expect(res.body.message).toMatch(/permissions cannot be changed/);
      }
      const read = await alice.agent.get(`${CLIENTS}/${client.clientID}`);
      expect(read.body).toMatchObject({ name: client.name, requestedPermissions: client.requestedPermissions });
    });

    it('refuses an empty body with a 400', async () => {
      const client = await createClient(alice);
      const res = await alice.agent.patch(`${CLIENTS}/${client.clientID}`).send({});
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/No changes/);
    });

    it.each([
      [{ name: 'ab' }, /name/],
      [{ name: 'x'.repeat(81) }, /name/],
      [{ name: null }, /name/],
      [{ redirectUri: 'ftp://x.example/cb' }, /redirectUri/],
      [{ webhookUri: 'nope' }, /webhookUri/],
      [{ apiKeyFormat: 'no placeholder' }, /%%SERVICE_KEY%%/],
      [{ clientSecret: 'CSmine' }, /clientSecret/],
    ])('validates %p', async (body, message) => {
      const client = await createClient(alice);
      const res = await alice.agent.patch(`${CLIENTS}/${client.clientID}`).send(body);
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(message);
    });

    it('is 403 for a user who does not own the client, and changes nothing', async () => {
      const client = await createClient(alice);
      const res = await bob.agent.patch(`${CLIENTS}/${client.clientID}`).send({ name: 'Hijacked' });
      expect(res.status).toBe(403);
      expect((await alice.agent.get(`${CLIENTS}/${client.clientID}`)).body.name).toBe(client.name);
    });

    it('is 404 for an unknown client', async () => {
      expect((await alice.agent.patch(`${CLIENTS}/CInope`).send({ name: 'Whatever' })).status).toBe(404);
    });
  });

  describe('client secrets at rest', () => {
    it('stores only the SHA-256 of the secret, shows it once, and /oauth/token still accepts it', async () => {
      const client = await createClient(alice);
      const row = (await storedApiClient(t, client.clientID))!;
      expect(JSON.stringify(row)).not.toContain(client.clientSecret);
      expect(row.clientSecretHash).toBe(sha256Hex(client.clientSecret!));
      expect(JSON.stringify((await alice.agent.get(CLIENTS)).body)).not.toContain(client.clientSecret);
      expect(JSON.stringify((await alice.agent.get(`${CLIENTS}/${client.clientID}`)).body)).not.toContain(client.clientSecret);
      expect((await keyThroughOAuth(t, alice, client)).length).toBeGreaterThan(0);
      // The stored hash itself is not a secret that works.
      const code = await alice.agent.post('/api/v1/oauth/create-code').send({});
      const withHash = await t.http().post('/api/v1/oauth/token').send({
        client_id: client.clientID,
        client_secret: row.clientSecretHash,
        redirect_uri: client.redirectUri,
        grant_type: 'authorization_code',
        code: code.body.code,
      });
      expect(withHash.status).toBe(401);
    });
  });

  describe('POST /clients/:clientID/reset-secret', () => {
    it('issues a new secret; keys issued earlier keep working and only the new secret is accepted', async () => {
      const client = await createClient(alice);
      const key = await keyThroughOAuth(t, alice, client);

      const res = await alice.agent.post(`${CLIENTS}/${client.clientID}/reset-secret`);
      expect(res.status).toBe(200);
      expect(res.body.clientSecret).toMatch(/^CS[0-9a-f]{40}$/);
      expect(res.body.clientSecret).not.toBe(client.clientSecret);
      expect(res.body).toMatchObject({ clientID: client.clientID, name: client.name });

      const status = await t.http().get('/api/v1/status').set(bearer(key));
      expect(status.status).toBe(200);
      expect(status.body.whoami).toBe(alice.user.id);

      const code = (await alice.agent.post('/api/v1/oauth/create-code').send({})).body.code as string;
      const exchange = (secret: string) =>
        t
          .http()
          .post('/api/v1/oauth/token')
          .send({ client_id: client.clientID, client_secret: secret, redirect_uri: client.redirectUri, grant_type: 'authorization_code', code });
      expect((await exchange(client.clientSecret!)).status).toBe(401);
      expect((await exchange(res.body.clientSecret as string)).status).toBe(200);
    });

    it('is 403 for a non-owner and 404 for an unknown client', async () => {
      const client = await createClient(alice);
      expect((await bob.agent.post(`${CLIENTS}/${client.clientID}/reset-secret`)).status).toBe(403);
      // The refused reset left the secret as it was.
      expect((await keyThroughOAuth(t, alice, client)).length).toBeGreaterThan(0);
      expect((await alice.agent.post(`${CLIENTS}/CInope/reset-secret`)).status).toBe(404);
    });
  });

  describe('DELETE /clients/:clientID', () => {
    it('deletes the client and revokes every key it issued, but no other key', async () => {
      const client = await createClient(alice);
      const fromOAuth = await keyThroughOAuth(t, alice, client);
      const fileFlow = await alice.agent.post(`/api/v1/users/${alice.user.id}/api-tokens/create`).send({ clientID: client.clientID });
      expect(fileFlow.status).toBe(200);
      const bobsKey = await keyThroughOAuth(t, bob, client);
      const unrelated = await issueToken(alice, ['submit_score']);

      for (const token of [fromOAuth, fileFlow.body.token as string, bobsKey]) {
        expect((await t.http().get('/api/v1/status').set(bearer(token))).status).toBe(200);
      }

      const res = await alice.agent.delete(`${CLIENTS}/${client.clientID}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({});

      for (const token of [fromOAuth, fileFlow.body.token as string, bobsKey]) {
        expect((await t.http().get('/api/v1/status').set(bearer(token))).status).toBe(401);
      }
      expect((await t.http().get('/api/v1/status').set(bearer(unrelated))).status).toBe(200);
      expect((await alice.agent.get(`${CLIENTS}/${client.clientID}`)).status).toBe(404);
      expect((await alice.agent.delete(`${CLIENTS}/${client.clientID}`)).status).toBe(404);
    });

    it('is 403 for a non-owner, and the client survives', async () => {
      const client = await createClient(alice);
      expect((await bob.agent.delete(`${CLIENTS}/${client.clientID}`)).status).toBe(403);
      expect((await alice.agent.get(`${CLIENTS}/${client.clientID}`)).status).toBe(200);
    });
  });

  describe('self-key only', () => {
    const routes = (clientID: string): [string, string, object?][] => [
      ['get', CLIENTS],
      ['post', `${CLIENTS}/create`, validClient()],
      ['get', `${CLIENTS}/${clientID}`],
      ['patch', `${CLIENTS}/${clientID}`, { name: 'Via token' }],
      ['post', `${CLIENTS}/${clientID}/reset-secret`],
      ['delete', `${CLIENTS}/${clientID}`],
    ];

    it('refuses a bearer token with 403, even one holding every permission', async () => {
      const client = await createClient(alice);
      const aliceToken = await issueToken(alice, [...PERMISSIONS]);
      for (const [method, path, body] of routes(client.clientID)) {
        const res = await t.http()[method as 'get'](path).set(bearer(aliceToken)).send(body);
        expect([method, path, res.status]).toEqual([method, path, 403]);
        expect(res.body.message).toMatch(/API keys cannot use it/);
      }
      expect((await alice.agent.get(`${CLIENTS}/${client.clientID}`)).body.name).toBe(client.name);
    });

    it('refuses a guest with 401', async () => {
      const client = await createClient(alice);
      for (const [method, path, body] of routes(client.clientID)) {
        const res = await t.http()[method as 'get'](path).send(body);
        expect([method, path, res.status]).toEqual([method, path, 401]);
      }
    });
  });

  describe('a client deleted while a request is using it', () => {
    /** The next ClientsService.find reads the client, then the client is deleted, as by a concurrent DELETE. */
    function deleteRightAfterNextFind() {
      const clients = t.app.get(ClientsService, { strict: false });
      const find = clients.find.bind(clients);
      return jest.spyOn(clients, 'find').mockImplementationOnce(async (clientID: string) => {
        const row = await find(clientID);
        await removeApiClient(t, clientID);
        return row;
      });
    }

    it.each([
      ['PATCH /clients/:clientID', (id: string) => alice.agent.patch(`${CLIENTS}/${id}`).send({ name: 'Renamed' })],
      ['POST /clients/:clientID/reset-secret', (id: string) => alice.agent.post(`${CLIENTS}/${id}/reset-secret`)],
      [
        'POST /users/:userID/api-tokens/create with clientID',
        (id: string) => alice.agent.post(`/api/v1/users/${alice.user.id}/api-tokens/create`).send({ clientID: id }),
      ],
      ['POST /oauth/create-code with clientID', (id: string) => alice.agent.post('/api/v1/oauth/create-code').send({ clientID: id })],
    ])('%s is 404, not 500', async (_name, send) => {
      const client = await createClient(alice);
      const spy = deleteRightAfterNextFind();
      try {
        const res = await send(client.clientID);
        expect(res.status).toBe(404);
        expect(res.body.message).toBe(`The client ${client.clientID} does not exist.`);
        expect(spy).toHaveBeenCalled();
      } finally {
        spy.mockRestore();
      }
    });

    it('POST /oauth/token is 404, not 500, and issues no key', async () => {
      const client = await createClient(alice);
      const code = await alice.agent.post('/api/v1/oauth/create-code').send({});
      expect(code.status).toBe(200);
      const spy = deleteRightAfterNextFind();
      try {
        const res = await t.http().post('/api/v1/oauth/token').send({
          client_id: client.clientID,
          client_secret: client.clientSecret,
          redirect_uri: client.redirectUri,
          grant_type: 'authorization_code',
          code: code.body.code,
        });
        expect(res.status).toBe(404);
      } finally {
        spy.mockRestore();
      }
      const keys = await alice.agent.get(`/api/v1/users/${alice.user.id}/api-tokens`);
      expect(keys.body.filter((k: { fromAPIClient: string | null }) => k.fromAPIClient === client.clientID)).toEqual([]);
    });
  });
});
