/** A linked service whose credentials a player stores: one row per (user, service). */
export type IntegrationService = 'flo' | 'eag' | 'min' | 'cg-dev' | 'cg-nag' | 'cg-gan' | 'myt';

/** A fatal problem of a sync: the whole import fails with this status and message; nothing is written. */
export class FromApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export interface FromApiFetchContext<Credentials, ServiceConfig> {
  userID: number;
  /** The player's decrypted credentials for the source's service (KAI: {token, refreshToken}; CG: {cardID, pin}; MYT: {cardAccessCode}). */
  credentials: Credentials;
  /** Saves changed credentials (KAI's refreshed tokens); encrypted and stored at once, even if the sync later fails. */
  saveCredentials(credentials: Credentials): Promise<void>;
  /** The deployment's configuration of this service (KAI: {apiUrl, clientId, clientSecret, redirectUri}; CG: {url, apiKey}; MYT: {host, authToken, tlsCa: Buffer | null}). */
  config: ServiceConfig;
  /** The cursor the last successful sync of this import type for this player returned; null on the first sync. */
  cursor: unknown;
  /** Aborted when the whole sync's deadline passes (or the import is cancelled): pass it to every request. */
  signal: AbortSignal;
  /** Milliseconds one request (or one stream's silence) may take before it fails; the source enforces it. */
  requestTimeoutMs: number;
  /** `User-Agent` to send: the deployment's name and version. */
  userAgent: string;
}

export interface FromApiFetchResult {
  /** The raw items, in the shape the import type's parse/convert read (the import keeps {items, classes, ...} as its input). */
  items: unknown[];
  /** Classes the service reports (a dan), by class set id; omitted when it reports none or the lookup failed. */
  classes?: Record<string, string>;
  /** Stored only when the import succeeds; handed back as `cursor` next time (MYT: the newest user_play_date; KAI: the newest play's id/time). */
  cursor: unknown;
  /** When items is empty: why, in words a player understands ("no plays since your last sync on …", "your … profile has no plays"). */
  emptyReason?: string;
}

/** One `api/` import type's fetch step. The import type itself (parse/convert) is a normal ImportType of the same name in src/imports/import-types/. */
export interface FromApiSource<Credentials = unknown, ServiceConfig = unknown> {
  readonly importType: `api/${string}`;
  readonly service: IntegrationService;
  fetch(ctx: FromApiFetchContext<Credentials, ServiceConfig>): Promise<FromApiFetchResult>;
}
