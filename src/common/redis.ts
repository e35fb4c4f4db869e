import { Redis } from 'ioredis';
import { createClient, type RedisClientType } from 'redis';

/** How long a rate-limit or session command may take before it fails (and the request goes on without Redis). */
const COMMAND_TIMEOUT_MS = 500;
const SESSION_COMMAND_TIMEOUT_MS = 2000;
/** How long a starting process waits for Redis to answer before it gives up. */
export const REDIS_START_WAIT_MS = 60_000;

/**
 * A client for the rate limiter (not yet connected): a command fails at once while disconnected
 * and after COMMAND_TIMEOUT_MS while Redis does not answer, so the limiter's insurance takes over.
 */
export function createRateLimitClient(url: string): Redis {
  const client = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: COMMAND_TIMEOUT_MS,
    connectTimeout: 5000,
  });
  client.on('error', () => undefined); // reconnects on its own; RateLimitService reports the outage
  return client;
}

/**
 * The Redis connections a process needs when REDIS_URL is set. BullMQ needs an ioredis client
 * that retries forever (maxRetriesPerRequest: null), which would make every request wait through
 * a Redis outage, so the rate limiter has its own client that fails fast, and the node-redis
 * client for connect-redis (which speaks only that client's API) does not queue commands while
 * disconnected.
 */
export class RedisConnections {
  private constructor(
    /** BullMQ (the import queue): waits for Redis rather than losing a job. */
    readonly ioredis: Redis,
    /** The rate limiter: fails fast, so its in-memory insurance limiter takes over. */
    readonly rateLimits: Redis,
    readonly sessions: RedisClientType,
    /** Subscribed to the deployment's log level changes (a subscribed client runs no other command). */
    readonly subscriber: Redis,
  ) {}

  /**
   * Connects every client. Redis unreachable at the start (a process started while Redis restarts)
   * is waited for, retrying with a growing pause, for up to `waitMs`; then the last error is thrown.
   */
  static async connect(url: string, options: { waitMs?: number; onWait?: (message: string) => void } = {}): Promise<RedisConnections> {
    const until = Date.now() + (options.waitMs ?? REDIS_START_WAIT_MS);
    for (let pause = 250; ; pause = Math.min(pause * 2, 5000)) {
      try {
        return await RedisConnections.connectOnce(url);
      } catch (err) {
        if (Date.now() + pause > until) throw err;
        options.onWait?.(`Redis is not reachable (${(err as Error).message}); trying again in ${pause} ms.`);
        await new Promise((resolve) => setTimeout(resolve, pause));
      }
    }
  }

  private static async connectOnce(url: string): Promise<RedisConnections> {
    const opened: { disconnect: () => unknown }[] = [];
    try {
      const ioredis = new Redis(url, { maxRetriesPerRequest: null, lazyConnect: true });
      ioredis.on('error', () => undefined); // reconnects on its own; BullMQ reports what it cannot do
      opened.push(ioredis);
      await ioredis.connect();
      const rateLimits = createRateLimitClient(url);
      opened.push(rateLimits);
      await rateLimits.connect();
      const sessions: RedisClientType = createClient({ url, disableOfflineQueue: true, commandOptions: { timeout: SESSION_COMMAND_TIMEOUT_MS } });
      sessions.on('error', () => undefined); // reconnects on its own; commands fail until then
      opened.push({ disconnect: () => sessions.isOpen && sessions.destroy() });
      await sessions.connect();
      const subscriber = new Redis(url, { lazyConnect: true });
      subscriber.on('error', () => undefined); // reconnects and subscribes again on its own
      opened.push(subscriber);
      await subscriber.connect();
      return new RedisConnections(ioredis, rateLimits, sessions, subscriber);
    } catch (err) {
      for (const client of opened) client.disconnect();
      throw err;
    }
  }

  async close(): Promise<void> {
    await Promise.allSettled([this.ioredis.quit(), this.rateLimits.quit(), this.sessions.quit(), this.subscriber.quit()]);
  }
}
