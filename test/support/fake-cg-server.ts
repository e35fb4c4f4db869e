import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local CG: `GET /{sdvx,popn,msc,jb,iidx}-scores?api_key&card_id&pin` answers every play of the card
 * in one body, `{success: true, data: {profile: {id, name}, scores}}`, or `{success: false, message}`
 * for a wrong API key, an unknown card or a wrong PIN. The switches play CG's failures and odd plays;
 * `addPlay` adds plays (`cgPlays` builds them). Used by the tests and `npm run dev:services`.
 */

/** CG's name of a game in its path. */
export type CgPath = 'sdvx' | 'popn' | 'msc' | 'jb' | 'iidx';

export interface FakeCgSwitches {
  /** Refuse every PIN, as CG does for a wrong one (`success: false`, CG's message naming the PIN sent). */
  wrongPin: boolean;
  /** Answer an HTML page (a proxy's error page) with status 200. */
  htmlBody: boolean;
  /** Add one malformed play (a string score, no dateTime) to every answer. */
  malformedItem: boolean;
  /** Add one pop'n battle mode play (difficulty 4, a score above 100,000) to pop'n answers. */
  popnBattle: boolean;
  /** Add one jubeat play of version 10 (festo) to jubeat answers. */
  jubeatVersion10: boolean;
  /** Answer with this HTTP status and a JSON error body instead of the plays (0: off). */
  status: number;
  /** Wait this long before answering (ms; 0: at once), to play a slow CG. */
  delayMs: number;
  /** Answer `{success: true}` without data (a shape CG never sends). */
  wrongShape: boolean;
}

export interface FakeCgServer {
  /** Base URL, as CG_<SERVICE>_URL. */
  url: string;
  apiKey: string;
  switches: FakeCgSwitches;
  /** Every request received (its path and query, and its User-Agent), in order. */
  requests: { url: URL; userAgent: string | undefined }[];
  /** Registers a card (16 alphanumerics) with its PIN (4 digits) and the profile name CG reports. */
  addCard(cardID: string, pin: string, name?: string): void;
  /** Adds plays of a card for one game (the card must be added first). */
  addPlay(game: CgPath, cardID: string, ...plays: Record<string, unknown>[]): void;
  close(): Promise<void>;
}

const DEFAULT_SWITCHES: FakeCgSwitches = {
  wrongPin: false,
  htmlBody: false,
  malformedItem: false,
  popnBattle: false,
  jubeatVersion10: false,
  status: 0,
  delayMs: 0,
  wrongShape: false,
};

const PATHS = new Set<string>(['sdvx', 'popn', 'msc', 'jb', 'iidx']);

/** Plays in CG's shape, one builder per game; every field can be overridden. */
export const cgPlays = {
  sdvx: (o: Record<string, unknown> = {}) => ({
    internalId: 1,
    difficulty: 2,
    version: 6,
    score: 9_123_000,
    exScore: 1234,
    clearType: 2,
    scoreGrade: 6,
    maxChain: 300,
    critical: 100,
    near: 50,
    error: 10,
    dateTime: '2024-05-01 18:30:00',
    ...o,
  }),
  popn: (o: Record<string, unknown> = {}) => ({
    internalId: 1000,
    difficulty: 2,
    version: 27,
    clearFlag: 6,
    score: 95_000,
    coolCount: 500,
    greatCount: 100,
    goodCount: 20,
    badCount: 10,
    dateTime: '2024-05-01 18:30:00',
    ...o,
  }),
  msc: (o: Record<string, unknown> = {}) => ({
    internalId: 10,
    difficulty: 2,
    version: 2,
    score: 900_000,
    clearType: 3,
    scoreGrade: 5,
    maxChain: 400,
    critical: 380,
    near: 15,
    error: 5,
    dateTime: '2024-05-01 18:30:00',
    ...o,
  }),
  jb: (o: Record<string, unknown> = {}) => ({
    internalId: 50000001,
    difficulty: 2,
    version: 11,
    clearFlag: 2,
    score: 950_000,
    hardMode: false,
    perfectCount: 400,
    greatCount: 50,
    goodCount: 10,
    poorCount: 5,
    missCount: 3,
    musicRate: 955,
    dateTime: '2024-05-01 18:30:00',
    ...o,
  }),
  iidx: (o: Record<string, unknown> = {}) => ({
    version: 31,
    internalId: 1017,
    difficulty: 'SPA',
    exScore: 1500,
    clearType: 4,
    perfectCount: 600,
    greatCount: 300,
    missCount: 12,
    dead: 0,
    ghost: '',
    ghostGauge: '',
    option1: 0,
    option2: 0,
    dateTime: '2024-05-01 18:30:00',
    ...o,
  }),
};

