import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ClientsService } from '../../src/clients/clients.service.js';
import { sha256Hex } from '../../src/common/crypto.js';
import { PERMISSIONS } from '../../src/common/permissions.js';
import { UsersRepository } from '../../src/repositories/users.repository.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { formFields, locationQuery, pkcePair } from '../support/oauth.js';
import { storedOauthCodes } from '../support/stored.js';
import { bearer, signUp, type SignedUpUser } from '../support/users.js';

const AUTHORIZE = '/api/v1/oauth/authorize';
const TOKEN = '/api/v1/oauth/token';
const REDIRECT = 'https://app.example.com/oauth/callback';

interface Client {
  clientID: string;
  clientSecret: string;
  name: string;
  redirectUri: string;
}

type Agent = ReturnType<TestApp['agent']>;

describe('OAuth2 authorization page (GET /oauth/authorize)', () => {
  let t: TestApp;
  let owner: SignedUpUser;
  let player: SignedUpUser;
  let client: Client;
  let otherClient: Client;

  const authorizeUrl = (query: Record<string, string>) => `${AUTHORIZE}?${new URLSearchParams(query).toString()}`;
  const baseQuery = (c: Client = client, extra: Record<string, string> = {}) => ({
    client_id: c.clientID,
    redirect_uri: c.redirectUri,
    state: 'st-123',
    ...extra,
  });

  /** Opens the page with the agent and posts its login form. */
  async function logIn(agent: Agent, query: Record<string, string>, u: SignedUpUser): Promise<string> {
    const page = await agent.get(authorizeUrl(query));
    expect(page.status).toBe(200);
    const res = await agent
      .post(`${AUTHORIZE}/login`)
      .type('form')
      .send({ ...formFields(page.text, '/login'), username: u.username, password: u.password });
    expect(res.status).toBe(303);
    const consent = await agent.get(res.headers.location as string);
    expect(consent.status).toBe(200);
    return consent.text;
  }

  async function approve(agent: Agent, page: string): Promise<Record<string, string>> {
    const res = await agent
      .post(`${AUTHORIZE}/decision`)
      .type('form')
      .send({ ...formFields(page, '/decision'), decision: 'approve' });
    expect(res.status).toBe(303);
    const { url, query } = locationQuery(res.headers.location as string);
    expect(`${url.origin}${url.pathname}`).toBe(REDIRECT);
    return query;
  }

  const exchange = (c: Client, code: string, extra: Record<string, string> = {}) =>
    t
      .http()
      .post(TOKEN)
      .type('form')
      .send({ client_id: c.clientID, client_secret: c.clientSecret, redirect_uri: c.redirectUri, grant_type: 'authorization_code', code, ...extra });

  beforeAll(async () => {
    t = await createTestApp();
    owner = await signUp(t);
    player = await signUp(t);
    const create = async (name: string, permissions: string[]) =>
      (await owner.agent.post('/api/v1/clients/create').send({ name, redirectUri: REDIRECT, permissions })).body as Client;
    client = await create('Score <Uploader>', ['submit_score', 'customise_score']);
    otherClient = await create('Another App', ['delete_score']);
  });
  afterAll(async () => {
    await t.close();
  });

  describe('the page', () => {
    it('shows a guest a login form with labels, the client’s name (escaped), owner and permissions, without script', async () => {
      const res = await t.http().get(authorizeUrl(baseQuery()));
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['content-security-policy']).toMatch(/default-src 'none'/);
      expect(res.headers['content-security-policy']).toMatch(/frame-ancestors 'none'/);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.text).toContain('Score &#60;Uploader&#62;');
      expect(res.text).not.toContain('<Uploader>');
      expect(res.text).toContain(owner.username);
      expect(res.text).toContain('(<code>submit_score</code>)');
      expect(res.text).toContain('<label for="username">');
      expect(res.text).toContain('<label for="password">');
      expect(res.text).not.toMatch(/<script/i);
      expect(res.text).toContain('<html lang="en">');
      expect(String(res.headers['set-cookie'])).toMatch(/^st_oauth_csrf=[0-9a-f]{32}; Path=\/api\/v1\/oauth\/authorize; HttpOnly; SameSite=Lax/);
    });

    it('escapes a hostile state in the page', async () => {
      const res = await t.http().get(authorizeUrl(baseQuery(client, { state: '"><script>alert(1)</script>' })));
      expect(res.status).toBe(200);
      expect(res.text).not.toContain('<script>');
      expect(formFields(res.text, '/login').state).toBe('"><script>alert(1)</script>');
    });

    it('shows an error page, never a redirect, for an unknown client, a missing client_id or a redirect_uri that is not the registered one', async () => {
      const cases = [
        { client_id: `CI${'0'.repeat(40)}`, redirect_uri: REDIRECT, state: 's' },
        { redirect_uri: REDIRECT, state: 's' },
        baseQuery(client, { redirect_uri: 'https://evil.example.com/cb' }),
        baseQuery(client, { redirect_uri: `${REDIRECT}/` }),
        baseQuery(client, { redirect_uri: `${REDIRECT}?x=1` }),
        baseQuery(client, { redirect_uri: REDIRECT.toUpperCase() }),
        { ...baseQuery(client), redirect_uri: '' },
      ];
      for (const query of cases) {
        const res = await t.http().get(authorizeUrl(query as Record<string, string>));
        expect(res.status).toBe(400);
        expect(res.headers.location).toBeUndefined();
        expect(res.headers['content-type']).toMatch(/^text\/html/);
        expect(res.text).toContain('role="alert"');
      }
      // Repeated parameters are refused too.
      const repeated = await t.http().get(`${authorizeUrl(baseQuery())}&redirect_uri=${encodeURIComponent('https://evil.example.com/cb')}`);
      expect(repeated.status).toBe(400);
      expect(repeated.headers.location).toBeUndefined();
    });

    it('sends invalid_request (with state) to the verified redirect_uri for a bad PKCE or state parameter', async () => {
      const cases: [Record<string, string>, string][] = [
        [baseQuery(client, { code_challenge: pkcePair().challenge, code_challenge_method: 'plain' }), 'invalid_request'],
        [baseQuery(client, { code_challenge: pkcePair().challenge }), 'invalid_request'],
        [baseQuery(client, { code_challenge: 'short', code_challenge_method: 'S256' }), 'invalid_request'],
        [baseQuery(client, { code_challenge_method: 'S256' }), 'invalid_request'],
        [baseQuery(client, { response_type: 'token' }), 'unsupported_response_type'],
        [baseQuery(client, { state: 'x'.repeat(501) }), 'invalid_request'],
      ];
      for (const [query, error] of cases) {
        const res = await t.http().get(authorizeUrl(query));
        expect(res.status).toBe(303);
        const { url, query: sent } = locationQuery(res.headers.location as string);
        expect(`${url.origin}${url.pathname}`).toBe(REDIRECT);
        expect(sent.error).toBe(error);
        if (query.state.length <= 500) expect(sent.state).toBe(query.state);
        expect(sent.code).toBeUndefined();
      }
      const noState = await t.http().get(authorizeUrl({ client_id: client.clientID, redirect_uri: REDIRECT }));
      expect(locationQuery(noState.headers.location as string).query).toMatchObject({ error: 'invalid_request' });
    });
  });

  describe('login, approve and exchange', () => {
    it('runs the whole flow with PKCE: login, consent naming the account, code and state back, token that works', async () => {
      const agent = t.agent();
      const { verifier, challenge } = pkcePair();
      const consent = await logIn(agent, baseQuery(client, { code_challenge: challenge, code_challenge_method: 'S256' }), player);
      expect(consent).toContain(`You are logged in as <strong>${player.username}</strong>`);
      expect(consent).toContain('value="approve"');
      expect(consent).toContain('value="deny"');
      const sent = await approve(agent, consent);
      expect(sent.state).toBe('st-123');
      expect(sent.code).toMatch(/^[0-9a-f]{40}$/);

      const [row] = await storedOauthCodes(t, { codeHash: sha256Hex(sent.code) });
      expect(row).toMatchObject({ clientID: client.clientID, userID: player.user.id, codeChallenge: challenge });

      const token = await exchange(client, sent.code, { code_verifier: verifier });
      expect(token.status).toBe(200);
      expect(token.body).toMatchObject({ userID: player.user.id, fromAPIClient: client.clientID });
      const status = await t
        .http()
        .get('/api/v1/status')
        .set(bearer(token.body.token as string));
      expect(status.body).toMatchObject({ whoami: player.user.id, permissions: ['submit_score', 'customise_score'] });
    });

    it('refuses a missing or wrong verifier without consuming the code, then a replayed code, revoking its key', async () => {
      const agent = t.agent();
      const { verifier, challenge } = pkcePair();
      const sent = await approve(agent, await logIn(agent, baseQuery(client, { code_challenge: challenge, code_challenge_method: 'S256' }), player));
      const missing = await exchange(client, sent.code);
      expect(missing.status).toBe(400);
      expect(missing.body.message).toMatch(/code_verifier/);
      const wrong = await exchange(client, sent.code, { code_verifier: pkcePair().verifier });
      expect(wrong.status).toBe(400);
      expect(wrong.body.message).toMatch(/does not match/);
      expect((await exchange(client, sent.code, { code_verifier: 'too-short' })).status).toBe(400);
      const issued = await exchange(client, sent.code, { code_verifier: verifier });
      expect(issued.status).toBe(200);
      const status = () =>
        t
          .http()
          .get('/api/v1/status')
          .set(bearer(issued.body.token as string));
      expect((await status()).body.whoami).toBe(player.user.id);
      // Sent again, the code is refused and the key it gave is revoked (RFC 6749 10.5).
      const replay = await exchange(client, sent.code, { code_verifier: verifier });
      expect(replay.status).toBe(400);
      expect(replay.body.message).toMatch(/already been used; the API key it was exchanged for has been revoked/);
      expect((await status()).status).toBe(401);
      const again = await exchange(client, sent.code, { code_verifier: verifier });
      expect(again.status).toBe(400);
      expect(again.body.message).toMatch(/invalid or has already been used/);
    });

    it('binds the code to the client: another client cannot redeem it', async () => {
      const agent = t.agent();
      const sent = await approve(agent, await logIn(agent, baseQuery(client), player));
      const other = await exchange(otherClient, sent.code);
      expect(other.status).toBe(400);
      expect(other.body.message).toMatch(/different client/);
      expect((await exchange(client, sent.code)).status).toBe(200);
    });

    it('refuses a code_verifier for a code authorized without a challenge (PKCE downgrade)', async () => {
      const agent = t.agent();
      const sent = await approve(agent, await logIn(agent, baseQuery(client), player));
      const res = await exchange(client, sent.code, { code_verifier: pkcePair().verifier });
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/without a PKCE code_challenge/);
      expect((await exchange(client, sent.code)).status).toBe(200);
    });

    it('skips the login form for a player already logged in', async () => {
      const page = await player.agent.get(authorizeUrl(baseQuery()));
      expect(page.status).toBe(200);
      expect(page.text).toContain(`You are logged in as <strong>${player.username}</strong>`);
      expect(page.text).not.toContain('name="password"');
    });

    it('shows the login form again with an error for a wrong password (401), keeping the username', async () => {
      const agent = t.agent();
      const page = await agent.get(authorizeUrl(baseQuery()));
      const res = await agent
        .post(`${AUTHORIZE}/login`)
        .type('form')
        .send({ ...formFields(page.text, '/login'), username: player.username, password: 'wrong-password' });
      expect(res.status).toBe(401);
      expect(res.text).toContain('Invalid username or password.');
      expect(res.text).toContain(`value="${player.username}"`);
      expect(res.text).toContain('aria-describedby="login-error"');
      expect(String(res.headers['set-cookie'] ?? '')).not.toContain('score_tracker_session=');
    });
  });

  describe('deny, switch account and CSRF', () => {
    it('sends access_denied with the state on Deny, and issues no code', async () => {
      const agent = t.agent();
      const consent = await logIn(agent, baseQuery(client, { state: 'deny-me' }), player);
      const before = (await storedOauthCodes(t)).length;
      const res = await agent
        .post(`${AUTHORIZE}/decision`)
        .type('form')
        .send({ ...formFields(consent, '/decision'), decision: 'deny' });
      expect(res.status).toBe(303);
      const { query } = locationQuery(res.headers.location as string);
      expect(query).toMatchObject({ error: 'access_denied', state: 'deny-me' });
      expect(query.code).toBeUndefined();
      expect((await storedOauthCodes(t)).length).toBe(before);
    });

    it('lets the player switch account: the session ends and the next approval is the other account’s', async () => {
      const agent = t.agent();
      const consent = await logIn(agent, baseQuery(), player);
      const switched = await agent.post(`${AUTHORIZE}/switch-account`).type('form').send(formFields(consent, '/switch-account'));
      expect(switched.status).toBe(200);
      expect(switched.text).toContain('name="password"');
      expect((await agent.get('/api/v1/status')).body.whoami).toBeNull();
      const other = await logIn(agent, baseQuery(), owner);
      expect(other).toContain(`You are logged in as <strong>${owner.username}</strong>`);
      const sent = await approve(agent, other);
      expect((await exchange(client, sent.code)).body.userID).toBe(owner.user.id);
    });

    it('refuses (403) a decision whose state or challenge was changed, one without the CSRF cookie, and one from another site', async () => {
      const agent = t.agent();
      const consent = await logIn(agent, baseQuery(), player);
      const fields = formFields(consent, '/decision');
      const post = (body: Record<string, string>, a: Agent = agent) =>
        a
          .post(`${AUTHORIZE}/decision`)
          .type('form')
          .send({ ...body, decision: 'approve' });

      const tampered = await post({ ...fields, state: 'attacker-state' });
      expect(tampered.status).toBe(403);
      expect(tampered.headers.location).toBeUndefined();
      expect((await post({ ...fields, code_challenge: pkcePair().challenge, code_challenge_method: 'S256' })).status).toBe(403);
      expect((await post({ ...fields, csrf: 'x' })).status).toBe(403);
      const { csrf: _csrf, ...withoutToken } = fields;
      expect((await post(withoutToken)).status).toBe(403);
      // The player's session cookie without the page's CSRF cookie (a cross-site form post).
      expect((await post(fields, player.agent)).status).toBe(403);
      const crossSite = await agent
        .post(`${AUTHORIZE}/decision`)
        .set('Sec-Fetch-Site', 'cross-site')
        .type('form')
        .send({ ...fields, decision: 'approve' });
      expect(crossSite.status).toBe(403);
      // A redirect_uri changed in the form is an error page, not a redirect.
      const redirected = await post({ ...fields, redirect_uri: 'https://evil.example.com/cb' });
      expect(redirected.status).toBe(400);
      expect(redirected.headers.location).toBeUndefined();
      // The untouched form still works.
      expect((await post(fields)).status).toBe(303);
    });

    it('asks a guest to log in again (401) when the session ended before the decision', async () => {
      const agent = t.agent();
      const page = await agent.get(authorizeUrl(baseQuery()));
      const res = await agent
        .post(`${AUTHORIZE}/decision`)
        .type('form')
        .send({ ...formFields(page.text, '/decision'), decision: 'approve' });
      expect(res.status).toBe(401);
      expect(res.text).toContain('name="password"');
    });

    it('is 400 (an HTML page) for a decision that is neither approve nor deny', async () => {
      const agent = t.agent();
      const consent = await logIn(agent, baseQuery(), player);
      const res = await agent
        .post(`${AUTHORIZE}/decision`)
        .type('form')
        .send({ ...formFields(consent, '/decision'), decision: 'maybe' });
      expect(res.status).toBe(400);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
    });

    it('finds its CSRF cookie among others; a malformed one is replaced by the page and refuses the form (403, not 500)', async () => {
      const page = await t.http().get(authorizeUrl(baseQuery()));
      const nonce = /^st_oauth_csrf=([0-9a-f]{32});/.exec(String(page.headers['set-cookie']))![1];
      const fields = formFields(page.text, '/login');
      // The page's own nonce between other cookies (extra spaces, another one malformed) is kept: no new cookie, the same token.
      const again = await t.http().get(authorizeUrl(baseQuery())).set('Cookie', `a=1;  st_oauth_csrf=${nonce} ; b=%zz`);
      expect(again.status).toBe(200);
      expect(again.headers['set-cookie']).toBeUndefined();
      expect(formFields(again.text, '/login').csrf).toBe(fields.csrf);
      // Not valid percent-encoding: no nonce.
      const malformed = 'st_oauth_csrf=%E0%A4%A';
      const replaced = await t.http().get(authorizeUrl(baseQuery())).set('Cookie', malformed);
      expect(replaced.status).toBe(200);
      expect(String(replaced.headers['set-cookie'])).toMatch(/^st_oauth_csrf=[0-9a-f]{32}; /);
      const posted = await t
        .http()
        .post(`${AUTHORIZE}/decision`)
        .set('Cookie', malformed)
        .type('form')
        .send({ ...fields, decision: 'approve' });
      expect(posted.status).toBe(403);
    });
  });

  describe('POST /oauth/create-code (Tachi-style) keeps working', () => {
    it('binds the code when clientID is given', async () => {
      const res = await player.agent.post('/api/v1/oauth/create-code').send({ clientID: client.clientID });
      expect(res.status).toBe(200);
      expect((await exchange(otherClient, res.body.code as string)).status).toBe(400);
      expect((await exchange(client, res.body.code as string)).status).toBe(200);
    });
  });
});

describe('OAuth2 authorization page with an https PUBLIC_URL', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ PUBLIC_URL: 'https://scores.example.test' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('marks its CSRF cookie Secure, its other attributes unchanged', async () => {
    // The owner's session cookie is Secure, which the test agent does not send over http: the client is created through the service.
    const owner = await signUp(t);
    const row = (await t.app.get(UsersRepository).findById(owner.user.id))!;
    const { row: client } = await t.app
      .get(ClientsService)
      .create({ kind: 'session', user: row, permissions: PERMISSIONS }, { name: 'Secure App', redirectUri: REDIRECT, permissions: ['submit_score'] });
    const res = await t.http().get(`${AUTHORIZE}?${new URLSearchParams({ client_id: client.clientID, redirect_uri: REDIRECT, state: 's' }).toString()}`);
    expect(res.status).toBe(200);
    expect(res.headers['set-cookie']).toHaveLength(1);
    expect(String(res.headers['set-cookie'])).toMatch(/^st_oauth_csrf=[0-9a-f]{32}; Path=\/api\/v1\/oauth\/authorize; HttpOnly; Secure; SameSite=Lax$/);
  });
});
