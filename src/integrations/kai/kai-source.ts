import type { KaiServiceConfig } from '../../config/app-config.js';
import { IIDX_DANS } from '../../game-support/iidx/classes.js';
import { SDVX_DANS } from '../../game-support/sdvx/classes.js';
import { FromApiError, type FromApiFetchContext, type FromApiFetchResult, type FromApiSource } from '../from-api/source.js';
import { KAI_NAMES, kaiJson, kaiRequest, refreshTokens, type KaiCredentials, type KaiService } from './kai-client.js';

/** Tachi's guard: a chain of more pages than this is a loop (508). */
export const KAI_MAX_PAGES = 500;

/** Where the last successful sync stopped: the newest play it brought (KAI pages run newest first). */
export interface KaiCursor {
  /** The newest play's identity (its `_id`, or its time, chart and score). */
  newest: string;
  /** Its ISO time. */
  timestamp: string;
}

const GAMES = {
  iidx: { history: '/api/iidx/v2/play_history', profile: '/api/iidx/v2/player_profile' },
  sdvx: { history: '/api/sdvx/v1/play_history', profile: '/api/sdvx/v1/player_profile' },
} as const;

/** A play's identity: the service's id when it sends one, else its time, chart and result. */
export function playKey(item: unknown): string {
  const i = (item ?? {}) as Record<string, unknown>;
  if (typeof i._id === 'string' || typeof i._id === 'number') return `id:${String(i._id)}`;
  return JSON.stringify([i.timestamp, i.music_id, i.difficulty ?? i.music_difficulty, i.play_style ?? null, i.ex_score ?? i.score]);
}

class KaiSession {
  private reauthed = false;
  readonly name: string;

  constructor(
    private readonly service: KaiService,
    private readonly ctx: FromApiFetchContext<KaiCredentials, KaiServiceConfig>,
    private credentials: KaiCredentials,
  ) {
    this.name = KAI_NAMES[service];
  }

  /** Refreshes the tokens (before paging, and once on a 401/403) and stores them at once. */
  async refresh(): Promise<void> {
    this.credentials = await refreshTokens(this.service, this.ctx.config, this.credentials.refreshToken, this.ctx);
    await this.ctx.saveCredentials(this.credentials);
  }

  /** GETs a JSON document with the player's token; one re-auth on 401/403. */
  async get(url: string): Promise<unknown> {
    for (;;) {
      const response = await kaiRequest(this.name, url, { headers: { Authorization: `Bearer ${this.credentials.token}` } }, this.ctx);
      if (response.status === 401 || response.status === 403) {
        await response.body?.cancel();
        if (this.reauthed)
          throw new FromApiError(502, `${this.name} refused your refreshed link (HTTP ${response.status}). Unlink ${this.name} and link it again.`);
        this.reauthed = true;
        await this.refresh();
        continue;
      }
      if (response.status !== 200) {
        await response.body?.cancel();
        throw new FromApiError(502, `${this.name} failed to answer (HTTP ${response.status}); nothing was saved. Try again later.`);
      }
      return kaiJson(this.name, response);
    }
  }
}

/** The dan a profile reports, by "SP.dan"/"DP.dan" (IIDX) or "dan" (SDVX); a failed or odd lookup reports none. */
async function classesOf(game: 'iidx' | 'sdvx', session: KaiSession, base: string): Promise<Record<string, string> | undefined> {
  let profile: Record<string, unknown>;
  try {
    profile = (await session.get(`${base}${GAMES[game].profile}`)) as Record<string, unknown>;
  } catch (err) {
    // The plays matter more than the dan: a failed lookup leaves the classes as they are (but a fatal auth problem stays fatal).
    if (err instanceof FromApiError && err.status === 400) throw err;
    return undefined;
  }
  const classes: Record<string, string> = {};
  const index = (value: unknown, max: number) => (typeof value === 'number' && Number.isInteger(value) && value >= 0 && value < max ? value : null);
  if (game === 'iidx') {
    const sp = index(profile?.sp, IIDX_DANS.length);
    const dp = index(profile?.dp, IIDX_DANS.length);
    if (sp !== null) classes['SP.dan'] = IIDX_DANS[sp].id;
    if (dp !== null) classes['DP.dan'] = IIDX_DANS[dp].id;
  } else {
    const level = index(profile?.skill_level, SDVX_DANS.length + 1);
    if (level !== null && level >= 1) classes.dan = SDVX_DANS[level - 1].id;
  }
  return Object.keys(classes).length ? classes : undefined;
}

