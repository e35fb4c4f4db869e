import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import * as grpc from '@grpc/grpc-js';
import { FromApiError, type FromApiFetchContext, type FromApiSource } from '../../src/integrations/from-api/source.js';
import { mytSources, type MytConfig, type MytCredentials } from '../../src/integrations/myt/index.js';
import { mytService } from '../../src/integrations/myt/myt-protos.js';
import { convertChunithm } from '../../src/imports/import-types/api-myt/chunithm.js';
import { convertWacca } from '../../src/imports/import-types/api-myt/wacca.js';
import { mytPlays, startFakeMytServer, type FakeMytServer } from '../support/fake-myt-server.js';

const CARD = '01234567890123456789';
const OTHER_CARD = '98765432109876543210';

function source(importType: string): FromApiSource<MytCredentials, MytConfig> {
  const found = mytSources.find((s) => s.importType === importType);
  if (!found) throw new Error(`no source ${importType}`);
  return found as FromApiSource<MytCredentials, MytConfig>;
}

/** Runs a source's fetch against the fake, as the sync step would. */
async function fetchFrom(
  fake: FakeMytServer,
  importType: string,
  options: { cursor?: unknown; card?: string; authToken?: string; tlsCa?: Buffer | null; requestTimeoutMs?: number; signal?: AbortSignal } = {},
) {
  const ctx: FromApiFetchContext<MytCredentials, MytConfig> = {
    userID: 1,
    credentials: { cardAccessCode: options.card ?? CARD },
    saveCredentials: () => Promise.reject(new Error('MYT never changes credentials')),
    config: { host: fake.host, authToken: options.authToken ?? fake.authToken, tlsCa: options.tlsCa === undefined ? fake.tlsCa : options.tlsCa },
    cursor: options.cursor ?? null,
    signal: options.signal ?? new AbortController().signal,
    requestTimeoutMs: options.requestTimeoutMs ?? 5000,
    userAgent: 'score-tracker-test/1.2.3',
  };
  return source(importType).fetch(ctx);
}

async function fetchError(promise: Promise<unknown>): Promise<FromApiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof FromApiError)) throw new Error(`expected a FromApiError, got ${String(error)}`);
  return error;
}

const idsOf = (items: unknown[]) => items.map((i) => (i as { playlog_api_id: string }).playlog_api_id).sort();

