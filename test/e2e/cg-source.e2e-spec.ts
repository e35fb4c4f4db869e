import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { findImportType } from '../../src/imports/import-types/registry.js';
import { CG_MAX_BODY_BYTES } from '../../src/integrations/cg/cg-source.js';
import { cgSources, createCgSource, type CgConfig, type CgCredentials } from '../../src/integrations/cg/index.js';
import { FromApiError, type FromApiFetchContext, type FromApiFetchResult } from '../../src/integrations/from-api/source.js';
import { cgPlays, startFakeCgServer, type FakeCgServer } from '../support/fake-cg-server.js';

// The fetch step of every api/cg-* type against a real local CG (test/support/fake-cg-server.ts), over real HTTP.

const CARD = 'E004010000000001';
const PIN = '4821';

describe('CG sources against the fake CG', () => {
  let cg: FakeCgServer;

  beforeAll(async () => {
    cg = await startFakeCgServer();
    cg.addCard(CARD, PIN, 'SCORER');
  });
  afterAll(async () => {
    await cg.close();
  });
  afterEach(() => {
    Object.assign(cg.switches, {
      wrongPin: false,
      htmlBody: false,
      malformedItem: false,
      popnBattle: false,
      jubeatVersion10: false,
      status: 0,
      delayMs: 0,
      wrongShape: false,
    });
  });

  /** A fresh card (own plays) on the fake. */
  let cards = 0;
  const newCard = () => {
    const cardID = `E0040100000${String(++cards).padStart(5, '0')}`;
    cg.addCard(cardID, PIN);
    return cardID;
  };

  const context = (over: Partial<FromApiFetchContext<CgCredentials, CgConfig>> = {}): FromApiFetchContext<CgCredentials, CgConfig> => ({
    userID: 1,
    credentials: { cardID: CARD, pin: PIN },
    saveCredentials: () => Promise.reject(new Error('CG credentials never change during a sync')),
    config: { url: cg.url, apiKey: cg.apiKey },
    cursor: null,
    signal: new AbortController().signal,
    requestTimeoutMs: 5_000,
    userAgent: 'score-tracker-test/1.0.0',
    ...over,
  });

  async function fatal(promise: Promise<FromApiFetchResult>): Promise<FromApiError> {
    try {
      await promise;
    } catch (err) {
      expect(err).toBeInstanceOf(FromApiError);
      const e = err as FromApiError;
      // No message ever carries the PIN or the API key.
      expect(e.message).not.toContain(PIN);
      expect(e.message).not.toContain(cg.apiKey);
      return e;
    }
    throw new Error('the fetch succeeded');
  }

  it('lists one source per service and game, each named as its import type and linked service', () => {
    expect(cgSources.map((s) => `${s.importType} ${s.service}`)).toEqual(
      ['dev', 'nag', 'gan'].flatMap((svc) => ['sdvx', 'popn', 'museca', 'jubeat', 'iidx'].map((game) => `api/cg-${svc}-${game} cg-${svc}`)),
    );
    for (const source of cgSources) expect(findImportType(source.importType)).toBeDefined();
  });

  it('fetches every play of the card with one GET of <url>/<game>-scores (api_key, card_id, pin, User-Agent)', async () => {
    const card = newCard();
    const plays = [cgPlays.sdvx(), cgPlays.sdvx({ internalId: 2, dateTime: '2024-05-01 18:35:00' })];
    cg.addPlay('sdvx', card, ...plays);
    const before = cg.requests.length;
    const result = await createCgSource('nag', 'sdvx').fetch(context({ credentials: { cardID: card, pin: PIN } }));
    expect(result.items).toEqual(plays);
    expect(result.emptyReason).toBeUndefined();
    expect(cg.requests.length - before).toBe(1);
    const { url, userAgent } = cg.requests.at(-1)!;
    expect(url.pathname).toBe('/sdvx-scores');
    expect(Object.fromEntries(url.searchParams)).toEqual({ api_key: cg.apiKey, card_id: card, pin: PIN });
    expect(userAgent).toBe('score-tracker-test/1.0.0');
  });

  it("uses CG's path of each game (msc, jb, popn, iidx) and a configured URL with a trailing slash", async () => {
    const paths: string[] = [];
    for (const game of ['museca', 'jubeat', 'popn', 'iidx'] as const) {
      await createCgSource('dev', game).fetch(context({ config: { url: `${cg.url}/`, apiKey: cg.apiKey } }));
      paths.push(cg.requests.at(-1)!.url.pathname);
    }
    expect(paths).toEqual(['/msc-scores', '/jb-scores', '/popn-scores', '/iidx-scores']);
  });

  it('an empty profile says so', async () => {
    const result = await createCgSource('gan', 'jubeat').fetch(context({ credentials: { cardID: newCard(), pin: PIN } }));
    expect(result).toMatchObject({ items: [], emptyReason: 'Your CG (gan) jubeat profile has no plays.' });
  });

  it('syncs incrementally: the cursor of one sync brings only newer plays the next time, and says when there are none', async () => {
    const card = newCard();
    const source = createCgSource('nag', 'popn');
    const ctx = (cursor: unknown) => context({ credentials: { cardID: card, pin: PIN }, cursor });
    const a = cgPlays.popn({ dateTime: '2024-05-01 18:30:00' });
    cg.addPlay('popn', card, a);

    const first = await source.fetch(ctx(null));
    expect(first.items).toEqual([a]);

    const again = await source.fetch(ctx(first.cursor));
    expect(again.items).toEqual([]);
    expect(again.emptyReason).toBe(
      "No new pop'n music plays on CG (nag) since your last sync (the newest play already synced is from 2024-05-01T18:30:00.000Z).",
    );

    // A later play, and a second play within the same second as the newest synced one: both are new.
    const later = cgPlays.popn({ internalId: 1001, dateTime: '2024-05-02 10:00:00' });
    const sameSecond = cgPlays.popn({ internalId: 1002, dateTime: '2024-05-01 18:30:00' });
    cg.addPlay('popn', card, later, sameSecond);
    const second = await source.fetch(ctx(again.cursor));
    expect(second.items).toEqual([later, sameSecond]);
    expect((await source.fetch(ctx(second.cursor))).items).toEqual([]);
  });

  it('a wrong PIN ends the sync with 400 and CG’s message, the PIN masked', async () => {
    const e = await fatal(createCgSource('nag', 'sdvx').fetch(context({ credentials: { cardID: CARD, pin: '9999' } })));
    expect(e.status).toBe(400);
    expect(e.message).toBe('CG (nag) refused the request: Incorrect PIN **** for this card.');

    cg.switches.wrongPin = true;
    const forced = await fatal(createCgSource('nag', 'sdvx').fetch(context()));
    expect(forced.message).toBe('CG (nag) refused the request: Incorrect PIN **** for this card.');
  });

  it('an unknown card or a wrong API key is 400 with CG’s message', async () => {
    const unknown = await fatal(createCgSource('dev', 'iidx').fetch(context({ credentials: { cardID: 'E004019999999999', pin: PIN } })));
    expect([unknown.status, unknown.message]).toEqual([400, 'CG (dev) refused the request: No profile exists for this card.']);
    const key = await fatal(createCgSource('dev', 'iidx').fetch(context({ config: { url: cg.url, apiKey: 'another-key' } })));
    expect([key.status, key.message]).toEqual([400, 'CG (dev) refused the request: Invalid API key.']);
  });

  it('an HTML page is 502: not JSON', async () => {
    cg.switches.htmlBody = true;
    const e = await fatal(createCgSource('gan', 'sdvx').fetch(context()));
    expect([e.status, e.message]).toEqual([502, 'CG (gan) did not answer with JSON (HTTP 200, text/html). Is it down? Try again later.']);
  });

  it('an HTTP error is 502, with CG’s message when it gives one', async () => {
    cg.switches.status = 500;
    const e = await fatal(createCgSource('gan', 'sdvx').fetch(context()));
    expect([e.status, e.message]).toEqual([502, 'CG (gan) answered HTTP 500. Try again later.']);

    const failing = http.createServer((_req, res) => {
      res.writeHead(503, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ success: false, message: 'Database unavailable.' }));
    });
    await new Promise<void>((resolve) => failing.listen(0, '127.0.0.1', resolve));
    const { port } = failing.address() as AddressInfo;
    try {
      const f = await fatal(createCgSource('gan', 'sdvx').fetch(context({ config: { url: `http://127.0.0.1:${port}`, apiKey: cg.apiKey } })));
      expect([f.status, f.message]).toEqual([502, 'CG (gan) failed (HTTP 503): Database unavailable. Try again later.']);
    } finally {
      await new Promise<void>((resolve) => failing.close(() => resolve()));
    }
  });

  it('an answer of another shape is 502', async () => {
    cg.switches.wrongShape = true;
    const e = await fatal(createCgSource('gan', 'sdvx').fetch(context()));
    expect(e.status).toBe(502);
    expect(e.message).toMatch(/^CG \(gan\) sent an answer of an unexpected shape \(data: /);
  });

  it('one malformed play is handed over: it is that play’s error in the import, the others are scores', async () => {
    const card = newCard();
    cg.addPlay('sdvx', card, cgPlays.sdvx());
    cg.switches.malformedItem = true;
    const result = await createCgSource('nag', 'sdvx').fetch(context({ credentials: { cardID: card, pin: PIN } }));
    expect(result.items).toHaveLength(2);
    const type = findImportType('api/cg-nag-sdvx')!;
    const parsed = type.parse(type.read({ body: { items: result.items }, fields: {} }), { maxScores: 100 });
    expect(parsed.items.map((item) => type.convert(item, parsed).kind)).toEqual(['score', 'error']);
  });

  it("a pop'n battle play is handed over and skipped by the import", async () => {
    const card = newCard();
    cg.addPlay('popn', card, cgPlays.popn());
    cg.switches.popnBattle = true;
    const result = await createCgSource('nag', 'popn').fetch(context({ credentials: { cardID: card, pin: PIN } }));
    const type = findImportType('api/cg-nag-popn')!;
    const parsed = type.parse({ items: result.items }, { maxScores: 100 });
    expect(parsed.items.map((item) => type.convert(item, parsed).kind)).toEqual(['score', 'skip']);
  });

  it('a jubeat play of version 10 (festo) is a score', async () => {
    cg.switches.jubeatVersion10 = true;
    const result = await createCgSource('gan', 'jubeat').fetch(context({ credentials: { cardID: newCard(), pin: PIN } }));
    expect(result.items).toEqual([expect.objectContaining({ version: 10 })]);
    const type = findImportType('api/cg-gan-jubeat')!;
    const parsed = type.parse({ items: result.items }, { maxScores: 100 });
    expect(type.convert(parsed.items[0], parsed)).toMatchObject({ kind: 'score', element: { difficulty: 'EXT', percent: 95.5 } });
  });

  it('a CG slower than the request timeout is 504', async () => {
    cg.switches.delayMs = 2_000;
    const e = await fatal(createCgSource('nag', 'museca').fetch(context({ requestTimeoutMs: 200 })));
    expect([e.status, e.message]).toEqual([504, 'CG (nag) did not answer within 0.2 seconds. Try again later.']);
  });

  it('the sync’s deadline (or a cancel) stops the request', async () => {
    cg.switches.delayMs = 2_000;
    const deadline = new AbortController();
    setTimeout(() => deadline.abort(), 100);
    const e = await fatal(createCgSource('nag', 'museca').fetch(context({ signal: deadline.signal })));
    expect(e.status).toBe(504);
    expect(e.message).toMatch(/^The sync was stopped before CG \(nag\) answered/);

    const cancelled = new AbortController();
    cancelled.abort(new FromApiError(499, 'The import was cancelled.'));
    const c = await fatal(createCgSource('nag', 'museca').fetch(context({ signal: cancelled.signal })));
    expect([c.status, c.message]).toEqual([499, 'The import was cancelled.']);
  });

  it('a CG that cannot be reached is 502, naming no URL', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const e = await fatal(createCgSource('dev', 'sdvx').fetch(context({ config: { url: `http://127.0.0.1:${port}`, apiKey: cg.apiKey } })));
    expect([e.status, e.message]).toEqual([502, 'Could not reach CG (dev) (ECONNREFUSED). Is it down? Try again later.']);
  });

  it('an answer larger than the limit (64 MB; 2 MB here) is 502, whether its length is declared or it just keeps coming', async () => {
    expect(CG_MAX_BODY_BYTES).toBe(64 * 1024 * 1024);
    const LIMIT = 2 * 1024 * 1024;
    const chunk = Buffer.alloc(256 * 1024, 0x20);
    const huge = http.createServer((req, res) => {
      if (req.url?.startsWith('/sdvx-scores')) {
        // Declared: refused before the body is read.
        res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': String(LIMIT + 1) });
        res.write(chunk);
        return;
      }
      // Streamed without a length: refused once past the limit.
      res.writeHead(200, { 'Content-Type': 'application/json' });
      let sent = 0;
      const more = () => {
        while (sent <= LIMIT + chunk.length) {
          sent += chunk.length;
          if (!res.write(chunk)) return res.once('drain', more);
        }
        res.end();
      };
      res.on('close', () => res.removeAllListeners('drain'));
      more();
    });
    await new Promise<void>((resolve) => huge.listen(0, '127.0.0.1', resolve));
    const { port } = huge.address() as AddressInfo;
    try {
      const config = { url: `http://127.0.0.1:${port}`, apiKey: cg.apiKey };
      const declared = await fatal(createCgSource('dev', 'sdvx', { maxBodyBytes: LIMIT }).fetch(context({ config })));
      expect([declared.status, declared.message]).toEqual([502, 'CG (dev) sent an answer larger than 2 MB.']);
      const streamed = await fatal(createCgSource('dev', 'popn', { maxBodyBytes: LIMIT }).fetch(context({ config })));
      expect([streamed.status, streamed.message]).toEqual([502, 'CG (dev) sent an answer larger than 2 MB.']);
    } finally {
      huge.closeAllConnections();
      await new Promise<void>((resolve) => huge.close(() => resolve()));
    }
  });

  it('a redirect is 502, not followed', async () => {
    const redirecting = http.createServer((_req, res) => {
      res.writeHead(302, { Location: `${cg.url}/sdvx-scores` });
      res.end();
    });
    await new Promise<void>((resolve) => redirecting.listen(0, '127.0.0.1', resolve));
    const { port } = redirecting.address() as AddressInfo;
    const before = cg.requests.length;
    try {
      const e = await fatal(createCgSource('dev', 'sdvx').fetch(context({ config: { url: `http://127.0.0.1:${port}`, apiKey: cg.apiKey } })));
      expect([e.status, e.message]).toEqual([502, 'CG (dev) answered with a redirect (HTTP 302) instead of the plays.']);
      expect(cg.requests.length).toBe(before);
    } finally {
      await new Promise<void>((resolve) => redirecting.close(() => resolve()));
    }
  });
});
