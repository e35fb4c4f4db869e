import { describe, it } from '@jest/globals';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

/**
 * The browser the e2e suites drive: Debian's Chromium (`apt-get install -y chromium`; .ci/run installs it when
 * missing) through playwright-core, whose own browser download is not used.
 */
export const CHROMIUM = '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * `describe` when chromium and every file of `needs` are there, else a skipped block (named for what is missing) whose
 * body never runs, so nothing of it reads a missing file or starts a browser.
 */
export function describeWithBrowser(name: string, body: () => void, needs: string[] = []): void {
  const missing = [CHROMIUM, ...needs].filter((file) => !fs.existsSync(file));
  if (missing.length === 0) describe(name, body);
  else
    describe.skip(`${name} (needs ${missing.join(' and ')})`, () => {
      it.skip(`is skipped without ${missing.join(' and ')}`, () => undefined);
    });
}

/** A browser with a fresh, empty profile (its own --user-data-dir), removed by `close`. */
export interface TestBrowser {
  context: BrowserContext;
  page: Page;
  /** The profile's folder, for files a test hands the page (uploads). */
  profileDir: string;
  close: () => Promise<void>;
}

export async function launchBrowser(options: { javaScript?: boolean; timeoutMs?: number } = {}): Promise<TestBrowser> {
  const profileDir = fs.mkdtempSync(path.join(os.tmpdir(), 'st-chromium-'));
  const context = await chromium.launchPersistentContext(profileDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    javaScriptEnabled: options.javaScript ?? true,
  });
  const page = context.pages()[0] ?? (await context.newPage());
  page.setDefaultTimeout(options.timeoutMs ?? 15_000);
  return {
    context,
    page,
    profileDir,
    close: async () => {
      await context.close();
      fs.rmSync(profileDir, { recursive: true, force: true });
    },
  };
}
