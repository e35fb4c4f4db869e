import 'reflect-metadata';
import { plainToInstance, Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, IsUrl, Matches, Max, Min, MinLength, ValidateBy, validateSync } from 'class-validator';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { LOG_FORMATS, type LogFormat } from '../common/log-output.js';

const toBool = ({ value }: { value: unknown }) =>
  typeof value === 'string'
    ? ['true', '1', 'yes'].includes(value.toLowerCase())
      ? true
      : ['false', '0', 'no', ''].includes(value.toLowerCase())
        ? false
        : value
    : value;
const toInt = ({ value }: { value: unknown }) => (typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : value);
const emptyToUndefined = ({ value }: { value: unknown }) => (value === '' ? undefined : value);

const HOSTNAME = /^(?=.{1,253}$)[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;
const isHost = (value: string) => net.isIP(value) !== 0 || HOSTNAME.test(value);

/** One entry of a trust-proxy list as proxy-addr reads it: a name, an IP, or IP/prefix (IPv4 also IP/netmask). */
function isProxyAddress(entry: string): boolean {
  if (['loopback', 'linklocal', 'uniquelocal'].includes(entry)) return true;
  const [ip, range, ...rest] = entry.split('/');
  const family = net.isIP(ip);
  if (!family || rest.length > 0) return false;
  if (range === undefined) return true;
  if (/^\d{1,3}$/.test(range)) return Number(range) <= (family === 4 ? 32 : 128);
  return family === 4 && net.isIPv4(range);
}

/** Express "trust proxy" from the environment: true, false, a hop count, or a comma-separated list of addresses and names. */
const isTrustProxy = (value: string) =>
  ['true', 'false'].includes(value) || /^\d+$/.test(value) || value.split(',').every((entry) => isProxyAddress(entry.trim()));

const MAIL_ADDRESS = /^[^\s@<>()",;:\\[\]]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*$/;
/** A mail address, or a display name and the address in angle brackets ("Name <addr>"). */
function isMailbox(value: string): boolean {
  const named = /^([^<>\r\n]*)<([^<>]+)>$/.exec(value.trim());
  return named ? MAIL_ADDRESS.test(named[2].trim()) : MAIL_ADDRESS.test(value.trim());
}

/** A string property checked by `test`; the message names the variable (loadConfig prefixes it). */
const StringThat = (name: string, test: (value: string) => boolean, message: string) =>
  ValidateBy({ name, validator: { validate: (value: unknown) => typeof value === 'string' && test(value), defaultMessage: () => message } });

/** One web origin as browsers send it in `Origin`: http(s)://host[:port], nothing after it. */
export function isOrigin(value: string): boolean {
  try {
    const url = new URL(value);
    return ['http:', 'https:'].includes(url.protocol) && url.origin === value && !url.username && !url.password;
  } catch {
    return false;
  }
}

/** host:port, as a gRPC target names a server. */
function isHostPort(value: string): boolean {
  const m = /^(\[[^\]]+\]|[^:]+):(\d{1,5})$/.exec(value);
  return !!m && isHost(m[1].replace(/^\[|\]$/g, '')) && Number(m[2]) > 0 && Number(m[2]) < 65536;
}

/** HOST values that listen on every interface: links to this server then use localhost. */
const WILDCARD_HOSTS = ['0.0.0.0', '::', '::0', '0:0:0:0:0:0:0:0'];

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * Every environment variable the service reads. Each one is documented in the README.
 * Validated once at boot: a bad value stops the process with a message naming the variable.
 */
export class AppConfig {
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT = 3000;

  @StringThat('isHost', isHost, 'HOST must be an IP address or a host name (without brackets or a port)')
  HOST = '127.0.0.1';

  @IsString()
  @MinLength(1)
  DATA_DIR = './data';

  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^postgres(ql)?:\/\//, { message: 'DATABASE_URL must be a postgres:// or postgresql:// URL' })
  DATABASE_URL?: string;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(200)
  DATABASE_POOL_SIZE = 10;

  /** Streaming replicas of DATABASE_URL, comma-separated: the API server sends the reads that may use one there (database/replicas.ts). */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^\s*postgres(ql)?:\/\/[^,\s]+\s*(,\s*postgres(ql)?:\/\/[^,\s]+\s*)*$/, {
    message: 'DATABASE_REPLICA_URLS must be postgres:// or postgresql:// URLs separated by commas',
  })
  DATABASE_REPLICA_URLS?: string;

  /** A replica further behind the primary's WAL than this (ms) is skipped until it catches up. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(3_600_000)
  REPLICA_MAX_LAG_MS = 5_000;

  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^rediss?:\/\//, { message: 'REDIS_URL must be a redis:// or rediss:// URL' })
  REDIS_URL?: string;

  /** Prefix of this deployment's keys in Redis (sessions, rate limits, the import queue); the API and its workers must share it. */
  @Matches(/^[A-Za-z0-9_.:-]{1,64}$/, { message: 'REDIS_KEY_PREFIX must be 1 to 64 letters, digits, or _ . : -' })
  REDIS_KEY_PREFIX = 'st';

  /** The alias of API_PROFILE: plain = spec, tachi = tachi. loadConfig keeps the two in agreement. */
  @IsIn(['plain', 'tachi'])
  API_ENVELOPE: 'plain' | 'tachi' = 'plain';

  /** Which documents the API serves: the spec's, or Tachi's (with Tachi's envelope). Unset: what API_ENVELOPE says. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsIn(['spec', 'tachi'], { message: 'API_PROFILE must be spec or tachi' })
  API_PROFILE?: 'spec' | 'tachi';

  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^smtps?:\/\//, { message: 'SMTP_URL must be an smtp:// or smtps:// URL' })
  SMTP_URL?: string;

  @StringThat('isMailbox', isMailbox, 'MAIL_FROM must be a mail address, optionally with a name: "Name <address@example.com>"')
  MAIL_FROM = 'Score Tracker <no-reply@localhost>';

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsUrl({ require_tld: false, protocols: ['http', 'https'], require_protocol: true }, { message: 'CAPTCHA_VERIFY_URL must be an http(s) URL' })
  CAPTCHA_VERIFY_URL?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  CAPTCHA_SECRET?: string;

  /** Where clients reach this server (links in mails, poll URLs). Defaults to http://HOST:PORT (localhost when HOST is a wildcard). */
  @IsUrl({ require_tld: false, protocols: ['http', 'https'], require_protocol: true }, { message: 'PUBLIC_URL must be an http(s) URL' })
  PUBLIC_URL = 'http://127.0.0.1:3000';

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  @MinLength(32, { message: 'SESSION_SECRET must be at least 32 characters' })
  SESSION_SECRET?: string;

  /**
   * Encrypts secrets at rest (AES-256-GCM, key derived by HKDF): 32+ characters, no comma; every
   * process of a deployment shares it. Unset: the embedded database uses DATA_DIR/secrets.key
   * (made when a secret is first stored); with DATABASE_URL it is required under API_PROFILE=tachi.
   */
  @Transform(emptyToUndefined)
  @IsOptional()
  @StringThat('isSecretsKey', (value) => value.length >= 32 && !value.includes(','), 'SECRETS_KEY must be at least 32 characters, without a comma')
  SECRETS_KEY?: string;

  /** Earlier SECRETS_KEYs, comma-separated: values made with them still decrypt until `secrets rotate` re-encrypts them with SECRETS_KEY. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @StringThat(
    'isSecretsKeyList',
    (value) => value.split(',').every((k) => k.trim() === '' || k.trim().length >= 32),
    'SECRETS_KEY_PREVIOUS must be a comma-separated list of keys of at least 32 characters each',
  )
  SECRETS_KEY_PREVIOUS?: string;

  /**
   * Origins whose browser pages may call the API with credentials (the session cookie): a
   * comma-separated list of http(s)://host[:port]. Every other origin may call it without them.
   */
  @StringThat(
    'isOriginList',
    (value) => value.trim() === '' || value.split(',').every((entry) => isOrigin(entry.trim())),
    'CORS_ORIGINS must be a comma-separated list of origins such as https://scores.example.com or http://localhost:5173 (scheme, host and optional port; no path, no trailing slash)',
  )
  CORS_ORIGINS = '';

  @Transform(toBool)
  @IsBoolean()
  INVITE_ONLY = false;

  /** Invites a user may create per whole 28-day month since joining (INVITE_ONLY deployments). */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  INVITE_BATCH_SIZE = 2;

  /** Extra invites for users with the alpha or beta badge. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  INVITE_BETA_BONUS = 5;

  /** Most invites a user may create in all (administrators are exempt). */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  INVITE_CAP = 100;

  /** A built single-page web client (Tachi's, built for this server) served at `/`; loadConfig checks it holds an index.html. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  WEB_CLIENT_DIR?: string;

  @IsIn(LOG_LEVELS)
  LOG_LEVEL: LogLevel = 'info';

  /** `auto`: readable lines when stdout is a terminal, JSON lines otherwise; `pretty` or `json` force one. */
  @IsIn(LOG_FORMATS, { message: `LOG_FORMAT must be one of ${LOG_FORMATS.join(', ')}` })
  LOG_FORMAT: LogFormat = 'auto';

  /** Express "trust proxy" setting: which hops may set X-Forwarded-For. */
  @StringThat(
    'isTrustProxy',
    isTrustProxy,
    'TRUST_PROXY must be true, false, a hop count, or a comma-separated list of IP addresses, CIDR ranges and the names loopback, linklocal, uniquelocal',
  )
  TRUST_PROXY = 'loopback';

  /** Requests per minute per IP on the API outside /auth; 0 turns the limiter off. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  RATE_LIMIT_PER_MINUTE = 500;

  /** Multiplier for the /auth limits (1 = the documented values); 0 turns them off. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  AUTH_RATE_LIMIT_FACTOR = 1;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  OAUTH_CLIENT_CAP = 15;

  /** Rivals a user may set on one GPT. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(100)
  MAX_RIVALS = 5;

  /** Users one user may follow. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  MAX_FOLLOWING = 1000;

  /** Goal subscriptions one user may hold on one game and playtype (add-goal and PUT goals/:goalID past it: 400). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  MAX_GOAL_SUBSCRIPTIONS = 1000;

  /** Quest subscriptions one user may hold on one game and playtype (PUT quests/:questID past it: 400). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  MAX_QUEST_SUBSCRIPTIONS = 100;

  /** Largest JSON body accepted, in bytes. */
  @Transform(toInt)
  @IsInt()
  @Min(1024)
  BODY_LIMIT_BYTES = 4 * 1024 * 1024;

  /** Largest profile picture or banner upload, in bytes. */
  @Transform(toInt)
  @IsInt()
  @Min(1024)
  IMAGE_UPLOAD_LIMIT_BYTES = 4 * 1024 * 1024;

  /** Append every SQL statement (with parameters) to this file as JSON lines; for query-plan checks, not for production. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  SQL_LOG_FILE?: string;

  /** Largest batch-manual upload (file or direct-manual body), in bytes. */
  @Transform(toInt)
  @IsInt()
  @Min(1024)
  IMPORT_FILE_LIMIT_BYTES = 64 * 1024 * 1024;

  /** Most scores one import may carry. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  IMPORT_MAX_SCORES = 100_000;

  /** Days a completed import's input is kept for GET /cdn/score-import-input/:importID; 0 keeps none. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(3650)
  IMPORT_INPUT_RETENTION_DAYS = 30;

  /** Distinct players who must send an unknown chart through the beatoraja hook before it is created. */
  @Transform(toInt)
  @IsInt()
  @Min(2)
  BEATORAJA_QUEUE_SIZE = 3;

  /** Imports one `npm run worker` process runs at once (imports of one user always run one after another). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(64)
  IMPORT_WORKER_CONCURRENCY = 2;

  /** How long a worker's claim on an import job lasts unless renewed: a dead worker's job is retried by another worker after about two to three times this. */
  @Transform(toInt)
  @IsInt()
  @Min(1000)
  IMPORT_JOB_LOCK_MS = 30_000;

  /**
   * Fault testing only (`npm run chaos`): a worker logs each step of a queued import (taken, matching, converted, written, committed, published)
   * and waits this long there, so that a kill lands inside that step. 0 (the default) neither logs nor waits.
   */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(60_000)
  IMPORT_STEP_PAUSE_MS = 0;

  /** On SIGTERM, how long a process waits for requests in flight (and inline imports) or running worker imports before it stops without them. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  SHUTDOWN_TIMEOUT_MS = 30_000;

  /** Deliver webhooks to private, loopback and link-local addresses too (checked after DNS resolution and at every redirect). Tests turn it on. */
  @Transform(toBool)
  @IsBoolean()
  WEBHOOKS_ALLOW_PRIVATE = false;

  /** Attempts of one webhook delivery (the first and its retries) before it is marked failed. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(20)
  WEBHOOK_MAX_ATTEMPTS = 8;

  /** Delay before a webhook delivery's first retry; each further retry waits twice as long. */
  @Transform(toInt)
  @IsInt()
  @Min(10)
  WEBHOOK_RETRY_BASE_MS = 30_000;

  /** How long one webhook attempt (connection, redirects and response) may take. */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  WEBHOOK_TIMEOUT_MS = 10_000;

  /** How often a process looks for due webhook deliveries: it attempts them (polled mode), or queues those stored without a job (queue mode). */
  @Transform(toInt)
  @IsInt()
  @Min(10)
  WEBHOOK_POLL_INTERVAL_MS = 5_000;

  /** How often a process re-ranks the charts imports left with stale stored ranks (readers count those live meanwhile); 0 turns it off in this process. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  RANK_REFRESH_INTERVAL_MS = 1_000;

  /**
   * Memory for finished answers of the cached read routes (pbs/best, chart PBs, recent scores,
   * leaderboards, chart search), in MiB; 0 turns the cache off. Database triggers report every
   * change, so an answer is served only while nothing it was built from has changed.
   */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  READ_CACHE_MB = 64;

  /** FLO's OAuth2 API (a KAI network): its origin, and this deployment's OAuth2 client. All four or none. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @StringThat('isOrigin', isOrigin, 'FLO_API_URL must be an origin: http(s)://host[:port], without a path')
  FLO_API_URL?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  FLO_CLIENT_ID?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  FLO_CLIENT_SECRET?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsUrl({ require_tld: false, protocols: ['http', 'https'], require_protocol: true }, { message: 'FLO_REDIRECT_URI must be an http(s) URL' })
  FLO_REDIRECT_URI?: string;

  /** EAG's OAuth2 API (a KAI network): its origin, and this deployment's OAuth2 client. All four or none. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @StringThat('isOrigin', isOrigin, 'EAG_API_URL must be an origin: http(s)://host[:port], without a path')
  EAG_API_URL?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  EAG_CLIENT_ID?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  EAG_CLIENT_SECRET?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsUrl({ require_tld: false, protocols: ['http', 'https'], require_protocol: true }, { message: 'EAG_REDIRECT_URI must be an http(s) URL' })
  EAG_REDIRECT_URI?: string;

  /** MIN's OAuth2 API (a KAI network): its origin, and this deployment's OAuth2 client. All four or none. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @StringThat('isOrigin', isOrigin, 'MIN_API_URL must be an origin: http(s)://host[:port], without a path')
  MIN_API_URL?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  MIN_CLIENT_ID?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  MIN_CLIENT_SECRET?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsUrl({ require_tld: false, protocols: ['http', 'https'], require_protocol: true }, { message: 'MIN_REDIRECT_URI must be an http(s) URL' })
  MIN_REDIRECT_URI?: string;

  /** CG dev's score API: its base URL and this deployment's API key. Both or neither. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsUrl({ require_tld: false, protocols: ['http', 'https'], require_protocol: true }, { message: 'CG_DEV_URL must be an http(s) URL' })
  CG_DEV_URL?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  CG_DEV_API_KEY?: string;

  /** CG nag's score API: its base URL and this deployment's API key. Both or neither. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsUrl({ require_tld: false, protocols: ['http', 'https'], require_protocol: true }, { message: 'CG_NAG_URL must be an http(s) URL' })
  CG_NAG_URL?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  CG_NAG_API_KEY?: string;

  /** CG gan's score API: its base URL and this deployment's API key. Both or neither. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsUrl({ require_tld: false, protocols: ['http', 'https'], require_protocol: true }, { message: 'CG_GAN_URL must be an http(s) URL' })
  CG_GAN_URL?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  CG_GAN_API_KEY?: string;

  /** MYT's gRPC API: host:port, the deployment's bearer token, and optionally a CA file (PEM) to trust for its TLS. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @StringThat('isHostPort', isHostPort, 'MYT_API_HOST must be host:port')
  MYT_API_HOST?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  MYT_AUTH_TOKEN?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  MYT_TLS_CA?: string;

  /** How long one from-api sync (every request to the other service) may take before it fails. */
  @Transform(toInt)
  @IsInt()
  @Min(1000)
  FROM_API_SYNC_DEADLINE_MS = 600_000;

  /** How long one request of a from-api sync (or one stream's silence) may take before it fails. */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  FROM_API_REQUEST_TIMEOUT_MS = 30_000;

  /** Take the daily stat snapshot at 00:00 UTC (and today's at boot when missing). Tests turn it off. */
  @Transform(toBool)
  @IsBoolean()
  SNAPSHOT_SCHEDULE = true;

  get dataDir(): string {
    return path.resolve(this.DATA_DIR);
  }

  /** WEB_CLIENT_DIR as an absolute path, or undefined when no web client is served. */
  get webClientDir(): string | undefined {
    return this.WEB_CLIENT_DIR === undefined ? undefined : path.resolve(this.WEB_CLIENT_DIR);
  }

  get secureCookies(): boolean {
    return this.PUBLIC_URL.startsWith('https://');
  }

  /** DATABASE_REPLICA_URLS as a list (empty without it). */
  get replicaUrls(): string[] {
    return (this.DATABASE_REPLICA_URLS ?? '')
      .split(',')
      .map((url) => url.trim())
      .filter((url) => url !== '');
  }

  /** CORS_ORIGINS as a list. */
  get corsOrigins(): string[] {
    return this.CORS_ORIGINS.split(',')
      .map((entry) => entry.trim())
      .filter((entry) => entry !== '');
  }

  /** A KAI service's configuration, or null when it is not configured. */
  kai(service: 'flo' | 'eag' | 'min'): KaiServiceConfig | null {
    const p = service.toUpperCase() as 'FLO' | 'EAG' | 'MIN';
    const apiUrl = this[`${p}_API_URL`];
    const clientId = this[`${p}_CLIENT_ID`];
    const clientSecret = this[`${p}_CLIENT_SECRET`];
    const redirectUri = this[`${p}_REDIRECT_URI`];
    return apiUrl && clientId && clientSecret && redirectUri ? { apiUrl, clientId, clientSecret, redirectUri } : null;
  }

  /** A CG service's configuration, or null when it is not configured. */
  cg(service: 'cg-dev' | 'cg-nag' | 'cg-gan'): CgServiceConfig | null {
    const p = service.slice(3).toUpperCase() as 'DEV' | 'NAG' | 'GAN';
    const url = this[`CG_${p}_URL`];
    const apiKey = this[`CG_${p}_API_KEY`];
    return url && apiKey ? { url, apiKey } : null;
  }

  /** MYT's configuration, or null when it is not configured. */
  myt(): MytServiceConfig | null {
    return this.MYT_API_HOST && this.MYT_AUTH_TOKEN ? { host: this.MYT_API_HOST, authToken: this.MYT_AUTH_TOKEN, tlsCa: MYT_TLS_CAS.get(this) ?? null } : null;
  }

  /** The configuration of a service players link, or null when it is not configured. */
  integrationConfig(service: IntegrationServiceName): KaiServiceConfig | CgServiceConfig | MytServiceConfig | null {
    if (service === 'flo' || service === 'eag' || service === 'min') return this.kai(service);
    if (service === 'myt') return this.myt();
    return this.cg(service);
  }

  get captchaEnabled(): boolean {
    return Boolean(this.CAPTCHA_VERIFY_URL);
  }
}

