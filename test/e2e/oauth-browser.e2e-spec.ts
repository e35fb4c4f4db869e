import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { spawn, type ChildProcess } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { createTestApp, type TestApp } from '../support/app.js';
import { describeWithBrowser, launchBrowser, type TestBrowser } from '../support/browser.js';
import { pkcePair } from '../support/oauth.js';
import { ROOT } from '../support/cli.js';
import { signUp, type SignedUpUser } from '../support/users.js';

/**
 * The OAuth2 authorization flow in a real browser (Debian's chromium, driven by playwright-core),
 * with the sample app of examples/ as the third-party application: it redirects the player to
 * /oauth/authorize with PKCE, the player logs in and answers, and the app exchanges the code and
 * calls /status with the token. The app runs on http://localhost, the API on http://127.0.0.1:
 * two different sites, as in real life.
 */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

describeWithBrowser('OAuth2 authorization in a browser, with the sample app', () => {
  let t: TestApp;
  let api: string;
  let app: string;
  let sampleApp: ChildProcess;
  let owner: SignedUpUser;
  let player: SignedUpUser;
  let client: { clientID: string; clientSecret: string; redirectUri: string };

  const browsers: TestBrowser[] = [];

  /** A browser with a fresh, empty profile, closed and removed after the file. */
  async function browser(options: { javaScript: boolean }): Promise<TestBrowser> {
    const b = await launchBrowser(options);
    browsers.push(b);
    return b;
  }

  /** From the sample app's home to the authorization page's login form, then logged in with the keyboard. */
  async function connectAndLogIn(page: Page, u: SignedUpUser): Promise<void> {
    await page.goto(app);
    await page.getByRole('link', { name: 'Connect your account' }).click();
    await page.waitForURL((url) => url.href.startsWith(`${api}/api/v1/oauth/authorize?`));
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Log in to authorize Sample Score App');
    await page.getByLabel('Username').fill(u.username);
    await page.getByLabel('Password').fill(u.password);
    await page.getByLabel('Password').press('Enter');
    await page.getByText(`You are logged in as ${u.username}.`).waitFor();
  }

  /** Presses a button from the keyboard: Tab until it has the focus (it must get it), then Enter. */
  async function pressButton(page: Page, name: string): Promise<void> {
    const button = page.getByRole('button', { name, exact: true });
    for (
      let tabs = 0;
      !(await button.evaluate((el) => el === (globalThis as unknown as { document: { activeElement: unknown } }).document.activeElement));
      tabs++
    ) {
      if (tabs === 20) throw new Error(`Tab never reaches the ${name} button`);
      await page.keyboard.press('Tab');
    }
    await page.keyboard.press('Enter');
  }

  const exchange = (code: string, verifier?: string) =>
    t
      .http()
      .post('/api/v1/oauth/token')
      .type('form')
      .send({
        client_id: client.clientID,
        client_secret: client.clientSecret,
        redirect_uri: client.redirectUri,
        grant_type: 'authorization_code',
        code,
        ...(verifier ? { code_verifier: verifier } : {}),
      });

  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen(0, '127.0.0.1');
    api = `http://127.0.0.1:${((t.app.getHttpServer() as net.Server).address() as AddressInfo).port}`;
    const appPort = await freePort();
    app = `http://localhost:${appPort}`;
    owner = await signUp(t);
    player = await signUp(t);
    const created = await owner.agent
      .post('/api/v1/clients/create')
      .send({ name: 'Sample Score App', redirectUri: `${app}/callback`, permissions: ['submit_score'] });
    expect(created.status).toBe(200);
    client = created.body as typeof client;

    sampleApp = spawn(process.execPath, [path.join(ROOT, 'examples', 'oauth-sample-app.mjs')], {
      env: { ...process.env, API_URL: api, CLIENT_ID: client.clientID, CLIENT_SECRET: client.clientSecret, PORT: String(appPort) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    await new Promise<void>((resolve, reject) => {
      let output = '';
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('Sample app on')) resolve();
      };
      sampleApp.stdout!.on('data', onData);
      sampleApp.stderr!.on('data', onData);
      sampleApp.on('exit', (code) => reject(new Error(`the sample app exited with ${code}:\n${output}`)));
    });
  }, 60_000);
  afterAll(async () => {
    sampleApp?.kill('SIGTERM');
    await t?.close();
    for (const b of browsers) await b.close();
  });

  it('connects: login, approve, the app exchanges the code with its PKCE verifier and calls /status; the code is useless to anyone else', async () => {
    const { context, page } = await browser({ javaScript: false });
    try {
      await connectAndLogIn(page, player);
      await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Authorize Sample Score App?');
      await page.getByText('Submit scores and imports for you').waitFor();
      await page.getByText(owner.username).first().waitFor();
      await pressButton(page, 'Approve');
      await page.waitForURL((url) => url.href.startsWith(`${app}/callback?`));
      await expect(page.locator('#result').textContent()).resolves.toBe(`Connected as ${player.username} (user ${player.user.id}) with: submit_score`);

      const code = new URL(page.url()).searchParams.get('code')!;
      expect(code).toMatch(/^[0-9a-f]{40}$/);
      // The app's key is among the player's API tokens; whoever reads the code in the URL cannot use it again without the verifier, nor revoke the key.
      const keys = async () =>
        ((await player.agent.get(`/api/v1/users/${player.user.id}/api-tokens`)).body as { fromAPIClient: string | null }[]).filter(
          (k) => k.fromAPIClient === client.clientID,
        ).length;
      const before = await keys();
      expect(before).toBeGreaterThan(0);
      const replay = await exchange(code, 'a'.repeat(43));
      expect(replay.status).toBe(400);
      expect(replay.body.message).toMatch(/does not match/);
      expect(await keys()).toBe(before);
    } finally {
      await context.close();
    }
  }, 60_000);

  it('refuses a wrong verifier without burning the code: the app then exchanges it with the right one', async () => {
    const { context, page } = await browser({ javaScript: false });
    try {
      const refusals: string[] = [];
      // Before the redirect reaches the app, an attacker who caught the code tries it without a verifier and with one of their own.
      await page.route(`${api}/api/v1/oauth/authorize/decision`, async (route) => {
        const response = await route.fetch({ maxRedirects: 0 });
        const code = new URL(response.headers().location).searchParams.get('code')!;
        for (const verifier of [undefined, 'x'.repeat(43)]) refusals.push(String((await exchange(code, verifier)).body.message));
        await route.fulfill({ response });
      });
      await connectAndLogIn(page, player);
      await pressButton(page, 'Approve');
      await page.waitForURL((url) => url.href.startsWith(`${app}/callback?`));
      expect(refusals).toEqual([expect.stringMatching(/send its code_verifier/), expect.stringMatching(/does not match/)]);
      await expect(page.locator('#result').textContent()).resolves.toMatch(/^Connected as /);
    } finally {
      await context.close();
    }
  }, 60_000);

  it('a replayed code is refused and the key it gave is revoked (the test plays the app, with its own PKCE pair)', async () => {
    const { context, page } = await browser({ javaScript: false });
    try {
      const { verifier, challenge } = pkcePair();
      const query = new URLSearchParams({
        client_id: client.clientID,
        redirect_uri: client.redirectUri,
        state: 'replay-test',
        code_challenge: challenge,
        code_challenge_method: 'S256',
      });
      await page.goto(`${api}/api/v1/oauth/authorize?${query.toString()}`);
      await page.getByLabel('Username').fill(player.username);
      await page.getByLabel('Password').fill(player.password);
      await page.getByLabel('Password').press('Enter');
      await pressButton(page, 'Approve');
      await page.waitForURL((url) => url.href.startsWith(`${app}/callback?`));
      // The sample app did not start this authorization, so it refuses the callback and leaves the code alone.
      await expect(page.locator('#result').textContent()).resolves.toBe('Refused: the state does not match the one this app sent.');
      const sent = new URL(page.url()).searchParams;
      expect(sent.get('state')).toBe('replay-test');

      const issued = await exchange(sent.get('code')!, verifier);
      expect(issued.status).toBe(200);
      const status = () =>
        t
          .http()
          .get('/api/v1/status')
          .set('Authorization', `Bearer ${issued.body.token as string}`);
      expect((await status()).body.whoami).toBe(player.user.id);
      const replay = await exchange(sent.get('code')!, verifier);
      expect(replay.status).toBe(400);
      expect(replay.body.message).toMatch(/already been used; the API key it was exchanged for has been revoked/);
      expect((await status()).status).toBe(401);
    } finally {
      await context.close();
    }
  }, 60_000);

  it('deny: the app is told access_denied and gets no code', async () => {
    const { context, page } = await browser({ javaScript: false });
    try {
      await connectAndLogIn(page, player);
      await pressButton(page, 'Deny');
      await page.waitForURL((url) => url.href.startsWith(`${app}/callback?`));
      expect(new URL(page.url()).searchParams.get('code')).toBeNull();
      expect(new URL(page.url()).searchParams.get('error')).toBe('access_denied');
      await expect(page.locator('#result').textContent()).resolves.toBe('Not connected: access_denied');
    } finally {
      await context.close();
    }
  }, 60_000);

  it('tampered state: a changed form is refused by the server, a forged callback by the app', async () => {
    const { context, page } = await browser({ javaScript: true });
    try {
      await connectAndLogIn(page, player);
      await page
        .locator('form[action$="/decision"] input[name="state"]')
        .evaluate((input) => ((input as unknown as { value: string }).value = 'attacker-state'));
      await pressButton(page, 'Approve');
      await page.getByText('This form has expired or was changed').waitFor();
      expect(page.url()).toBe(`${api}/api/v1/oauth/authorize/decision`);

      // A callback this browser did not start (another state) never reaches the token endpoint.
      await page.goto(`${app}/callback?code=${'0'.repeat(40)}&state=forged`);
      await expect(page.locator('#result').textContent()).resolves.toBe('Refused: the state does not match the one this app sent.');
    } finally {
      await context.close();
    }
  }, 60_000);

  it('switch account: the approval is given by the account the page names', async () => {
    const { context, page } = await browser({ javaScript: false });
    try {
      await connectAndLogIn(page, player);
      await page.getByRole('button', { name: `Not ${player.username}? Log in with another account` }).click();
      await page.getByLabel('Username').fill(owner.username);
      await page.getByLabel('Password').fill(owner.password);
      await page.getByRole('button', { name: 'Log in' }).click();
      await page.getByText(`You are logged in as ${owner.username}.`).waitFor();
      await pressButton(page, 'Approve');
      await page.waitForURL((url) => url.href.startsWith(`${app}/callback?`));
      await expect(page.locator('#result').textContent()).resolves.toBe(`Connected as ${owner.username} (user ${owner.user.id}) with: submit_score`);
    } finally {
      await context.close();
    }
  }, 60_000);
});
