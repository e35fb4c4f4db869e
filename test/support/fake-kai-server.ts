import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** Switches for the failures a KAI network can play. */
export interface FakeKaiSwitches {
  /** /oauth/token answers the refresh grant with 400 (the link is no good). */
  refresh400?: boolean;
  /** /oauth/token answers 500. */
  token500?: boolean;
  /** /oauth/token answers with HTML. */
  tokenNonJson?: boolean;
  /** play_history's first page links to another origin. */
  crossOriginNext?: boolean;
  /** play_history's first page links to itself. */
  selfLoop?: boolean;
  /** 500 on this page number (1-based), every time: a sync that fails mid-way. */
  page500?: number;
  /** 401 on this page number (1-based), once. */
  unauthorizedOnPage?: number;
  /** 401 on every page (even after a re-auth). */
  alwaysUnauthorized?: boolean;
  /** play_history pages without `_links`. */
  missingLinks?: boolean;
  /** play_history answers with HTML. */
  nonJsonPage?: boolean;
  /** Delays every play_history page by this many ms. */
  pageDelayMs?: number;
  /** player_profile answers 500. */
  profile500?: boolean;
}

export interface FakeKaiServer {
  url: string;
  clientId: string;
  clientSecret: string;
  switches: FakeKaiSwitches;
  /** Adds plays, newest last (pages serve them newest first). */
  addPlays(game: 'iidx' | 'sdvx', plays: Record<string, unknown>[]): void;
  /** Removes every play of the game (a bench's next round serves new ones). */
  clearPlays(game: 'iidx' | 'sdvx'): void;
  /** The IIDX profile's dans (indices) and SDVX's skill_level. */
  profile: { iidx: { sp: number | null; dp: number | null }; sdvx: { skill_level: number | null } };
  /** Play history requests served (page count), token requests by grant. */
  stats: { pages: number; grants: Record<string, number> };
  /** A code /oauth/token accepts once. */
  issueCode(): string;
  close(): Promise<void>;
}

/**
 * A KAI network (FLO, EAG, MIN) on loopback: /oauth/authorize (302 back with a code), /oauth/token
 * (authorization_code and refresh_token grants), HAL-paged play_history and player_profile for IIDX
 * and SDVX, with a switch for each failure.
 */