export class ConfigError extends Error {}

/** Reads and validates the environment. Throws ConfigError naming every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const known = Object.keys(new AppConfig()).concat([
    'DATABASE_URL',
    'DATABASE_REPLICA_URLS',
    'REDIS_URL',
    'SMTP_URL',
    'CAPTCHA_VERIFY_URL',
    'CAPTCHA_SECRET',
    'SESSION_SECRET',
    'SECRETS_KEY',
    'SECRETS_KEY_PREVIOUS',
    'SQL_LOG_FILE',
    'API_PROFILE',
    'WEB_CLIENT_DIR',
    'FLO_API_URL',
    'FLO_CLIENT_ID',
    'FLO_CLIENT_SECRET',
    'FLO_REDIRECT_URI',
    'EAG_API_URL',
    'EAG_CLIENT_ID',
    'EAG_CLIENT_SECRET',
    'EAG_REDIRECT_URI',
    'MIN_API_URL',
    'MIN_CLIENT_ID',
    'MIN_CLIENT_SECRET',
    'MIN_REDIRECT_URI',
    'CG_DEV_URL',
    'CG_DEV_API_KEY',
    'CG_NAG_URL',
    'CG_NAG_API_KEY',
    'CG_GAN_URL',
    'CG_GAN_API_KEY',
    'MYT_API_HOST',
    'MYT_AUTH_TOKEN',
    'MYT_TLS_CA',
  ]);
  const raw: Record<string, string> = {};
  for (const key of known) {
    const value = env[key];
    if (value !== undefined) raw[key] = value;
  }
  const config = plainToInstance(AppConfig, raw);
  const errors = validateSync(config, { forbidUnknownValues: false });
  if (errors.length > 0) {
    const lines = errors.map((e) => `  ${e.property}=${JSON.stringify(raw[e.property])}: ${Object.values(e.constraints ?? {}).join('; ')}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  // Links in mails and poll URLs point at this server unless PUBLIC_URL says otherwise.
  if (raw.PUBLIC_URL === undefined) {
    const host = WILDCARD_HOSTS.includes(config.HOST) ? 'localhost' : config.HOST.includes(':') ? `[${config.HOST}]` : config.HOST;
    config.PUBLIC_URL = `http://${host}:${config.PORT}`;
  }
  // API_ENVELOPE is API_PROFILE's alias: one decides the other, and both given must agree.
  const envelopeProfile = config.API_ENVELOPE === 'tachi' ? 'tachi' : 'spec';
  if (config.API_PROFILE !== undefined && raw.API_ENVELOPE !== undefined && config.API_PROFILE !== envelopeProfile) {
    throw new ConfigError(
      `Invalid configuration:\n  API_PROFILE=${config.API_PROFILE} and API_ENVELOPE=${config.API_ENVELOPE} disagree (API_ENVELOPE is its alias: plain = spec, tachi = tachi); set one`,
    );
  }
  config.API_PROFILE ??= envelopeProfile;
  config.API_ENVELOPE = config.API_PROFILE === 'tachi' ? 'tachi' : 'plain';
  if (config.WEB_CLIENT_DIR !== undefined) {
    const index = path.join(path.resolve(config.WEB_CLIENT_DIR), 'index.html');
    if (!fs.existsSync(index) || !fs.statSync(index).isFile())
      throw new ConfigError(
        `Invalid configuration:\n  WEB_CLIENT_DIR=${JSON.stringify(config.WEB_CLIENT_DIR)}: no index.html at ${index} (point it at the web client's build directory)`,
      );
  }
  // Under tachi, webhook deliveries carry the client secret, which is stored encrypted: every process of a PostgreSQL deployment needs the same key.
  if (config.DATABASE_URL && config.API_PROFILE === 'tachi' && !config.SECRETS_KEY) {
    throw new ConfigError(
      'Invalid configuration:\n  SECRETS_KEY must be set with DATABASE_URL under API_PROFILE=tachi: client secrets are stored encrypted with it for the webhook deliveries (32+ random characters, e.g. `openssl rand -base64 32`; the same on every process)',
    );
  }
  checkFromApiServices(config);
  if (config.DATABASE_REPLICA_URLS && !config.DATABASE_URL) {
    throw new ConfigError(
      'Invalid configuration:\n  DATABASE_REPLICA_URLS needs DATABASE_URL: replicas stream from a PostgreSQL server, not the embedded database',
    );
  }
  if (config.CAPTCHA_VERIFY_URL && !config.CAPTCHA_SECRET) {
    throw new ConfigError('Invalid configuration:\n  CAPTCHA_SECRET must be set when CAPTCHA_VERIFY_URL is set');
  }
  return config;
}

/** MYT_TLS_CA's contents, read by loadConfig (kept out of AppConfig's keys, which are the variables it reads). */
const MYT_TLS_CAS = new WeakMap<AppConfig, Buffer>();