export async function startFakeCgServer(options: { apiKey?: string; host?: string } = {}): Promise<FakeCgServer> {
  const apiKey = options.apiKey ?? 'fake-cg-api-key-0123456789';
  const cards = new Map<string, { pin: string; name: string; plays: Map<string, Record<string, unknown>[]> }>();
  const requests: { url: URL; userAgent: string | undefined }[] = [];
  const switches: FakeCgSwitches = { ...DEFAULT_SWITCHES };

  const answer = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(body));
  };

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake-cg');
    requests.push({ url, userAgent: req.headers['user-agent'] });
    const respond = () => {
      const game = /^\/([a-z]+)-scores$/.exec(url.pathname)?.[1];
      if (req.method !== 'GET' || !game || !PATHS.has(game)) return answer(res, 404, { success: false, message: 'Not found.' });
      if (switches.htmlBody) {
        res.writeHead(200, { 'Content-Type': 'text/html' });
        return res.end('<!doctype html><html><body><h1>502 Bad Gateway</h1></body></html>');
      }
      if (switches.status) return answer(res, switches.status, { error: 'Internal Server Error' });
      if (url.searchParams.get('api_key') !== apiKey) return answer(res, 403, { success: false, message: 'Invalid API key.' });
      const card = cards.get(url.searchParams.get('card_id') ?? '');
      if (!card) return answer(res, 404, { success: false, message: 'No profile exists for this card.' });
      const pin = url.searchParams.get('pin') ?? '';
      if (switches.wrongPin || pin !== card.pin) return answer(res, 401, { success: false, message: `Incorrect PIN ${pin} for this card.` });
      if (switches.wrongShape) return answer(res, 200, { success: true });

      const scores: unknown[] = [...(card.plays.get(game) ?? [])];
      if (switches.malformedItem) scores.push({ internalId: 'one', score: 'lots', difficulty: null });
      if (switches.popnBattle && game === 'popn') scores.push(cgPlays.popn({ difficulty: 4, score: 123_456, dateTime: '2024-05-01 18:40:00' }));
      if (switches.jubeatVersion10 && game === 'jb') scores.push(cgPlays.jb({ version: 10, dateTime: '2024-05-01 18:45:00' }));
      answer(res, 200, { success: true, data: { profile: { id: url.searchParams.get('card_id'), name: card.name }, scores } });
    };
    if (switches.delayMs) setTimeout(respond, switches.delayMs).unref();
    else respond();
  });
  await new Promise<void>((resolve) => server.listen(0, options.host ?? '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://${options.host ?? '127.0.0.1'}:${port}`,
    apiKey,
    switches,
    requests,
    addCard(cardID, pin, name = 'PLAYER') {
      cards.set(cardID, { pin, name, plays: new Map() });
    },
    addPlay(game, cardID, ...plays) {
      const card = cards.get(cardID);
      if (!card) throw new Error(`addPlay: no card ${cardID}; addCard it first.`);
      card.plays.set(game, [...(card.plays.get(game) ?? []), ...plays]);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
