import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import type { AddressInfo, Server } from 'node:net';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { SeedLoader } from '../../src/seeds/seed-loader.js';
import { SeedSource } from '../../src/seeds/seed-source.js';
import { describeWithBrowser, launchBrowser, type TestBrowser } from '../support/browser.js';
import { importFile } from '../support/imports.js';
import { createTestAppWithMail, decodedMail, type TestAppWithMail } from '../support/smtp.js';
import { issueTachiToken, ok, signUpTachi } from '../support/tachi.js';
import { uniqueUsername, type SignedUpUser } from '../support/users.js';

/**
 * Tachi's own web client (built for this server: ../shared/clients/tachi-client, see its README)
 * served by this server from WEB_CLIENT_DIR under API_PROFILE=tachi, in a real browser (Debian's
 * chromium, driven by playwright-core): a player registers through the client's register page,
 * verifies their address, imports, then does what a player does on the client's own pages (revert
 * an import, follow and unfollow, rivals, game and account settings, the showcase, an OAuth client,
 * a goal), each checked through the API, and visits every page logged in and as a guest. Every page
 * must render without the client's "Whoops!" box, page errors, console errors, or an API call
 * answered >= 400 or `success: false` that the page did not ask for knowing it may fail.
 */
const CLIENT_BUILD = path.resolve(process.cwd(), '../shared/clients/tachi-client/build');
/** Tachi's own branding images, which this server does not have (and must not copy). */
const NOT_OURS = /\/cdn\/(logos|game-banners)\//;

