import * as grpc from '@grpc/grpc-js';
import * as x509 from '@peculiar/x509';
import { randomBytes, type webcrypto } from 'node:crypto';
import { mytService } from '../../src/integrations/myt/myt-protos.js';

/** The title kinds of MYT's card lookup. */
export type MytTitleKind = 'chunithm' | 'maimai' | 'ongeki' | 'wacca';

/** The enum fields of each game's PlaylogInfo, which the `unspecifiedEnums` switch sends as 0 (UNSPECIFIED). */
const INFO_ENUMS: Record<MytTitleKind, string[]> = {
  chunithm: ['level', 'score_rank', 'combo_status', 'full_chain_status', 'clear_status'],
  maimai: ['level', 'score_rank', 'combo_status', 'sync_status'],
  ongeki: ['level', 'tech_score_rank', 'battle_score_rank', 'combo_status', 'clear_status'],
  wacca: ['music_difficulty', 'grade', 'user_play_mode'],
};

/** The failures the fake plays; change them at any time (they apply to the next call). */
export interface FakeMytSwitches {
  /** Lookup answers NOT_FOUND for every card. */
  notFound: boolean;
  /** GetPlaylog fails with INTERNAL (its details naming an internal host) after sending this many items. */
  failAfterItems: number | null;
  /** GetPlaylog sends this many items, then falls silent for `stallMs` (forever when null) before the rest. */
  stallAfterItems: number | null;
  stallMs: number | null;
  /** Every play is sent with its info's enums as 0 (UNSPECIFIED). */
  unspecifiedEnums: boolean;
  /** WACCA's GetData fails with INTERNAL. */
  dataError: boolean;
  /** Lookup answers only after this many ms (past a client's deadline). */
  slowLookupMs: number | null;
}

export interface FakeMytCall {
  method: string;
  request: Record<string, unknown>;
  authorization: string | undefined;
  userAgent: string | undefined;
}

export interface FakeMytServer {
  /** host:port for MYT_API_HOST. */
  host: string;
  /** The CA that signed the server's certificate (PEM), for MYT_TLS_CA. */
  tlsCa: Buffer;
  /** The bearer token the fake accepts; any other gets UNAUTHENTICATED. */
  authToken: string;
  switches: FakeMytSwitches;
  /** Every call received, in order. */
  calls: FakeMytCall[];
  /** A card and its profiles (title kind → the profile's api id). */
  addCard(accessCode: string, titles: Partial<Record<MytTitleKind, string>>): void;
  /** Plays of a profile, as GetPlaylog's stream items (snake_case fields, enums by name or number). */
  addPlays(kind: MytTitleKind, titleApiId: string, items: Record<string, unknown>[]): void;
  /** WACCA's GetData answer for a profile. */
  setWaccaData(titleApiId: string, data: Record<string, unknown>): void;
  close(): Promise<void>;
}

const EC = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };

async function ecKeys(): Promise<webcrypto.CryptoKeyPair> {
  return (await crypto.subtle.generateKey(EC, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
}

/** A throwaway CA and a certificate it signed for localhost and 127.0.0.1, valid for a day (PEM). */
async function certificates(): Promise<{ ca: string; key: string; cert: string }> {
  const notBefore = new Date(Date.now() - 60_000);
  const notAfter = new Date(Date.now() + 24 * 60 * 60 * 1000);
  const caKeys = await ecKeys();
  const ca = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: randomBytes(8).toString('hex').replace(/^./, '1'),
    name: 'CN=Fake MYT test CA',
    notBefore,
    notAfter,
    keys: caKeys,
    signingAlgorithm: EC,
    extensions: [
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(caKeys.publicKey),
    ],
  });
  const serverKeys = await ecKeys();
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: randomBytes(8).toString('hex').replace(/^./, '1'),
    subject: 'CN=localhost',
    issuer: ca.subject,
    notBefore,
    notAfter,
    publicKey: serverKeys.publicKey,
    signingKey: caKeys.privateKey,
    signingAlgorithm: EC,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
      new x509.SubjectAlternativeNameExtension([
        { type: 'dns', value: 'localhost' },
        { type: 'ip', value: '127.0.0.1' },
      ]),
      await x509.AuthorityKeyIdentifierExtension.create(caKeys.publicKey),
    ],
  });
  const key = x509.PemConverter.encode(await crypto.subtle.exportKey('pkcs8', serverKeys.privateKey), 'PRIVATE KEY');
  return { ca: ca.toString('pem'), key, cert: cert.toString('pem') };
}

const fail = (code: grpc.status, details: string): Partial<grpc.StatusObject> => ({ code, details });

/**
 * A real MYT over gRPC and TLS on loopback: the card lookup, the four playlog streams (honouring
 * last_user_play_date and limit) and WACCA's GetData, with a switch for each failure. Port 0 by default.
 */