describe('MYT sources against the fake MYT (gRPC over TLS)', () => {
  let fake: FakeMytServer;

  beforeAll(async () => {
    fake = await startFakeMytServer();
    fake.addCard(CARD, { chunithm: 'chu-1', maimai: 'mai-1', ongeki: 'ong-1', wacca: 'wac-1' });
    fake.addCard(OTHER_CARD, { chunithm: 'chu-2' });
    fake.addPlays('chunithm', 'chu-1', [
      mytPlays.chunithm('c2', { user_play_date: '2026-11-21T20:00:00+09:00' }),
      mytPlays.chunithm('c1', { user_play_date: '2026-11-20T20:00:00+09:00' }),
      mytPlays.chunithm('c3', { user_play_date: '2026-11-22T09:30:00+09:00' }),
    ]);
    fake.addPlays('maimai', 'mai-1', [mytPlays.maimai('m1'), mytPlays.maimai('m2', { user_play_date: '2026-11-21T20:00:00+09:00' })]);
    fake.addPlays('ongeki', 'ong-1', [mytPlays.ongeki('o1')]);
    fake.addPlays('wacca', 'wac-1', [
      mytPlays.wacca('w1', { user_play_date: '2026-11-20T20:00:00+09:00' }),
      mytPlays.wacca('w2', { user_play_date: '2026-11-22T20:00:00+09:00' }),
    ]);
    fake.setWaccaData('wac-1', { user_name: 'PLAYER', version_data: { 4: { rank: 9 }, 5: { rank: 11 } } });
  });
  afterAll(() => fake.close());
  afterEach(() => {
    Object.assign(fake.switches, {
      notFound: false,
      failAfterItems: null,
      stallAfterItems: null,
      stallMs: null,
      unspecifiedEnums: false,
      dataError: false,
      slowLookupMs: null,
    });
    fake.calls.length = 0;
  });

  it('looks the card up, streams every play on a first sync, and returns the newest play date as the cursor', async () => {
    const result = await fetchFrom(fake, 'api/myt-chunithm');
    expect(idsOf(result.items)).toEqual(['c1', 'c2', 'c3']);
    expect(result.cursor).toBe('2026-11-22T09:30:00+09:00');
    expect(result.emptyReason).toBeUndefined();
    expect(result.classes).toBeUndefined();
    const [lookup, playlog] = fake.calls;
    expect(lookup.method).toBe('Lookup');
    expect(lookup.request).toMatchObject({ access_code: CARD, titles: ['chunithm'] });
    expect(playlog.method).toBe('chunithm/GetPlaylog');
    expect(playlog.request.profile_api_id).toBe('chu-1');
    // A first sync asks from the beginning.
    expect(playlog.request.last_user_play_date ?? null).toBeNull();
    for (const call of fake.calls) {
      expect(call.authorization).toBe(`Bearer ${fake.authToken}`);
      expect(call.userAgent).toContain('score-tracker-test/1.2.3');
    }
  });

  it('asks only for plays after the cursor on the next sync, and says why when there are none', async () => {
    const next = await fetchFrom(fake, 'api/myt-chunithm', { cursor: '2026-11-21T20:00:00+09:00' });
    expect(fake.calls[1].request.last_user_play_date).toBe('2026-11-21T20:00:00+09:00');
    expect(idsOf(next.items)).toEqual(['c3']);
    expect(next.cursor).toBe('2026-11-22T09:30:00+09:00');

    const none = await fetchFrom(fake, 'api/myt-chunithm', { cursor: next.cursor });
    expect(none.items).toEqual([]);
    // The cursor stays where it was, and the reason names the last sync.
    expect(none.cursor).toBe('2026-11-22T09:30:00+09:00');
    expect(none.emptyReason).toBe('No CHUNITHM plays on MYT since your last sync (its newest play was on 2026-11-22T09:30:00+09:00).');
  });

  it('says the profile has no plays when a first sync finds none, and a cursor that is no date starts again', async () => {
    const empty = await fetchFrom(fake, 'api/myt-chunithm', { card: OTHER_CARD });
    expect(empty).toEqual({ items: [], cursor: null, emptyReason: 'Your MYT CHUNITHM profile has no plays.' });
    const again = await fetchFrom(fake, 'api/myt-chunithm', { cursor: { not: 'a date' } });
    expect(idsOf(again.items)).toEqual(['c1', 'c2', 'c3']);
  });

  it('maps NOT_FOUND on the card lookup to a 401 "card not found"', async () => {
    const unknown = await fetchError(fetchFrom(fake, 'api/myt-chunithm', { card: '11111111111111111111' }));
    expect([unknown.status, unknown.message]).toEqual([401, 'Card not found on MYT: check the access code linked under your integrations.']);
    fake.switches.notFound = true;
    const switched = await fetchError(fetchFrom(fake, 'api/myt-chunithm'));
    expect(switched.status).toBe(401);
    expect(switched.message).toMatch(/card not found on MYT/i);
  });

  it('answers 400 when the card has no profile of the game, naming the game', async () => {
    const error = await fetchError(fetchFrom(fake, 'api/myt-ongeki', { card: OTHER_CARD }));
    expect(error.status).toBe(400);
    expect(error.message).toBe("Couldn't find a O.N.G.E.K.I. profile on MYT for your card: play O.N.G.E.K.I. on it first.");
  });

  it('refuses a wrong auth token (UNAUTHENTICATED) with a 502 that names the setting, never the token or the host', async () => {
    const error = await fetchError(fetchFrom(fake, 'api/myt-chunithm', { authToken: 'wrong-secret-token' }));
    expect(error.status).toBe(502);
    expect(error.message).toBe("MYT refused this server's credentials while looking up your card: an administrator must check MYT_AUTH_TOKEN.");
    expect(error.message).not.toContain('wrong-secret-token');
    expect(error.message).not.toContain(fake.host);
  });

  it('fails the whole fetch on a mid-stream error, with a generic message that leaks no address', async () => {
    fake.switches.failAfterItems = 1;
    const error = await fetchError(fetchFrom(fake, 'api/myt-chunithm'));
    expect(error.status).toBe(502);
    expect(error.message).toBe('MYT answered with an error while streaming your plays. Try again later.');
    expect(error.message).not.toMatch(/myt-db-7|internal:5432|localhost|127\.0\.0\.1/);
  });

  it('stops a stream that falls silent for longer than the request timeout (504) and cancels it', async () => {
    fake.switches.stallAfterItems = 1;
    const started = Date.now();
    const error = await fetchError(fetchFrom(fake, 'api/myt-chunithm', { requestTimeoutMs: 400 }));
    expect(error.status).toBe(504);
    expect(error.message).toBe('MYT sent nothing for 0.4 s while streaming your plays; the sync was stopped. Nothing was imported.');
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('gives the card lookup a deadline of the request timeout (504)', async () => {
    fake.switches.slowLookupMs = 3000;
    const started = Date.now();
    const error = await fetchError(fetchFrom(fake, 'api/myt-chunithm', { requestTimeoutMs: 300 }));
    expect([error.status, error.message]).toEqual([504, 'MYT did not answer within 0.3 s while looking up your card. Try again later.']);
    expect(Date.now() - started).toBeLessThan(2500);
  });

  it('keeps a slow stream that never stays silent past the timeout', async () => {
    fake.switches.stallAfterItems = 1;
    fake.switches.stallMs = 150;
    const result = await fetchFrom(fake, 'api/myt-chunithm', { requestTimeoutMs: 1000 });
    expect(idsOf(result.items)).toEqual(['c1', 'c2', 'c3']);
  });

  it("cancels the stream when the sync's signal aborts, with the signal's reason", async () => {
    fake.switches.stallAfterItems = 1;
    const controller = new AbortController();
    const pending = fetchFrom(fake, 'api/myt-chunithm', { signal: controller.signal, requestTimeoutMs: 60_000 });
    setTimeout(() => controller.abort(new FromApiError(504, 'The sync ran past its deadline.')), 200);
    const error = await fetchError(pending);
    expect([error.status, error.message]).toEqual([504, 'The sync ran past its deadline.']);
    const aborted = await fetchError(fetchFrom(fake, 'api/myt-chunithm', { signal: AbortSignal.abort() }));
    expect(aborted.status).toBe(504);
    expect(aborted.message).toMatch(/stopped/);
  });

  it('passes UNSPECIFIED enums through as items, which convert into per-item errors', async () => {
    fake.switches.unspecifiedEnums = true;
    const result = await fetchFrom(fake, 'api/myt-chunithm');
    expect(result.items).toHaveLength(3);
    expect(convertChunithm(result.items[0])).toEqual({ kind: 'error', message: expect.stringMatching(/^playlog c\d: level is UNSPECIFIED\.$/) });
    const wacca = await fetchFrom(fake, 'api/myt-wacca');
    expect(convertWacca(wacca.items[0])).toEqual({ kind: 'error', message: expect.stringMatching(/music_difficulty is UNSPECIFIED/) });
  });

  it('reads the stream items as the converters expect (snake_case, enums by name)', async () => {
    const { items } = await fetchFrom(fake, 'api/myt-maimaidx');
    const m2 = items.find((i) => (i as { playlog_api_id: string }).playlog_api_id === 'm2');
    expect(m2).toEqual(mytPlays.maimai('m2', { user_play_date: '2026-11-21T20:00:00+09:00' }));
    const ongeki = await fetchFrom(fake, 'api/myt-ongeki');
    expect(ongeki.items).toEqual([mytPlays.ongeki('o1')]);
  });

  it("WACCA: reads the stage-up from GetData (PLUS's before REVERSE's) and drops plays up to the cursor itself", async () => {
    const first = await fetchFrom(fake, 'api/myt-wacca');
    expect(first.classes).toEqual({ stageUp: 'XI' });
    expect(idsOf(first.items)).toEqual(['w1', 'w2']);
    expect(first.cursor).toBe('2026-11-22T20:00:00+09:00');
    const next = await fetchFrom(fake, 'api/myt-wacca', { cursor: '2026-11-21T00:00:00+09:00' });
    // WACCA's request carries no date: the whole history streams, and the source keeps the later play.
    expect(fake.calls.find((c) => c.method === 'wacca/GetPlaylog')?.request).toEqual({ api_id: 'wac-1' });
    expect(idsOf(next.items)).toEqual(['w2']);
  });

  it('WACCA: a failed GetData leaves the class out and still syncs the plays', async () => {
    fake.switches.dataError = true;
    const result = await fetchFrom(fake, 'api/myt-wacca');
    expect(result.classes).toBeUndefined();
    expect(result.items).toHaveLength(2);
  });

  it('trusts only the configured CA: without it the TLS handshake fails (502, no address)', async () => {
    const error = await fetchError(fetchFrom(fake, 'api/myt-chunithm', { tlsCa: null }));
    expect(error.status).toBe(502);
    expect(error.message).toBe('MYT could not be reached while looking up your card. Try again later.');
  });

  it('answers 502 "could not be reached" when nothing listens at the host', async () => {
    const gone = await startFakeMytServer();
    const host = gone.host;
    await gone.close();
    const error = await fetchError(fetchFrom({ ...fake, host }, 'api/myt-chunithm'));
    expect([error.status, error.message]).toEqual([502, 'MYT could not be reached while looking up your card. Try again later.']);
  });

  it('the fake honours limit: the oldest plays after the date, at most that many', async () => {
    const Client = mytService('mythos.chunithm.v0.ChunithmUser');
    const client = new Client(fake.host, grpc.credentials.createSsl(fake.tlsCa));
    const metadata = new grpc.Metadata();
    metadata.set('authorization', `Bearer ${fake.authToken}`);
    const items: unknown[] = [];
    await new Promise<void>((resolve, reject) => {
      const call = (client as unknown as Record<string, (r: unknown, m: grpc.Metadata) => grpc.ClientReadableStream<unknown>>).GetPlaylog(
        { profile_api_id: 'chu-1', last_user_play_date: '2026-11-20T20:00:00+09:00', limit: 1 },
        metadata,
      );
      call.on('data', (item) => items.push(item));
      call.on('error', reject);
      call.on('end', resolve);
    });
    client.close();
    expect(idsOf(items)).toEqual(['c2']);
  });
});
