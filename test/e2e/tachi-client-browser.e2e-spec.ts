import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import type { AddressInfo, Server } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { createTestApp, type TestApp } from '../support/app.js';
import { decodedMail, TestSmtpServer } from '../support/smtp.js';
import { uniqueUsername } from '../support/users.js';

/**
 * Tachi's own web client (built for this server: ../shared/clients/tachi-client, see its README)
 * served by this server from WEB_CLIENT_DIR under API_PROFILE=tachi, in a real browser (Debian's
 * chromium, driven by playwright-core): a player registers through the client's register page,
 * lands logged in on the dashboard, and opens their profile. Every page must render without the
 * client's "Whoops!" box, page errors, console errors, or an API call answered >= 400.
 */
const CLIENT_BUILD = path.resolve(process.cwd(), '../shared/clients/tachi-client/build');
const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
/** Tachi's own branding images, which this server does not have (and must not copy). */
const NOT_OURS = /\/cdn\/(logos|game-banners)\//;

const canRun = fs.existsSync(path.join(CLIENT_BUILD, 'index.html')) && fs.existsSync(CHROMIUM);

/** `describe` when the client's build and chromium are there, else a skipped block whose body never runs. */
function describeWithClient(name: string, body: () => void): void {
  if (canRun) describe(name, body);
  else
    describe.skip(`${name} (needs ${CLIENT_BUILD} and ${CHROMIUM})`, () => {
      it.skip('is skipped without the client build or chromium', () => undefined);
    });
}

/** What went wrong on a page: page errors, console errors, and API answers >= 400. */
interface Problems {
  pageErrors: string[];
  consoleErrors: string[];
  apiFailures: string[];
}

function watch(page: Page, origin: string): Problems {
  const problems: Problems = { pageErrors: [], consoleErrors: [], apiFailures: [] };
  page.on('pageerror', (err) => problems.pageErrors.push(err.stack ?? err.message));
  page.on('console', (msg) => {
    if (msg.type() !== 'error') return;
    const where = msg.location().url;
    if (NOT_OURS.test(where) || NOT_OURS.test(msg.text())) return;
    // What the test's own routing refused outside this server (Google's fonts, which the client links).
    if (msg.text().includes('ERR_BLOCKED_BY_CLIENT') && !where.startsWith(origin)) return;
    problems.consoleErrors.push(`${msg.text()} (${where})`);
  });
  page.on('response', (res) => {
    const url = new URL(res.url());
    if (url.origin !== origin || !url.pathname.startsWith('/api/v1') || res.status() < 400) return;
    problems.apiFailures.push(`${res.request().method()} ${url.pathname}${url.search} → ${res.status()}`);
  });
  return problems;
}