export async function startFakeMytServer(options: { authToken?: string; port?: number } = {}): Promise<FakeMytServer> {
  const authToken = options.authToken ?? 'fake-myt-token';
  const pems = await certificates();
  const cards = new Map<string, Partial<Record<MytTitleKind, string>>>();
  const plays = new Map<string, Record<string, unknown>[]>();
  const waccaData = new Map<string, Record<string, unknown>>();
  const switches: FakeMytSwitches = {
    notFound: false,
    failAfterItems: null,
    stallAfterItems: null,
    stallMs: null,
    unspecifiedEnums: false,
    dataError: false,
    slowLookupMs: null,
  };
  const calls: FakeMytCall[] = [];
  const timers = new Set<NodeJS.Timeout>();

  /** Records the call; false (after answering UNAUTHENTICATED) when its token is not the fake's. */
  const admit = (method: string, call: grpc.ServerUnaryCall<unknown, unknown> | grpc.ServerWritableStream<unknown, unknown>): boolean => {
    const authorization = call.metadata.get('authorization')[0]?.toString();
    calls.push({ method, request: call.request as Record<string, unknown>, authorization, userAgent: call.metadata.get('user-agent')[0]?.toString() });
    return authorization === `Bearer ${authToken}`;
  };
  const unauthenticated = fail(grpc.status.UNAUTHENTICATED, 'invalid bearer token');

  const server = new grpc.Server();
  server.addService(mytService('mythos.cards.v0.Cards').service, {
    Lookup(call: grpc.ServerUnaryCall<{ access_code: string; titles: string[] }, unknown>, callback: grpc.sendUnaryData<unknown>) {
      if (!admit('Lookup', call)) return callback(unauthenticated);
      const card = cards.get(call.request.access_code);
      if (switches.notFound || !card) return callback(fail(grpc.status.NOT_FOUND, 'card not found'));
      const wanted = call.request.titles.length ? call.request.titles : Object.keys(card);
      const titles = Object.entries(card)
        .filter(([kind]) => wanted.includes(kind))
        .map(([kind, id]) => ({ title_kind: kind, title_api_id: id }));
      const answer = { player_api_id: `player-${call.request.access_code.slice(-4)}`, titles };
      if (switches.slowLookupMs === null) return callback(null, answer);
      const timer = setTimeout(() => {
        timers.delete(timer);
        callback(null, answer);
      }, switches.slowLookupMs);
      timers.add(timer);
    },
  });

  const playlog = (kind: MytTitleKind) => (call: grpc.ServerWritableStream<Record<string, unknown>, unknown>) => {
    if (!admit(`${kind}/GetPlaylog`, call)) return void call.emit('error', unauthenticated);
    const request = call.request;
    const apiId = String(kind === 'wacca' ? request.api_id : request.profile_api_id);
    const since = typeof request.last_user_play_date === 'string' && request.last_user_play_date !== '' ? Date.parse(request.last_user_play_date) : null;
    const dateOf = (item: Record<string, unknown>) => Date.parse(String((item.info as { user_play_date?: string } | null)?.user_play_date));
    let items = (plays.get(`${kind}:${apiId}`) ?? []).filter((item) => since === null || dateOf(item) > since);
    if (request.limit !== undefined && request.limit !== null) items = [...items].sort((a, b) => dateOf(a) - dateOf(b)).slice(0, Number(request.limit));
    if (switches.unspecifiedEnums) {
      items = items.map((item) => ({ ...item, info: { ...(item.info as object), ...Object.fromEntries(INFO_ENUMS[kind].map((f) => [f, 0])) } }));
    }
    const { failAfterItems, stallAfterItems, stallMs } = switches;
    let sent = 0;
    const next = () => {
      if (call.cancelled) return;
      if (failAfterItems !== null && sent === failAfterItems) {
        call.emit('error', fail(grpc.status.INTERNAL, 'database error at myt-db-7.internal:5432'));
        return;
      }
      if (sent === items.length) return call.end();
      call.write(items[sent]);
      sent += 1;
      if (stallAfterItems !== null && sent === stallAfterItems) {
        if (stallMs === null) return; // silent until the client gives up
        const timer = setTimeout(() => {
          timers.delete(timer);
          next();
        }, stallMs);
        timers.add(timer);
        return;
      }
      setImmediate(next);
    };
    next();
  };

  server.addService(mytService('mythos.chunithm.v0.ChunithmUser').service, { GetPlaylog: playlog('chunithm') });
  server.addService(mytService('mythos.maimai.v0.MaimaiUser').service, { GetPlaylog: playlog('maimai') });
  server.addService(mytService('mythos.ongeki.v0.OngekiUser').service, { GetPlaylog: playlog('ongeki') });
  server.addService(mytService('mythos.wacca.v0.WaccaUser').service, {
    GetPlaylog: playlog('wacca'),
    GetData(call: grpc.ServerUnaryCall<{ api_id: string }, unknown>, callback: grpc.sendUnaryData<unknown>) {
      if (!admit('wacca/GetData', call)) return callback(unauthenticated);
      if (switches.dataError) return callback(fail(grpc.status.INTERNAL, 'database error at myt-db-7.internal:5432'));
      const data = waccaData.get(call.request.api_id);
      if (!data) return callback(fail(grpc.status.NOT_FOUND, 'no such profile'));
      callback(null, data);
    },
  });

  const credentials = grpc.ServerCredentials.createSsl(
    Buffer.from(pems.ca),
    [{ private_key: Buffer.from(pems.key), cert_chain: Buffer.from(pems.cert) }],
    false,
  );
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync(`127.0.0.1:${options.port ?? 0}`, credentials, (error, bound) => (error ? reject(error) : resolve(bound))),
  );

  return {
    host: `localhost:${port}`,
    tlsCa: Buffer.from(pems.ca),
    authToken,
    switches,
    calls,
    addCard: (accessCode, titles) => cards.set(accessCode, { ...cards.get(accessCode), ...titles }),
    addPlays: (kind, titleApiId, items) => plays.set(`${kind}:${titleApiId}`, [...(plays.get(`${kind}:${titleApiId}`) ?? []), ...items]),
    setWaccaData: (titleApiId, data) => waccaData.set(titleApiId, data),
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        // Ends the calls still open (a stalled stream) at once; tryShutdown alone leaves the process held.
        server.forceShutdown();
        resolve();
      }),
  };
}