/** The services players link for `POST /import/from-api`, each with the variables that configure it (all of them, or none). */
export const FROM_API_SERVICES = {
  flo: ['FLO_API_URL', 'FLO_CLIENT_ID', 'FLO_CLIENT_SECRET', 'FLO_REDIRECT_URI'],
  eag: ['EAG_API_URL', 'EAG_CLIENT_ID', 'EAG_CLIENT_SECRET', 'EAG_REDIRECT_URI'],
  min: ['MIN_API_URL', 'MIN_CLIENT_ID', 'MIN_CLIENT_SECRET', 'MIN_REDIRECT_URI'],
  'cg-dev': ['CG_DEV_URL', 'CG_DEV_API_KEY'],
  'cg-nag': ['CG_NAG_URL', 'CG_NAG_API_KEY'],
  'cg-gan': ['CG_GAN_URL', 'CG_GAN_API_KEY'],
  myt: ['MYT_API_HOST', 'MYT_AUTH_TOKEN'],
} as const satisfies Record<string, readonly (keyof AppConfig)[]>;
export type IntegrationServiceName = keyof typeof FROM_API_SERVICES;

/** KAI's configuration of one service (FLO, EAG, MIN). */
export interface KaiServiceConfig {
  apiUrl: string;
  clientId: string;
  clientSecret: string;
  redirectUri: string;
}
/** CG's configuration of one service (dev, nag, gan). */
export interface CgServiceConfig {
  url: string;
  apiKey: string;
}
/** MYT's configuration. */
export interface MytServiceConfig {
  host: string;
  authToken: string;
  tlsCa: Buffer | null;
}