describeWithClient("Tachi's web client, served by this server (WEB_CLIENT_DIR, API_PROFILE=tachi), in a browser", () => {
  let t: TestApp;
  let origin: string;
  let context: BrowserContext;
  let page: Page;
  let problems: Problems;
  let profileDir: string;
  let smtp: TestSmtpServer;
  const username = uniqueUsername('web');
  const password = 'a web password';

  const expectNoProblems = async () => {
    await page.waitForLoadState('networkidle');
    expect(await page.getByText('Whoops!').count()).toBe(0);
    // Each page answers for its own problems: the list starts empty again for the next.
    const seen = { ...problems };
    problems.pageErrors = [];
    problems.consoleErrors = [];
    problems.apiFailures = [];
    expect(seen).toEqual({ pageErrors: [], consoleErrors: [], apiFailures: [] });
  };

  beforeAll(async () => {
    smtp = new TestSmtpServer();
    t = await createTestApp({ API_PROFILE: 'tachi', WEB_CLIENT_DIR: CLIENT_BUILD, SMTP_URL: await smtp.start() });
    await t.app.listen(0, '127.0.0.1');
    origin = `http://127.0.0.1:${((t.app.getHttpServer() as Server).address() as AddressInfo).port}`;
    profileDir = fs.mkdtempSync(path.join(os.tmpdir(), 'st-chromium-'));
    context = await chromium.launchPersistentContext(profileDir, { executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
    // Only this server: the rules link (docs.tachi.ac) and anything else outside are refused without leaving the machine.
    await context.route(
      (url) => url.origin !== origin,
      (route) => route.abort('blockedbyclient'),
    );
    page = context.pages()[0] ?? (await context.newPage());
    page.setDefaultTimeout(20_000);
    problems = watch(page, origin);
  }, 60_000);
  afterAll(async () => {
    await context?.close();
    await t?.close();
    await smtp?.stop();
    if (profileDir) fs.rmSync(profileDir, { recursive: true, force: true });
  });

  it('the home page renders logged out from GET /config', async () => {
    await page.goto(`${origin}/`);
    await page.getByText('Welcome to Score Tracker!').waitFor();
    await page.getByText('Create Account', { exact: true }).waitFor();
    expect(await page.title()).toMatch(/Score Tracker/);
    await expectNoProblems();
  }, 60_000);

  it('registers through the register page (rules timer, form), verifies the address through the mail’s link, and lands on the dashboard', async () => {
    await page.getByText('Create Account', { exact: true }).click();
    await page.waitForURL(`${origin}/register`);
    // The rules link opens a new tab (refused: it is outside this server); clicking it starts the 1 s timer.
    const popup = context.waitForEvent('page');
    await page.getByRole('link', { name: 'Rules.' }).click();
    await (await popup).close();
    // Enabled once the timer has run (1 s in this build: VITE_RULES_READ_TIME=1).
    const readRules = page.locator('button:enabled', { hasText: /^I've read the rules\.$/ });
    await readRules.waitFor({ timeout: 10_000 });
    await readRules.click();
    await page.locator('#username').fill(username);
    await page.locator('#email').fill(`${username.toLowerCase()}@example.test`);
    await page.locator('[id="!password"]').fill(password);
    await page.locator('#confPassword').fill(password);
    await page.getByRole('button', { name: 'Register!' }).click();
    // Logged in, the client asks for the address to be verified first (is-email-verified is false).
    await page.getByText('You need to verify your email before you can use the site.').waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    await expectNoProblems();
    // The mail's link is the client's own page, which sends the code to POST /auth/verify-email.
    const link = new URL(/https?:\/\/\S+\/verify-email\?code=[0-9a-f]{40}/.exec(decodedMail(await smtp.waitFor(`${username.toLowerCase()}@example.test`)))![0]);
    await page.goto(`${origin}${link.pathname}${link.search}`);
    await page.getByText('Verified your email.').waitFor();
    await expectNoProblems();
    await page.goto(`${origin}/`);
    await page.getByText(`Welcome to Score Tracker, ${username}!`).waitFor();
    await expectNoProblems();
    // The session cookie is the server's: the account exists and is logged in.
    const cookies = await context.cookies(origin);
    expect(cookies.map((c) => c.name)).toContain('score_tracker_session');
  }, 60_000);

  it('the dashboard renders again on a fresh load (a client-side route served as index.html)', async () => {
    await page.goto(`${origin}/dashboard`);
    await page.getByText(`Welcome to Score Tracker, ${username}!`).waitFor();
    await expectNoProblems();
  }, 60_000);

  it("the player's profile page renders, with the default picture and banner", async () => {
    await page.goto(`${origin}/u/${username}`);
    await page.getByText(`${username}'s Profile`).first().waitFor();
    // Their own profile: the client knows who is logged in.
    await page.getByText('Change Status').waitFor();
    await expectNoProblems();
    const picture = page.getByAltText(`${username}'s Profile Picture`).first();
    await picture.waitFor();
    // The picture loaded (a redirect to /cdn/users/default/pfp): the browser knows its size.
    await expect(picture.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).resolves.toBe(256);
  }, 60_000);
});