/** Retries `check` until it passes (the page's call may still be on its way), failing with its last error after 10 s. */
async function eventually(check: () => Promise<void>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
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

describeWithBrowser(
  "Tachi's web client, served by this server (WEB_CLIENT_DIR, API_PROFILE=tachi), in a browser",
  () => {
    let t: TestAppWithMail;
    let origin: string;
    let browser: TestBrowser;
    let context: BrowserContext;
    let page: Page;
    let problems: Problems;
    let profileDir: string;
    let rival: SignedUpUser;
    /** The two scores the player imports: ALBIDA Powerless Mix (song 1) EXH and ADV, ten minutes apart (one session). */
    const played = Date.UTC(2024, 0, 15, 12);
    const batchManual = {
      meta: { game: 'sdvx', playtype: 'Single', service: 'browser suite' },
      scores: [
        { matchType: 'sdvxInGameID', identifier: '1', difficulty: 'EXH', score: 9_812_345, lamp: 'EXCESSIVE CLEAR', timeAchieved: played },
        { matchType: 'sdvxInGameID', identifier: '1', difficulty: 'ADV', score: 9_950_000, lamp: 'ULTIMATE CHAIN', timeAchieved: played + 10 * 60_000 },
      ],
    };
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
      t = await createTestAppWithMail({ API_PROFILE: 'tachi', WEB_CLIENT_DIR: CLIENT_BUILD });
      // SOUND VOLTEX's songs, charts, tables, folders, goals and quests: what the game's pages show.
      await new SeedLoader(t.database).load(new SeedSource(path.resolve('test/fixtures/seeds/clean')), { games: ['sdvx'] });
      // Another player of SOUND VOLTEX, whom the player follows and rivals.
      rival = await signUpTachi(t);
      ok(await importFile(t, await issueTachiToken(rival, ['submit_score']), { ...batchManual, meta: { ...batchManual.meta, service: 'rival' } }), 202);
      await t.app.listen(0, '127.0.0.1');
      origin = `http://127.0.0.1:${((t.app.getHttpServer() as Server).address() as AddressInfo).port}`;
      // Generous: a loaded machine (CI beside other work) takes a while over the client's first bundle.
      browser = await launchBrowser({ timeoutMs: 45_000 });
      ({ context, page, profileDir } = browser);
      // Only this server: the rules link (docs.tachi.ac) and anything else outside are refused without leaving the machine.
      await context.route(
        (url) => url.origin !== origin,
        (route) => route.abort('blockedbyclient'),
      );
      problems = watch(page, origin);
    }, 120_000);
    afterAll(async () => {
      await browser?.close();
      await t?.close();
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
      const link = new URL(
        /https?:\/\/\S+\/verify-email\?code=[0-9a-f]{40}/.exec(decodedMail(await t.smtp.waitFor(`${username.toLowerCase()}@example.test`)))![0],
      );
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
    /** Sends a batch-manual file through the client's upload page, as a player picks and submits one. */
    const uploadBatchManual = async (document: unknown) => {
      await page.goto(`${origin}/import/batch-manual`);
      const file = path.join(profileDir, 'batch-manual.json');
      fs.writeFileSync(file, JSON.stringify(document));
      await page.locator('#batch-manual').setInputFiles(file);
      // The client checks the file itself before it offers to send it.
      await page.getByRole('button', { name: 'Submit File' }).click();
      await page.getByText('Your import was successful!').waitFor({ timeout: 30_000 });
      await expectNoProblems();
    };
    /** What the API answers the browser's own session (its cookies), inside Tachi's envelope. */
    const api = async <T>(route: string): Promise<T> => {
      const res = await page.request.get(`${origin}/api/v1${route}`);
      const body = (await res.json()) as { success: boolean; body: T };
      expect([res.status(), body.success]).toEqual([200, true]);
      return body.body;
    };
    let userID: number;
    const ugpt = () => `/u/${username}/games/sdvx/Single`;
    let sessionID: string;
    let importID: string;

    it('imports a batch-manual file through the import pages (the method list, the file upload), and the import finishes', async () => {
      await page.goto(`${origin}/import`);
      await page.getByText('Batch Manual', { exact: true }).first().waitFor();
      await expectNoProblems();
      await uploadBatchManual(batchManual);
      const imports = await t.http().get(`/api/v1/users/${username}/imports`);
      expect(imports.status).toBe(200);
      const body = imports.body as { body: { importID: string; scoreIDs: string[]; createdSessions: { sessionID: string }[] }[] };
      expect(body.body).toHaveLength(1);
      expect(body.body[0]!.scoreIDs).toHaveLength(2);
      importID = body.body[0]!.importID;
      sessionID = body.body[0]!.createdSessions[0]!.sessionID;
      userID = (await api<{ id: number }>('/users/me')).id;
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

    describe("the player's account actions, through the client's own pages", () => {
      const settings = () => api<{ rivals: number[]; preferences: Record<string, unknown> }>(`/users/${userID}/games/sdvx/Single/settings`);

      it('reverts an import from the imports page (four confirmations), and its scores are gone', async () => {
        // A second import, of the MXM chart, to undo: the first stays for the pages below.
        const mistake = { ...batchManual, scores: [{ ...batchManual.scores[0]!, difficulty: 'MXM', score: 8_000_000, lamp: 'CLEAR' }] };
        await uploadBatchManual(mistake);
        const before = await api<{ importID: string; scoreIDs: string[] }[]>(`/users/${userID}/imports`);
        expect(before).toHaveLength(2);
        const reverted = before.find((i) => i.importID !== importID)!;
        await page.goto(`${origin}/u/${username}/imports`);
        await page.locator('tr', { hasText: 'file/batch-manual' }).first().waitFor();
        await expectNoProblems();
        // The newest first: its row opens its dropdown, whose "Revert Import" view holds the button.
        await page.locator('td', { hasText: 'file/batch-manual' }).first().click();
        await page.getByText('Revert Import', { exact: true }).click();
        for (const label of [/^Undo Import/, /^Are you absolutely sure\?/, /^I'm serious\. You will lose 1 score/, /^OK\. Click me one last time/])
          await page.getByRole('button', { name: label }).click();
        await page.getByRole('button', { name: 'Reverting import...' }).waitFor();
        // The client reloads the page once the revert answered.
        await page.waitForEvent('load', { timeout: 20_000 });
        await expectNoProblems();
        expect((await api<{ importID: string }[]>(`/users/${userID}/imports`)).map((i) => i.importID)).toEqual([importID]);
        const scores = await Promise.all(reverted.scoreIDs.map((id) => page.request.get(`${origin}/api/v1/scores/${id}`)));
        expect(scores.map((r) => r.status())).toEqual([404]);
      }, 90_000);

      it("follows and unfollows another player from their profile's header", async () => {
        await page.goto(`${origin}/u/${rival.username}`);
        await page.getByRole('button', { name: 'Follow', exact: true }).click();
        await page.getByRole('button', { name: 'Unfollow', exact: true }).waitFor();
        await expectNoProblems();
        expect((await api<{ following: number[] }>(`/users/${userID}/settings`)).following).toEqual([rival.user.id]);
        await page.getByRole('button', { name: 'Unfollow', exact: true }).click();
        await page.getByRole('button', { name: 'Follow', exact: true }).waitFor();
        await expectNoProblems();
        expect((await api<{ following: number[] }>(`/users/${userID}/settings`)).following).toEqual([]);
      }, 60_000);

      it('sets a rival on the manage-rivals page (search the players, select, save)', async () => {
        await page.goto(`${origin}${ugpt()}/rivals/manage`);
        await page.getByRole('button', { name: /Add Rival/ }).click();
        await page.getByPlaceholder('Search users...').fill(rival.username);
        await page.getByRole('dialog').getByRole('button', { name: 'Select', exact: true }).click();
        await page.getByRole('dialog').getByRole('button', { name: 'Added!' }).waitFor();
        await page.keyboard.press('Escape');
        await page.getByRole('button', { name: 'Save Changes' }).click();
        await page.getByText('You have unsaved changes!').waitFor({ state: 'detached' });
        await expectNoProblems();
        expect((await settings()).rivals).toEqual([rival.user.id]);
        expect((await api<{ id: number }[]>(`/users/${userID}/games/sdvx/Single/rivals`)).map((u) => u.id)).toEqual([rival.user.id]);
        expect((await api<{ id: number }[]>(`/users/${rival.user.id}/games/sdvx/Single/rivals/challengers`)).map((u) => u.id)).toEqual([userID]);
      }, 60_000);

      it("changes the game's preferences on the UGPT settings page (folder info, ranking, VF6 target)", async () => {
        await page.goto(`${origin}${ugpt()}/settings`);
        // SOUND VOLTEX has one rating algorithm of each kind, so the client offers no algorithm to choose here.
        await page.locator('#preferredDefaultEnum').selectOption('grade');
        // Offered once the player has rivals.
        await page.locator('#preferredRanking').selectOption('rival');
        await page.locator('[id="gameSpecific.vf6Target"]').fill('0.4');
        await page.getByRole('button', { name: 'Save Changes' }).click();
        await eventually(async () =>
          expect((await settings()).preferences).toMatchObject({ preferredDefaultEnum: 'grade', preferredRanking: 'rival', gameSpecific: { vf6Target: 0.4 } }),
        );
        await expectNoProblems();
      }, 60_000);

      it('adds a chart stat to the showcase and removes it again', async () => {
        await page.goto(`${origin}${ugpt()}/settings?showcase=true`);
        await page.getByRole('button', { name: 'Add Statistic' }).click();
        const dialog = page.getByRole('dialog');
        await dialog.locator('#metric').selectOption('score');
        // The charts the player has played (the box is ticked for a logged-in player).
        await dialog.locator('#chartID option', { hasText: 'EXH' }).waitFor({ state: 'attached' });
        const chartID = await dialog.locator('#chartID option', { hasText: 'EXH' }).getAttribute('value');
        await dialog.locator('#chartID').selectOption(chartID!);
        await dialog.getByRole('button', { name: 'Submit' }).click();
        await eventually(async () => expect((await settings()).preferences.stats).toEqual([{ mode: 'chart', metric: 'score', chartID }]));
        // The new stat renders with the player's score on it.
        await page.getByText('9812345').or(page.getByText('9,812,345')).first().waitFor();
        await expectNoProblems();
        await page.getByRole('button', { name: 'Delete', exact: true }).click();
        await eventually(async () => expect((await settings()).preferences.stats).toEqual([]));
        await expectNoProblems();
      }, 60_000);

      it('changes a UI preference on the account settings page (developer mode), keeping the privacy settings', async () => {
        await page.goto(`${origin}/u/${username}/settings`);
        await page.getByRole('button', { name: /UI Preferences/ }).click();
        await page.locator('#developerMode').check();
        await page.getByRole('button', { name: 'Update Settings' }).click();
        await eventually(async () =>
          expect((await api<{ preferences: Record<string, unknown> }>(`/users/${userID}/settings`)).preferences).toMatchObject({
            developerMode: true,
            invisible: false,
            contentiousContent: false,
            advancedMode: false,
            deletableScores: false,
          }),
        );
        await expectNoProblems();
      }, 60_000);

      it('creates an OAuth client on the integrations page', async () => {
        await page.goto(`${origin}/u/${username}/integrations/oauth-clients`);
        await page.getByRole('button', { name: 'Create New Client' }).click();
        const dialog = page.getByRole('dialog');
        await dialog.getByPlaceholder('My API Client').fill('Browser Suite App');
        await dialog.getByPlaceholder('https://example.com/callback').fill('https://app.example.test/callback');
        await dialog
          .locator('label', { hasText: /^submit_score$/ })
          .locator('xpath=preceding-sibling::input[1]')
          .check();
        await dialog.getByRole('button', { name: 'Create Client' }).click();
        // The client reloads the page, which lists the new client.
        await page.getByText('Browser Suite App').first().waitFor();
        await expectNoProblems();
        const clients = await api<{ name: string; redirectUri: string; requestedPermissions: string[] }[]>('/clients');
        expect(clients).toEqual([
          expect.objectContaining({ name: 'Browser Suite App', redirectUri: 'https://app.example.test/callback', requestedPermissions: ['submit_score'] }),
        ]);
      }, 60_000);

      it('subscribes to a goal on a chart from the goals page, and removes it', async () => {
        const goals = async () => (await api<{ goals: { goalID: string; name: string }[] }>(`/users/${userID}/games/sdvx/Single/targets/goals`)).goals;
        await page.goto(`${origin}${ugpt()}/targets/goals`);
        await page.getByRole('button', { name: /Add New Goal/ }).click();
        const dialog = page.getByRole('dialog');
        // react-select's placeholder lies under its input: the click goes to the input, as a player's does.
        await dialog.getByText('Search for a chart...').click({ force: true });
        await page.keyboard.type('ALBIDA');
        await page.locator('[id*="-option-"]', { hasText: 'MXM' }).first().click();
        const add = dialog.getByRole('button', { name: 'Add Goal' });
        await eventually(async () => expect(await add.isEnabled()).toBe(true));
        await add.click();
        await eventually(async () => expect((await goals()).map((g) => g.name)).toEqual([expect.stringMatching(/ALBIDA Powerless Mix/)]));
        await expectNoProblems();
        await page.getByRole('button', { name: /Delete Goals/ }).click();
        await page.getByRole('dialog').locator('button.btn-outline-danger').click();
        await eventually(async () => expect(await goals()).toEqual([]));
        await expectNoProblems();
      }, 60_000);
    });

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
  },
  [path.join(CLIENT_BUILD, 'index.html')],
);
