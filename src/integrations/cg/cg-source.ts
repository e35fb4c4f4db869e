import { z } from 'zod';
import { cgImportTypeName, type CgGame } from '../../imports/import-types/api-cg/index.js';
import type { CgService } from '../../imports/import-types/api-cg/cg-common.js';
import { FromApiError, type FromApiFetchContext, type FromApiFetchResult, type FromApiSource } from '../from-api/source.js';
import { readCgCursor, selectNewPlays } from './cg-cursor.js';

/** A player's card on one CG deployment (what `PUT /users/:userID/integrations/cg/:cgType` stores). */
export interface CgCredentials {
  cardID: string;
  pin: string;
}

/** A deployment's CG settings: CG_<SERVICE>_URL and CG_<SERVICE>_API_KEY. */
export interface CgConfig {
  url: string;
  apiKey: string;
}

/** The game's name in CG's path (`<url>/<code>-scores`). */
const CG_PATHS: Record<CgGame, string> = { sdvx: 'sdvx', popn: 'popn', museca: 'msc', jubeat: 'jb', iidx: 'iidx' };
const GAME_NAMES: Record<CgGame, string> = { sdvx: 'SOUND VOLTEX', popn: "pop'n music", museca: 'MÚSECA', jubeat: 'jubeat', iidx: 'beatmania IIDX' };

/** CG's answer: `{success: true, data: {profile, scores}}` or `{success: false, message}`. */
const answer = z.object({
  success: z.literal(true),
  data: z.object({ profile: z.object({}).loose().nullish(), scores: z.array(z.unknown()) }),
});

const MAX_MESSAGE = 300;

/** The largest answer read: CG sends every play in one body (~300 bytes a play, so ~200,000 plays). */
export const CG_MAX_BODY_BYTES = 64 * 1024 * 1024;

/** The body as text, refusing one past CG_MAX_BODY_BYTES as it arrives rather than holding it all. */
async function readCapped(res: Response, label: string, maxBytes: number): Promise<string> {
  const declared = Number(res.headers.get('content-length'));
  const tooLarge = () => new FromApiError(502, `${label} sent an answer larger than ${Math.round(maxBytes / 1024 / 1024)} MB.`);
  if (declared > maxBytes) {
    await res.body?.cancel().catch(() => undefined);
    throw tooLarge();
  }
  if (!res.body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  // Leaving the loop early cancels the stream.
  for await (const chunk of res.body) {
    size += chunk.byteLength;
    if (size > maxBytes) break;
    chunks.push(chunk);
  }
  if (size > maxBytes) throw tooLarge();
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * CG's own message for a refused request, safe to show: the PIN and the API key (which CG may echo)
 * are masked, control characters dropped, the length capped.
 */
export function cgMessage(message: unknown, secrets: readonly string[]): string {
  let text = typeof message === 'string' && message.trim() ? message.trim() : 'no reason given';
  for (const secret of secrets) if (secret) text = text.split(secret).join('****');
  // eslint-disable-next-line no-control-regex
  text = text.replace(/[\u0000-\u001f\u007f]+/g, ' ');
  return text.length > MAX_MESSAGE ? `${text.slice(0, MAX_MESSAGE)}…` : text;
}

/**
 * The fetch step of `api/cg-<service>-<game>`: one GET of `<url>/<game>-scores` with the deployment's
 * API key and the player's card and PIN. The URL carries both secrets, so no message names it.
 */
export function createCgSource(service: CgService, game: CgGame, options: { maxBodyBytes?: number } = {}): FromApiSource<CgCredentials, CgConfig> {
  const maxBodyBytes = options.maxBodyBytes ?? CG_MAX_BODY_BYTES;
  const label = `CG (${service})`;
  return {
    importType: cgImportTypeName(service, game),
    service: `cg-${service}`,
    async fetch(ctx: FromApiFetchContext<CgCredentials, CgConfig>): Promise<FromApiFetchResult> {
      const url = new URL(`${ctx.config.url.replace(/\/+$/, '')}/${CG_PATHS[game]}-scores`);
      url.searchParams.set('api_key', ctx.config.apiKey);
      url.searchParams.set('card_id', ctx.credentials.cardID);
      url.searchParams.set('pin', ctx.credentials.pin);

      const timeout = AbortSignal.timeout(ctx.requestTimeoutMs);
      const signal = AbortSignal.any([ctx.signal, timeout]);
      const failed = (err: unknown): FromApiError => {
        if (err instanceof FromApiError) return err;
        if (ctx.signal.aborted) {
          const reason: unknown = ctx.signal.reason;
          return reason instanceof FromApiError
            ? reason
            : new FromApiError(504, `The sync was stopped before ${label} answered: it ran past its deadline or was cancelled.`);
        }
        if (timeout.aborted) return new FromApiError(504, `${label} did not answer within ${ctx.requestTimeoutMs / 1000} seconds. Try again later.`);
        const code = (err as { cause?: { code?: unknown } }).cause?.code;
        return new FromApiError(502, `Could not reach ${label}${typeof code === 'string' ? ` (${code})` : ''}. Is it down? Try again later.`);
      };

      let status: number;
      let contentType: string;
      let text: string;
      try {
        const res = await fetch(url, { headers: { 'User-Agent': ctx.userAgent, Accept: 'application/json' }, signal, redirect: 'manual' });
        status = res.status;
        contentType = res.headers.get('content-type') ?? 'no content type';
        text = await readCapped(res, label, maxBodyBytes);
      } catch (err) {
        throw failed(err);
      }
      if (status >= 300 && status < 400) throw new FromApiError(502, `${label} answered with a redirect (HTTP ${status}) instead of the plays.`);

      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        throw new FromApiError(502, `${label} did not answer with JSON (HTTP ${status}, ${contentType.split(';')[0]}). Is it down? Try again later.`);
      }
      if (typeof body === 'object' && body !== null && (body as { success?: unknown }).success === false) {
        const message = cgMessage((body as { message?: unknown }).message, [ctx.credentials.pin, ctx.config.apiKey]);
        // A refusal is the request's (wrong card, PIN or key): 400. CG failing on its side is no client mistake: 502.
        if (status >= 500) throw new FromApiError(502, `${label} failed (HTTP ${status}): ${message} Try again later.`);
        throw new FromApiError(400, `${label} refused the request: ${message}`);
      }
      if (status < 200 || status >= 300) throw new FromApiError(502, `${label} answered HTTP ${status}. Try again later.`);
      const parsed = answer.safeParse(body);
      if (!parsed.success) {
        const where = parsed.error.issues[0]?.path.join('.') || 'the answer';
        throw new FromApiError(502, `${label} sent an answer of an unexpected shape (${where}: ${parsed.error.issues[0]?.message ?? 'invalid'}).`);
      }

      const scores = parsed.data.data.scores;
      const previous = readCgCursor(ctx.cursor);
      const { fresh, cursor } = selectNewPlays(scores, previous);
      const result: FromApiFetchResult = { items: fresh, cursor };
      if (fresh.length === 0) {
        result.emptyReason =
          scores.length === 0
            ? `Your ${label} ${GAME_NAMES[game]} profile has no plays.`
            : `No new ${GAME_NAMES[game]} plays on ${label} since your last sync${previous?.newest ? ` (the newest play already synced is from ${previous.newest})` : ''}.`;
      }
      return result;
    },
  };
}
