import * as grpc from '@grpc/grpc-js';
import { FromApiError, type FromApiFetchContext, type FromApiFetchResult, type FromApiSource } from '../from-api/source.js';
import { abortedError, MytConnection, type CallLimits, type MytConfig, type MytCredentials } from './myt-client.js';
import type { MytServiceName } from './myt-protos.js';

/** One game on MYT: its import type, how the card lookup names it, and its playlog service. */
export interface MytGame {
  importType: `api/myt-${string}`;
  /** The game's name for players' messages. */
  label: string;
  /** The title kind of the card lookup (`LookupRequest.titles`, `TitleEntry.title_kind`). */
  titleKind: string;
  service: MytServiceName;
  /** GetPlaylog's request for a profile; `since` is the cursor, where the request can carry it (WACCA's cannot). */
  playlogRequest(titleApiId: string, since: string | null): Record<string, unknown>;
  /** The classes the game reports besides its plays (WACCA's stage-up), by class set id. */
  classes?(connection: MytConnection, titleApiId: string, limits: CallLimits): Promise<Record<string, string> | undefined>;
}

/** The user_play_date of a stream item (every game's item has one, in `info`), if it has one. */
function playDateOf(item: unknown): string | undefined {
  const info = (item as { info?: { user_play_date?: unknown } | null } | null)?.info;
  return typeof info?.user_play_date === 'string' && info.user_play_date !== '' ? info.user_play_date : undefined;
}

/** A date's time in ms, or NaN. */
const timeOf = (date: string) => Date.parse(date);

/** The stored cursor, when it is a date MYT's request can take (anything else starts again from the beginning). */
function cursorOf(cursor: unknown): string | null {
  return typeof cursor === 'string' && !Number.isNaN(timeOf(cursor)) ? cursor : null;
}

/** WACCA's stage-up ranks 1 to 14 (0 = none), by class value id. */
const STAGE_UPS = ['I', 'II', 'III', 'IV', 'V', 'VI', 'VII', 'VIII', 'IX', 'X', 'XI', 'XII', 'XIII', 'XIV'];
/** GetData's version_data keys (versions counted from 0): PLUS's data first, then REVERSE's. */
const STAGE_UP_VERSIONS = ['5', '4'];

interface WaccaData {
  version_data?: Record<string, { rank?: number } | null> | null;
}

/** The stage-up of WACCA's GetData: the newest version's rank, or none (rank 0, no data, or a rank past XIV). */
export function stageUpOf(data: WaccaData): Record<string, string> | undefined {
  const versions = data.version_data ?? {};
  const version = STAGE_UP_VERSIONS.map((v) => versions[v]).find((d) => d !== undefined && d !== null);
  const rank = version?.rank ?? 0;
  const stageUp = rank >= 1 ? STAGE_UPS.at(rank - 1) : undefined;
  return stageUp === undefined ? undefined : { stageUp };
}

const gameWithCursor = (importType: MytGame['importType'], label: string, titleKind: string, service: MytServiceName): MytGame => ({
  importType,
  label,
  titleKind,
  service,
  playlogRequest: (titleApiId, since) => ({ profile_api_id: titleApiId, ...(since === null ? {} : { last_user_play_date: since }) }),
});

export const MYT_GAMES: readonly MytGame[] = [
  gameWithCursor('api/myt-chunithm', 'CHUNITHM', 'chunithm', 'mythos.chunithm.v0.ChunithmUser'),
  gameWithCursor('api/myt-maimaidx', 'maimai DX', 'maimai', 'mythos.maimai.v0.MaimaiUser'),
  gameWithCursor('api/myt-ongeki', 'O.N.G.E.K.I.', 'ongeki', 'mythos.ongeki.v0.OngekiUser'),
  {
    importType: 'api/myt-wacca',
    label: 'WACCA',
    titleKind: 'wacca',
    service: 'mythos.wacca.v0.WaccaUser',
    // WACCA's PlaylogRequest has no date: the whole history streams, and plays up to the cursor are dropped here.
    playlogRequest: (titleApiId) => ({ api_id: titleApiId }),
    async classes(connection, titleApiId, limits) {
      try {
        const data = await connection.unary<WaccaData>('mythos.wacca.v0.WaccaUser', 'GetData', { api_id: titleApiId }, limits, 'reading your stage-up');
        return stageUpOf(data);
      } catch {
        // A class is extra: a failed lookup leaves it out, unless the whole sync was stopped.
        if (limits.signal.aborted) throw abortedError(limits.signal);
        return undefined;
      }
    },
  },
];

interface LookupResponse {
  player_api_id: string;
  titles: { title_kind: string; title_api_id: string }[];
}

/** The card's profile of the game: NOT_FOUND is a card MYT does not know (401), no entry a card that never played it (400). */
async function lookUpTitle(connection: MytConnection, game: MytGame, accessCode: string, limits: CallLimits): Promise<string> {
  const response = await connection.unary<LookupResponse>(
    'mythos.cards.v0.Cards',
    'Lookup',
    { access_code: accessCode, titles: [game.titleKind] },
    limits,
    'looking up your card',
    (error) =>
      error.code === grpc.status.NOT_FOUND ? new FromApiError(401, 'Card not found on MYT: check the access code linked under your integrations.') : undefined,
  );
  const title = response.titles.find((t) => t.title_kind === game.titleKind && t.title_api_id !== '');
  if (!title) throw new FromApiError(400, `Couldn't find a ${game.label} profile on MYT for your card: play ${game.label} on it first.`);
  return title.title_api_id;
}

/** A game's MYT source: look the card up, then stream the plays since the cursor. */
export function mytSource(game: MytGame): FromApiSource<MytCredentials, MytConfig> {
  return {
    importType: game.importType,
    service: 'myt',
    async fetch(ctx: FromApiFetchContext<MytCredentials, MytConfig>): Promise<FromApiFetchResult> {
      const limits: CallLimits = { timeoutMs: ctx.requestTimeoutMs, signal: ctx.signal };
      const since = cursorOf(ctx.cursor);
      const sinceTime = since === null ? Number.NEGATIVE_INFINITY : timeOf(since);
      const connection = new MytConnection(ctx.config, ctx.userAgent);
      try {
        const titleApiId = await lookUpTitle(connection, game, ctx.credentials.cardAccessCode, limits);
        const classes = await game.classes?.(connection, titleApiId, limits);
        const items: unknown[] = [];
        let newest: { date: string; time: number } | null = null;
        await connection.stream(game.service, 'GetPlaylog', game.playlogRequest(titleApiId, since), limits, 'streaming your plays', (item) => {
          const date = playDateOf(item);
          const time = date === undefined ? Number.NaN : timeOf(date);
          // Plays up to the cursor were imported before (MYT sends only later ones where the request carries it).
          if (time <= sinceTime) return;
          items.push(item);
          if (date !== undefined && !Number.isNaN(time) && (newest === null || time > newest.time)) newest = { date, time };
        });
        const cursor = (newest as { date: string } | null)?.date ?? since;
        const result: FromApiFetchResult = { items, cursor, ...(classes ? { classes } : {}) };
        if (items.length === 0) {
          result.emptyReason =
            since === null
              ? `Your MYT ${game.label} profile has no plays.`
              : `No ${game.label} plays on MYT since your last sync (its newest play was on ${since}).`;
        }
        return result;
      } finally {
        connection.close();
      }
    },
  };
}