/** A partly configured service stops the boot, naming what is missing; MYT_TLS_CA must be a readable file. */
function checkFromApiServices(config: AppConfig): void {
  const problems: string[] = [];
  for (const [service, names] of Object.entries(FROM_API_SERVICES)) {
    const set = names.filter((n) => config[n] !== undefined);
    if (set.length > 0 && set.length < names.length) {
      const missing = names.filter((n) => config[n] === undefined);
      problems.push(`${missing.join(', ')} must be set with ${set.join(', ')}: ${service} needs ${names.join(', ')} (or none of them)`);
    }
  }
  if (config.MYT_TLS_CA !== undefined) {
    if (config.MYT_API_HOST === undefined) problems.push('MYT_TLS_CA is set without MYT_API_HOST and MYT_AUTH_TOKEN');
    else {
      try {
        MYT_TLS_CAS.set(config, fs.readFileSync(path.resolve(config.MYT_TLS_CA)));
      } catch (err) {
        problems.push(
          `MYT_TLS_CA=${JSON.stringify(config.MYT_TLS_CA)}: cannot read it (${(err as NodeJS.ErrnoException).code ?? 'error'}); it must be a CA certificate file (PEM)`,
        );
      }
    }
  }
  if (problems.length) throw new ConfigError(`Invalid configuration:\n${problems.map((p) => `  ${p}`).join('\n')}`);
}
