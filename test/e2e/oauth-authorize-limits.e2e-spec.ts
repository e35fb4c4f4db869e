import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestApp, type TestApp } from '../support/app.js';
import { TestCaptchaServer } from '../support/captcha-server.js';
import { formFields } from '../support/oauth.js';
import { uniqueUsername } from '../support/users.js';

const AUTHORIZE = '/api/v1/oauth/authorize';
const REDIRECT = 'https://app.example.com/oauth/callback';

/** The authorization page's login runs /auth/login's rules: its captcha, and the same per-IP and per-account limits. */
describe('OAuth2 authorization page: login rules shared with /auth/login', () => {
  let t: TestApp;
  let captcha: TestCaptchaServer;
  let query: string;
  let player: { username: string; password: string };

  beforeAll(async () => {
    captcha = new TestCaptchaServer();
    const url = await captcha.start();
    t = await createTestApp({ CAPTCHA_VERIFY_URL: url, CAPTCHA_SECRET: captcha.secret, AUTH_RATE_LIMIT_FACTOR: '1' });
    const register = async (ip: string) => {
      const username = uniqueUsername();
      const agent = t.agent();
      const res = await agent
        .post('/api/v1/auth/register')
        .set('X-Forwarded-For', ip)
        .send({ username, '!password': 'correct horse', email: `${username}@example.test`, captcha: captcha.validToken });
      expect(res.status).toBe(200);
      return { username, password: 'correct horse', agent };
    };
    const owner = await register('10.9.0.1');
    const client = await owner.agent
      .post('/api/v1/clients/create')
      .set('X-Forwarded-For', '10.9.0.1')
      .send({ name: 'Limited App', redirectUri: REDIRECT, permissions: ['submit_score'] });
    query = new URLSearchParams({ client_id: client.body.clientID as string, redirect_uri: REDIRECT, state: 's' }).toString();
    player = await register('10.9.0.2');
  });
  afterAll(async () => {
    await t.close();
    await captcha.stop();
  });

  async function pageLogin(ip: string, username: string, password: string, captchaToken: string | null = captcha.validToken) {
    const agent = t.agent();
    const page = await agent.get(`${AUTHORIZE}?${query}`).set('X-Forwarded-For', ip);
    expect(page.status).toBe(200);
    return agent
      .post(`${AUTHORIZE}/login`)
      .set('X-Forwarded-For', ip)
      .type('form')
      .send({ ...formFields(page.text, '/login'), username, password, ...(captchaToken === null ? {} : { captcha: captchaToken }) });
  }

  it('asks for the captcha and checks it with the verifier', async () => {
    const page = await t.http().get(`${AUTHORIZE}?${query}`);
    expect(page.text).toContain('<label for="captcha">');
    const missing = await pageLogin('10.1.0.1', player.username, player.password, null);
    expect(missing.status).toBe(400);
    expect(missing.text).toContain('captcha is required');
    const robot = await pageLogin('10.1.0.1', player.username, player.password, 'robot-token');
    expect(robot.status).toBe(400);
    expect(robot.text).toContain('Captcha verification failed.');
    expect(captcha.requests.at(-1)!.get('response')).toBe('robot-token');
    expect((await pageLogin('10.1.0.1', player.username, player.password)).status).toBe(303);
  });

  it('counts failed passwords on the page and on /auth/login against one per-account limit', async () => {
    for (let i = 0; i < 5; i++) {
      const res = await t
        .http()
        .post('/api/v1/auth/login')
        .set('X-Forwarded-For', '10.2.0.1')
        .send({ username: player.username, '!password': 'wrong password', captcha: captcha.validToken });
      expect(res.status).toBe(401);
    }
    for (let i = 0; i < 5; i++) expect((await pageLogin('10.2.0.2', player.username, 'wrong password')).status).toBe(401);
    // Ten failures: even the right password is refused now, on both, from any address.
    const page = await pageLogin('10.2.0.3', player.username, player.password);
    expect(page.status).toBe(429);
    expect(page.headers['retry-after']).toMatch(/^\d+$/);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    const api = await t
      .http()
      .post('/api/v1/auth/login')
      .set('X-Forwarded-For', '10.2.0.4')
      .send({ username: player.username, '!password': player.password, captcha: captcha.validToken });
    expect(api.status).toBe(429);
  });

  it('limits login attempts per IP as /auth/login does (15 per 10 minutes)', async () => {
    for (let i = 0; i < 15; i++) expect((await pageLogin('10.3.0.1', `nobody_${i}`, 'wrong password')).status).toBe(401);
    expect((await pageLogin('10.3.0.1', 'nobody_x', 'wrong password')).status).toBe(429);
  });
});
