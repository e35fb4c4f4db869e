import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import type { AddressInfo, Server } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { SeedLoader } from '../../src/seeds/seed-loader.js';
import { SeedSource } from '../../src/seeds/seed-source.js';
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

/** What went wrong on a page: page errors, console errors, and API answers >= 400 or `success: false`. */
interface Problems {
  pageErrors: string[];
  consoleErrors: string[];
  apiFailures: string[];
  /** Reading the bodies of API answers, which settles after the answer itself. */
  pending: Promise<void>[];
}

function watch(page: Page, origin: string): Problems {
  const problems: Problems = { pageErrors: [], consoleErrors: [], apiFailures: [], pending: [] };
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
    if (url.origin !== origin || !url.pathname.startsWith('/api/v1')) return;
    const call = `${res.request().method()} ${url.pathname}${url.search}`;
    if (res.status() >= 400) {
      problems.apiFailures.push(`${call} → ${res.status()}`);
      return;
    }
    if (!(res.headers()['content-type'] ?? '').includes('json')) return;
    problems.pending.push(
      res.json().then(
        (body: unknown) => {
          if ((body as { success?: unknown } | null)?.success === false) problems.apiFailures.push(`${call} → ${res.status()} success:false`);
        },
        () => undefined, // a body the browser no longer holds (a navigation went on): its status was checked
      ),
    );
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

  /**
   * Fails on the client's crash box and on every problem seen since the last check. `expected`
   * are failures the page asks for knowing they may fail: each matches API failures
   * (`METHOD /path → status`) and the console errors the browser and the client log for them.
   */
  const expectNoProblems = async (expected: RegExp[] = []) => {
    await page.waitForLoadState('networkidle');
    await Promise.all(problems.pending);
    const unexpected = (list: string[]) => list.filter((p) => !expected.some((e) => e.test(p)));
    // Each page answers for its own problems: the list starts empty again for the next.
    const seen = { pageErrors: problems.pageErrors, consoleErrors: unexpected(problems.consoleErrors), apiFailures: unexpected(problems.apiFailures) };
    problems.pageErrors = [];
    problems.consoleErrors = [];
    problems.apiFailures = [];
    problems.pending = [];
    expect(await page.getByText('Whoops!').count()).toBe(0);
    expect(seen).toEqual({ pageErrors: [], consoleErrors: [], apiFailures: [] });
  };

  beforeAll(async () => {
    smtp = new TestSmtpServer();
    t = await createTestApp({ API_PROFILE: 'tachi', WEB_CLIENT_DIR: CLIENT_BUILD, SMTP_URL: await smtp.start() });
    // SOUND VOLTEX's songs, charts, tables, folders, goals and quests: what the game's pages show.
    await new SeedLoader(t.database).load(new SeedSource(path.resolve('test/fixtures/seeds/clean')), { games: ['sdvx'] });
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
  /** The two scores the player imports: ALBIDA Powerless Mix (song 1) EXH and ADV, ten minutes apart (one session). */
  const played = Date.UTC(2024, 0, 15, 12);
  const batchManual = {
    meta: { game: 'sdvx', playtype: 'Single', service: 'browser suite' },
    scores: [
      { matchType: 'sdvxInGameID', identifier: '1', difficulty: 'EXH', score: 9_812_345, lamp: 'EXCESSIVE CLEAR', timeAchieved: played },
      { matchType: 'sdvxInGameID', identifier: '1', difficulty: 'ADV', score: 9_950_000, lamp: 'ULTIMATE CHAIN', timeAchieved: played + 10 * 60_000 },
    ],
  };
  const ugpt = () => `/u/${username}/games/sdvx/Single`;
  let sessionID: string;
  let importID: string;

  it('imports a batch-manual file through the import pages (the method list, the file upload), and the import finishes', async () => {
    await page.goto(`${origin}/import`);
    await page.getByText('Batch Manual', { exact: true }).first().waitFor();
    await expectNoProblems();
    await page.goto(`${origin}/import/batch-manual`);
    const file = path.join(profileDir, 'sdvx-batch-manual.json');
    fs.writeFileSync(file, JSON.stringify(batchManual));
    await page.locator('#batch-manual').setInputFiles(file);
    // The client checks the file itself before it offers to send it.
    await page.getByRole('button', { name: 'Submit File' }).click();
    await page.getByText('Your import was successful!').waitFor({ timeout: 30_000 });
    await expectNoProblems();
    const imports = await t.http().get(`/api/v1/users/${username}/imports`);
    expect(imports.status).toBe(200);
    const body = imports.body as { body: { importID: string; scoreIDs: string[]; createdSessions: { sessionID: string }[] }[] };
    expect(body.body).toHaveLength(1);
    expect(body.body[0]!.scoreIDs).toHaveLength(2);
    importID = body.body[0]!.importID;
    sessionID = body.body[0]!.createdSessions[0]!.sessionID;
  }, 60_000);

  it("the game profile overview shows the player's rating", async () => {
    const res = await t.http().get(`/api/v1/users/${username}/games/sdvx/Single`);
    const ratings = (res.body as { body: { gameStats: { ratings: Record<string, number | null> } } }).body.gameStats.ratings;
    expect(ratings.VF6).toBeGreaterThan(0);
    await page.goto(`${origin}${ugpt()}`);
    await page.getByText(`${username}'s SOUND VOLTEX Profile`).first().waitFor();
    await page.getByText(ratings.VF6!.toFixed(3)).first().waitFor();
    await expectNoProblems();
  }, 60_000);

  it('the scores tabs list the imported scores with their lamps', async () => {
    await page.goto(`${origin}${ugpt()}/scores`);
    await page.getByText('ALBIDA Powerless Mix').first().waitFor();
    await expectNoProblems();
    for (const tab of ['history', 'all', 'most-played']) {
      await page.goto(`${origin}${ugpt()}/scores/${tab}`);
      await page.getByText('ALBIDA Powerless Mix').first().waitFor();
      await page
        .getByText(/EXCESSIVE CLEAR|EXC/)
        .first()
        .waitFor();
      await expectNoProblems();
    }
  }, 90_000);

  /** Pages of the player's own game profile and of the site, visited logged in: every one must render without a problem. */
  const loggedInPages: [string, () => string, RegExp[]?][] = [
    ['folders', () => `${ugpt()}/folders`],
    ['folder search', () => `${ugpt()}/folders/search`],
    ['recent folders', () => `${ugpt()}/folders/recent`],
    ['sessions', () => `${ugpt()}/sessions`],
    ['a session', () => `${ugpt()}/sessions/${sessionID}`],
    ['targets', () => `${ugpt()}/targets`],
    ['goals', () => `${ugpt()}/targets/goals`],
    ['rivals', () => `${ugpt()}/rivals`],
    ['manage rivals', () => `${ugpt()}/rivals/manage`],
    ['rivals PB leaderboard', () => `${ugpt()}/rivals/pb-leaderboard`],
    ['game profile leaderboard', () => `${ugpt()}/leaderboard`],
    ['UGPT utils', () => `${ugpt()}/utils`],
    ['UGPT settings', () => `${ugpt()}/settings`],
    ["the player's games", () => `/u/${username}/games`],
    ["the player's SOUND VOLTEX", () => `/u/${username}/games/sdvx`],
    ['imports history', () => `/u/${username}/imports`],
    ['failed imports', () => `/u/${username}/imports/failed`],
    ['integrations', () => `/u/${username}/integrations`],
    ['integration services', () => `/u/${username}/integrations/services`],
    ['OAuth clients', () => `/u/${username}/integrations/oauth-clients`],
    ['account settings', () => `/u/${username}/settings`],
    // Invites exist on invite-only servers (INVITE_ONLY) alone, elsewhere 404: the client links this page only when it is
    // built with MANDATE_LOGIN, so a player of this server never reaches it; visited anyway, it must not crash.
    ['invites', () => `/u/${username}/invites`, [/\/users\/\d+\/invites\/limit/, /Invites are only available when this server is invite-only/]],
    ['search', () => `/search?search=albida`],
    ['notifications', () => `/notifications`],
    ['global activity', () => `/global-activity`],
    ['profiles', () => `/profiles`],
    ['calendar', () => `/calendar`],
    ['users', () => `/users`],
    ['games', () => `/g`],
    ['utils', () => `/utils`],
    ['import utils', () => `/utils/imports`],
  ];
  /** Pages anyone may see: visited logged in here, and as a guest below. */
  const publicPages: [string, () => string, RegExp[]?][] = [
    ['the game', () => `/games/sdvx`],
    ['the game and playtype', () => `/games/sdvx/Single`],
    ['songs', () => `/games/sdvx/Single/songs`],
    ['charts', () => `/games/sdvx/Single/charts`],
    // The song's first chart, which the player has not played: the client asks for their neighbourhood on it and takes
    // the 404 ("no PB on this chart") as "nothing to show".
    ['a song', () => `/games/sdvx/Single/songs/1`, [/\/pbs\/[0-9a-f]{40}\/leaderboard-adjacent( → 404|\))/]],
    ['a chart', () => `/games/sdvx/Single/songs/1/EXH`],
    ['leaderboards', () => `/games/sdvx/Single/leaderboards`],
    ['quests', () => `/games/sdvx/Single/quests`],
    ['questlines', () => `/games/sdvx/Single/questlines`],
    ['goals', () => `/games/sdvx/Single/goals`],
    ['the profile', () => `/u/${username}`],
    ['the game profile', () => ugpt()],
    ['scores', () => `${ugpt()}/scores`],
    ['sessions', () => `${ugpt()}/sessions`],
    ['a session', () => `${ugpt()}/sessions/${sessionID}`],
    ['folders', () => `${ugpt()}/folders`],
  ];

  const loggedInOnly: typeof loggedInPages = [
    // Linked for a logged-in player only (the client's chart page reads their rivals' PBs, which a guest has none of).
    ["a chart's rivals", () => `/games/sdvx/Single/songs/1/EXH/rivals`],
  ];

  for (const [name, url, expected] of [...loggedInPages, ...loggedInOnly, ...publicPages]) {
    it(`logged in: ${name} renders`, async () => {
      await page.goto(`${origin}${url()}`);
      await expectNoProblems(expected);
    }, 60_000);
  }

  it("the chart's page shows the player's PB with its lamp", async () => {
    await page.goto(`${origin}/games/sdvx/Single/songs/1/EXH`);
    await page.getByText('ALBIDA Powerless Mix').first().waitFor();
    await page.getByText(username).first().waitFor();
    await page.getByText('EXCESSIVE CLEAR').first().waitFor();
    await expectNoProblems();
  }, 60_000);

  it('the import is listed on the imports history page', async () => {
    await page.goto(`${origin}/u/${username}/imports`);
    await page.locator('td', { hasText: 'file/batch-manual' }).first().waitFor();
    await expectNoProblems();
    expect(importID).toBeTruthy();
  }, 60_000);

  describe('as a guest', () => {
    beforeAll(async () => {
      await context.clearCookies();
    });
    /** The client asks who is logged in on every load; a guest's answer is Tachi's 401. */
    const guest = [/GET \/api\/v1\/users\/me → 401/, /status of 401 .*\/api\/v1\/users\/me\)/];
    for (const [name, url, expected] of publicPages) {
      it(`${name} renders`, async () => {
        await page.goto(`${origin}${url()}`);
        await expectNoProblems([...guest, ...(expected ?? [])]);
      }, 60_000);
    }
  });
});
