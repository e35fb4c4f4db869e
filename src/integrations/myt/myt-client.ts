import * as grpc from '@grpc/grpc-js';
import { FromApiError } from '../from-api/source.js';
import { mytService, type MytServiceName } from './myt-protos.js';

/** The deployment's MYT: `MYT_API_HOST` (host:port), the server-wide `MYT_AUTH_TOKEN`, and `MYT_TLS_CA` (a CA to trust, or null for the system's). */
export interface MytConfig {
  host: string;
  authToken: string;
  tlsCa: Buffer | null;
}

/** What a player links: the 20-digit access code of their card. */
export interface MytCredentials {
  cardAccessCode: string;
}

/** How long a call may take, and what cancels it. */
export interface CallLimits {
  /** A unary call's deadline, and the longest a stream may stay silent, in milliseconds. */
  timeoutMs: number;
  /** The sync's signal: its abort cancels the call. */
  signal: AbortSignal;
}

type Callback = (error: grpc.ServiceError | null, response?: unknown) => void;
type UnaryMethod = (request: unknown, metadata: grpc.Metadata, options: grpc.CallOptions, callback: Callback) => grpc.ClientUnaryCall;
type StreamMethod = (request: unknown, metadata: grpc.Metadata, options: grpc.CallOptions) => grpc.ClientReadableStream<unknown>;

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

/** The error of a sync stopped by its signal: the signal's own FromApiError if it carries one, else the sync's deadline. */
export function abortedError(signal: AbortSignal): FromApiError {
  const reason: unknown = signal.reason;
  if (reason instanceof FromApiError) return reason;
  return new FromApiError(504, 'The sync with MYT was stopped: it ran past its deadline or was cancelled. Nothing was imported.');
}

/**
 * A failed call's error, in words that name neither MYT's address nor any credential. `during` says what was being
 * done ("looking up your card", "streaming your plays").
 */
export function callError(error: grpc.ServiceError, during: string, timeoutMs: number): FromApiError {
  switch (error.code) {
    case grpc.status.UNAUTHENTICATED:
    case grpc.status.PERMISSION_DENIED:
      return new FromApiError(502, `MYT refused this server's credentials while ${during}: an administrator must check MYT_AUTH_TOKEN.`);
    case grpc.status.DEADLINE_EXCEEDED:
      return new FromApiError(504, `MYT did not answer within ${seconds(timeoutMs)} while ${during}. Try again later.`);
    case grpc.status.UNAVAILABLE:
      return new FromApiError(502, `MYT could not be reached while ${during}. Try again later.`);
    default:
      return new FromApiError(502, `MYT answered with an error while ${during}. Try again later.`);
  }
}

/**
 * One sync's connection to MYT: gRPC over TLS trusting the configured CA (else the system's), the bearer token as
 * `authorization` metadata on every call, and the deployment's User-Agent. Close it when the sync ends.
 */
export class MytConnection {
  private readonly credentials: grpc.ChannelCredentials;
  private readonly clients = new Map<MytServiceName, grpc.Client>();

  constructor(
    private readonly config: MytConfig,
    private readonly userAgent: string,
  ) {
    this.credentials = grpc.credentials.createSsl(config.tlsCa ?? undefined);
  }

  private metadata(): grpc.Metadata {
    const metadata = new grpc.Metadata();
    metadata.set('authorization', `Bearer ${this.config.authToken}`);
    return metadata;
  }

  private client(service: MytServiceName): grpc.Client {
    let client = this.clients.get(service);
    if (!client) {
      const Client = mytService(service);
      client = new Client(this.config.host, this.credentials, { 'grpc.primary_user_agent': this.userAgent });
      this.clients.set(service, client);
    }
    return client;
  }

  private method<M>(service: MytServiceName, method: string): M {
    const client = this.client(service) as unknown as Record<string, unknown>;
    const fn = client[method];
    if (typeof fn !== 'function') throw new Error(`MYT service ${service} has no method ${method}`);
    return (fn as (...args: unknown[]) => unknown).bind(client) as M;
  }

  /** A unary call with a deadline of `timeoutMs`, cancelled when the signal aborts. */
  unary<Response>(
    service: MytServiceName,
    method: string,
    request: unknown,
    limits: CallLimits,
    during: string,
    /** This call's own meaning of some status codes (the card lookup's NOT_FOUND); undefined for the usual errors. */
    special?: (error: grpc.ServiceError) => FromApiError | undefined,
  ): Promise<Response> {
    const { signal, timeoutMs } = limits;
    if (signal.aborted) return Promise.reject(abortedError(signal));
    const call = this.method<UnaryMethod>(service, method);
    return new Promise<Response>((resolve, reject) => {
      let settled = false;
      const onAbort = () => {
        if (settled) return;
        settled = true;
        pending.cancel();
        reject(abortedError(signal));
      };
      const pending = call(request, this.metadata(), { deadline: Date.now() + timeoutMs }, (error, response) => {
        signal.removeEventListener('abort', onAbort);
        if (settled) return;
        settled = true;
        if (error) reject(special?.(error) ?? callError(error, during, timeoutMs));
        else resolve(response as Response);
      });
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  /**
   * A server stream: each item goes to `onItem` as it arrives. The stream fails when it stays silent for `timeoutMs`,
   * when the signal aborts (both cancel it), or when MYT ends it with an error.
   */
  stream(service: MytServiceName, method: string, request: unknown, limits: CallLimits, during: string, onItem: (item: unknown) => void): Promise<void> {
    const { signal, timeoutMs } = limits;
    if (signal.aborted) return Promise.reject(abortedError(signal));
    const call = this.method<StreamMethod>(service, method)(request, this.metadata(), {});
    return new Promise<void>((resolve, reject) => {
      let settled = false;
      let timer: NodeJS.Timeout | undefined;
      const finish = (error?: FromApiError) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        if (error) {
          call.cancel();
          reject(error);
        } else resolve();
      };
      const onAbort = () => finish(abortedError(signal));
      const armSilence = () => {
        clearTimeout(timer);
        timer = setTimeout(
          () => finish(new FromApiError(504, `MYT sent nothing for ${seconds(timeoutMs)} while ${during}; the sync was stopped. Nothing was imported.`)),
          timeoutMs,
        );
      };
      call.on('data', (item: unknown) => {
        if (settled) return;
        armSilence();
        try {
          onItem(item);
        } catch (error) {
          finish(error instanceof FromApiError ? error : new FromApiError(502, `MYT sent an item that could not be read while ${during}.`));
        }
      });
      call.on('error', (error: grpc.ServiceError) => finish(callError(error, during, timeoutMs)));
      call.on('end', () => finish());
      signal.addEventListener('abort', onAbort, { once: true });
      armSilence();
    });
  }

  close(): void {
    for (const client of this.clients.values()) client.close();
    this.clients.clear();
  }
}