export async function startFakeKaiServer(options: { pageSize?: number } = {}): Promise<FakeKaiServer> {
  const pageSize = options.pageSize ?? 100;
  const clientId = 'fake-client';
  const clientSecret = 'fake-secret';
  const plays: Record<'iidx' | 'sdvx', Record<string, unknown>[]> = { iidx: [], sdvx: [] };
  const codes = new Set<string>();
  const tokens = new Map<string, string>(); // access -> refresh
  const refreshes = new Set<string>();
  let counter = 0;
  const switches: FakeKaiSwitches = {};
  const stats = { pages: 0, grants: {} as Record<string, number> };
  const profile = { iidx: { sp: null as number | null, dp: null as number | null }, sdvx: { skill_level: null as number | null } };
  let unauthorizedServed = false;

  const issueTokens = () => {
    counter++;
    const access = `access-${counter}`;
    const refresh = `refresh-${counter}`;
    tokens.set(access, refresh);
    refreshes.add(refresh);
    return { access_token: access, refresh_token: refresh };
  };
  const json = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', `http://${req.headers.host}`);
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      void (async () => {
        if (url.pathname === '/oauth/authorize') {
          const code = fake.issueCode();
          res.writeHead(302, { location: `${url.searchParams.get('redirectUri') ?? url.searchParams.get('redirect_uri')}?code=${code}` });
          return res.end();
        }
        if (url.pathname === '/oauth/token' && req.method === 'POST') {
          const form = new URLSearchParams(raw);
          const grant = form.get('grant_type') ?? '';
          stats.grants[grant] = (stats.grants[grant] ?? 0) + 1;
          if (switches.token500) return json(res, 500, { error: 'down' });
          if (switches.tokenNonJson) {
            res.writeHead(200, { 'content-type': 'text/html' });
            return res.end('<html>maintenance</html>');
          }
          if (form.get('client_id') !== clientId || form.get('client_secret') !== clientSecret) return json(res, 401, { error: 'invalid_client' });
          if (grant === 'authorization_code') {
            const code = form.get('code') ?? '';
            if (!codes.delete(code)) return json(res, 400, { error: 'invalid_grant' });
            return json(res, 200, issueTokens());
          }
          if (grant === 'refresh_token') {
            if (switches.refresh400) return json(res, 400, { error: 'invalid_grant' });
            const refresh = form.get('refresh_token') ?? '';
            if (!refreshes.delete(refresh)) return json(res, 400, { error: 'invalid_grant' });
            return json(res, 200, issueTokens());
          }
          return json(res, 400, { error: 'unsupported_grant_type' });
        }
        const auth = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
        const game = url.pathname.startsWith('/api/iidx/') ? 'iidx' : url.pathname.startsWith('/api/sdvx/') ? 'sdvx' : null;
        if (!game) return json(res, 404, { error: 'not found' });
        if (url.pathname.endsWith('/player_profile')) {
          if (!auth || !tokens.has(auth)) return json(res, 401, { error: 'unauthorized' });
          if (switches.profile500) return json(res, 500, { error: 'down' });
          return json(res, 200, profile[game]);
        }
        if (url.pathname.endsWith('/play_history')) {
          stats.pages++;
          const page = Number(url.searchParams.get('page') ?? '1');
          if (switches.alwaysUnauthorized || (switches.unauthorizedOnPage === page && !unauthorizedServed)) {
            unauthorizedServed = true;
            return json(res, 401, { error: 'unauthorized' });
          }
          if (!auth || !tokens.has(auth)) return json(res, 401, { error: 'unauthorized' });
          if (switches.page500 === page) return json(res, 500, { error: 'down' });
          if (switches.pageDelayMs) await new Promise((r) => setTimeout(r, switches.pageDelayMs));
          if (switches.nonJsonPage) {
            res.writeHead(200, { 'content-type': 'text/html' });
            return res.end('<html>oops</html>');
          }
          const newestFirst = [...plays[game]].reverse();
          const items = newestFirst.slice((page - 1) * pageSize, page * pageSize);
          const base = `http://${req.headers.host}${url.pathname}`;
          let next: string | null = page * pageSize < newestFirst.length ? `${base}?page=${page + 1}` : null;
          if (switches.crossOriginNext) next = `http://evil.example${url.pathname}?page=2`;
          if (switches.selfLoop) next = `${base}?page=${page}`;
          if (switches.missingLinks) return json(res, 200, { _items: items });
          return json(res, 200, { _links: { _next: next }, _items: items });
        }
        return json(res, 404, { error: 'not found' });
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const fake: FakeKaiServer = {
    url: `http://127.0.0.1:${port}`,
    clientId,
    clientSecret,
    switches,
    profile,
    stats,
    addPlays: (game, list) => void plays[game].push(...list),
    clearPlays: (game) => void (plays[game].length = 0),
    issueCode: () => {
      const code = `code-${++counter}`;
      codes.add(code);
      return code;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return fake;
}

/** The environment that points this service's FLO/EAG/MIN at a fake. */
export function kaiEnv(prefix: 'FLO' | 'EAG' | 'MIN', fake: FakeKaiServer, redirectUri = 'http://localhost:3000/oauth2-callback'): Record<string, string> {
  return {
    [`${prefix}_API_URL`]: fake.url,
    [`${prefix}_CLIENT_ID`]: fake.clientId,
    [`${prefix}_CLIENT_SECRET`]: fake.clientSecret,
    [`${prefix}_REDIRECT_URI`]: `${redirectUri}/${prefix.toLowerCase()}`,
  };
}

/**
 * Makes KAI IIDX plays on chart 28001 SP ANOTHER (version 28; in the fervidex fixture catalog), each
 * a minute after the last from 2026-01-01 and with one more EX score; `extra` overrides fields.
 */
export function kaiIidxPlays(): (extra?: Record<string, unknown>) => Record<string, unknown> {
  let minute = 0;
  return (extra = {}) => {
    minute++;
    return {
      music_id: 28001,
      play_style: 'SINGLE',
      difficulty: 'ANOTHER',
      version_played: 28,
      lamp: 5,
      ex_score: 1500 + minute,
      miss_count: 12,
      fast_count: 20,
      slow_count: 31,
      timestamp: new Date(Date.UTC(2026, 0, 1, 0, minute)).toISOString(),
      ...extra,
    };
  };
}