/**
 * Pages through `play_history` (HAL `_links._next`, newest play first), stopping at the play the
 * last sync stopped at. Guards: a next page on another origin, a page seen before or more than
 * KAI_MAX_PAGES pages, and a malformed page each end the sync.
 */
async function fetchKai(service: KaiService, game: 'iidx' | 'sdvx', ctx: FromApiFetchContext<KaiCredentials, KaiServiceConfig>): Promise<FromApiFetchResult> {
  const session = new KaiSession(service, ctx, ctx.credentials);
  const name = session.name;
  const base = ctx.config.apiUrl;
  const origin = new URL(base).origin;
  const cursor = isCursor(ctx.cursor) ? ctx.cursor : null;
  await session.refresh();
  const classes = await classesOf(game, session, base);
  const items: unknown[] = [];
  const seen = new Set<string>();
  let url: string | null = `${base}${GAMES[game].history}`;
  let reachedKnown = false;
  while (url !== null && !reachedKnown) {
    if (seen.has(url) || seen.size >= KAI_MAX_PAGES)
      throw new FromApiError(508, `${name}'s play history never ended (a page loop or more than ${KAI_MAX_PAGES} pages); nothing was saved.`);
    seen.add(url);
    const page = (await session.get(url)) as { _links?: { _next?: unknown }; _items?: unknown } | null;
    if (typeof page !== 'object' || page === null || Array.isArray(page))
      throw new FromApiError(502, `${name} sent a malformed page (not a JSON object); nothing was saved.`);
    if (typeof page._links !== 'object' || page._links === null) throw new FromApiError(502, `${name} sent a malformed page (no _links); nothing was saved.`);
    const next = page._links._next;
    if (next !== null && typeof next !== 'string')
      throw new FromApiError(502, `${name} sent a malformed page (_links._next is neither a URL nor null); nothing was saved.`);
    if (!Array.isArray(page._items)) throw new FromApiError(502, `${name} sent a malformed page (_items is not a list); nothing was saved.`);
    for (const item of page._items) {
      if (cursor && isKnown(item, cursor)) {
        reachedKnown = true;
        break;
      }
      items.push(item);
    }
    if (next === null) url = null;
    else {
      let nextUrl: URL;
      try {
        nextUrl = new URL(next, url);
      } catch {
        throw new FromApiError(502, `${name} sent a malformed next-page link; nothing was saved.`);
      }
      if (nextUrl.origin !== origin) throw new FromApiError(502, `${name} sent a next-page link to another site, which is not followed; nothing was saved.`);
      url = nextUrl.href;
    }
  }
  const newest = items.find((i) => typeof (i as { timestamp?: unknown })?.timestamp === 'string') as { timestamp: string } | undefined;
  const nextCursor: KaiCursor | null = newest ? { newest: playKey(newest), timestamp: newest.timestamp } : cursor;
  const gameName = game === 'iidx' ? 'IIDX' : 'SDVX';
  return {
    items,
    ...(classes ? { classes } : {}),
    cursor: nextCursor,
    ...(items.length === 0
      ? {
          emptyReason: cursor
            ? `No new ${gameName} plays on ${name} since your last sync (your newest play then was at ${cursor.timestamp}).`
            : `Your ${name} ${gameName} profile has no plays.`,
        }
      : {}),
  };
}

function isCursor(value: unknown): value is KaiCursor {
  return typeof value === 'object' && value !== null && typeof (value as KaiCursor).newest === 'string' && typeof (value as KaiCursor).timestamp === 'string';
}

/** A play the last sync brought already: the same play, or an older one (pages run newest first). */
function isKnown(item: unknown, cursor: KaiCursor): boolean {
  if (playKey(item) === cursor.newest) return true;
  const time = Date.parse(String((item as { timestamp?: unknown })?.timestamp));
  return Number.isFinite(time) && time < Date.parse(cursor.timestamp);
}

function kaiSource(service: KaiService, game: 'iidx' | 'sdvx'): FromApiSource<KaiCredentials, KaiServiceConfig> {
  return { importType: `api/${service}-${game}`, service, fetch: (ctx) => fetchKai(service, game, ctx) };
}

export const KAI_SOURCES = [kaiSource('flo', 'iidx'), kaiSource('eag', 'iidx'), kaiSource('flo', 'sdvx'), kaiSource('eag', 'sdvx'), kaiSource('min', 'sdvx')];
