import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';

/** A level to set now, and when each process returns to its own configured level (null: never). */
export interface LogLevelChange {
  level: string;
  resetAt: number | null;
}

const LEVELS = new Set(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']);

export interface LogLevelChannel {
  /** Publishes; a client that fails fast, so an admin request does not wait through a Redis outage. */
  publisher: Redis;
  /** A connection of its own: a subscribed ioredis client can run no other command. */
  subscriber: Redis;
  keyPrefix: string;
}

/**
 * One process's log level. A change applies here at once and, with Redis, is published to every
 * other process of the deployment (API and workers, subscribed to the same channel), each of
 * which applies it and returns to its own configured level at resetAt.
 */
export class LogLevelSwitch {
  private readonly id = randomUUID();
  private resetTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly logger: () => { level: string },
    private readonly configured: string,
    private readonly channel: LogLevelChannel | null,
    private readonly onError: (message: string) => void = () => undefined,
  ) {}

  private get name() {
    return `${this.channel?.keyPrefix}:log-level`;
  }

  /** Subscribes to the other processes' changes (nothing to do without Redis). */
  async start(): Promise<void> {
    if (!this.channel) return;
    this.channel.subscriber.on('message', (channel: string, message: string) => {
      if (channel === this.name) this.receive(message);
    });
    await this.channel.subscriber.subscribe(this.name);
  }

  /** Applies the change here, then tells the other processes. Returns the level it replaced. */
  async change(change: LogLevelChange): Promise<string> {
    const from = this.apply(change);
    if (this.channel) {
      try {
        await this.channel.publisher.publish(this.name, JSON.stringify({ ...change, sender: this.id }));
      } catch (err) {
        this.onError(`Log level set to ${change.level} in this process only: Redis did not take it (${String(err)}).`);
      }
    }
    return from;
  }

  private receive(message: string) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(message);
    } catch {
      return;
    }
    const { level, resetAt, sender } = (parsed ?? {}) as Record<string, unknown>;
    if (sender === this.id || typeof level !== 'string' || !LEVELS.has(level)) return;
    if (resetAt !== null && typeof resetAt !== 'number') return;
    this.apply({ level, resetAt });
  }

  private apply(change: LogLevelChange): string {
    const logger = this.logger();
    const from = logger.level;
    logger.level = change.level;
    clearTimeout(this.resetTimer);
    this.resetTimer = undefined;
    if (change.resetAt !== null) {
      this.resetTimer = setTimeout(() => (this.logger().level = this.configured), Math.max(0, change.resetAt - Date.now()));
      this.resetTimer.unref();
    }
    return from;
  }

  /** Stops the pending reset. The subscriber connection is closed with the process's other Redis connections. */
  stop() {
    clearTimeout(this.resetTimer);
    this.resetTimer = undefined;
  }
}