/** The PlaylogStreamItem builders of each game, with every field the converters read (override what a test needs). */
export const mytPlays = {
  chunithm(id: string, info: Record<string, unknown> = {}, judge: Record<string, unknown> = {}) {
    return {
      playlog_api_id: id,
      info: {
        music_id: 1,
        level: 'CHUNITHM_LEVEL_MASTER',
        score: 1_005_000,
        score_rank: 'CHUNITHM_SCORE_RANK_SS_PLUS',
        combo_status: 'CHUNITHM_COMBO_STATUS_NONE',
        full_chain_status: 'CHUNITHM_FULL_CHAIN_STATUS_NONE',
        clear_status: 'CHUNITHM_CLEAR_STATUS_CLEAR',
        is_new_record: false,
        track: 1,
        user_play_date: '2026-11-20T20:00:00+09:00',
        ...info,
      },
      judge: { judge_heaven: 0, judge_critical: 900, judge_justice: 90, judge_attack: 8, judge_miss: 2, max_combo: 400, ...judge },
    };
  },
  maimai(id: string, info: Record<string, unknown> = {}, judge: Record<string, unknown> = {}) {
    return {
      playlog_api_id: id,
      info: {
        music_id: 11_000,
        level: 'MAIMAI_LEVEL_MASTER',
        achievement: 987_654,
        deluxscore: 2000,
        score_rank: 'MAIMAI_SCORE_RANK_S_PLUS',
        combo_status: 'MAIMAI_COMBO_STATUS_NONE',
        sync_status: 'MAIMAI_SYNC_STATUS_NONE',
        is_clear: true,
        is_achieve_new_record: false,
        is_deluxscore_new_record: false,
        track: 1,
        user_play_date: '2026-11-20T20:00:00+09:00',
        ...info,
      },
      judge: {
        judge_critical_perfect: 500,
        judge_perfect: 200,
        judge_great: 30,
        judge_good: 5,
        judge_miss: 3,
        max_combo: 300,
        fast_count: 12,
        late_count: 21,
        ...judge,
      },
    };
  },
  ongeki(id: string, info: Record<string, unknown> = {}, judge: Record<string, unknown> = {}) {
    return {
      playlog_api_id: id,
      info: {
        music_id: 100,
        level: 'ONGEKI_LEVEL_MASTER',
        tech_score: 1_000_500,
        battle_score: 500_000,
        over_damage: 250,
        platinum_score: 1800,
        tech_score_rank: 'ONGEKI_TECH_SCORE_RANK_SS_PLUS',
        battle_score_rank: 'ONGEKI_BATTLE_SCORE_RANK_GREAT',
        combo_status: 'ONGEKI_COMBO_STATUS_FULL_COMBO',
        clear_status: 'ONGEKI_CLEAR_STATUS_CLEARED',
        is_full_bell: true,
        is_tech_new_record: true,
        is_battle_new_record: false,
        is_over_damage_new_record: false,
        user_play_date: '2026-11-20T20:00:00+09:00',
        ...info,
      },
      judge: {
        judge_critical_break: 950,
        judge_break: 40,
        judge_hit: 3,
        judge_miss: 0,
        max_combo: 993,
        bell_count: 120,
        total_bell_count: 120,
        damage_count: 0,
        ...judge,
      },
    };
  },
  wacca(id: string, info: Record<string, unknown> = {}) {
    return {
      playlog_api_id: id,
      info: {
        music_id: 1001,
        music_difficulty: 'WACCA_MUSIC_DIFFICULTY_EXPERT',
        score: 975_000,
        grade: 'WACCA_MUSIC_SCORE_GRADE_SSS',
        judge: { marvelous: 600, great: 40, good: 5, miss: 0 },
        clear_status: { is_clear: true, is_missless: true, is_full_combo: true, is_all_marvelous: false, is_give_up: false },
        is_new_record: true,
        combo: 645,
        skill_points: 300,
        fast: 20,
        late: 25,
        user_play_mode: 'WACCA_PLAY_MODE_SINGLE',
        track: 1,
        user_play_date: '2026-11-20T20:00:00+09:00',
        ...info,
      },
    };
  },
};
