import type { PGlite } from '@electric-sql/pglite';
import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The embedded engine runs one statement or transaction at a time, in the order they were asked
 * for. Under load that order starves requests: a request needing four statements queues behind
 * every newer request's first statement four times over, so a few wait many seconds while the
 * median is fine. Here the engine's work is handed out oldest request first: each statement or
 * transaction carries the start time of the HTTP request it serves (or, outside a request, the
 * time it was asked for), and the earliest runs next. A request that has started keeps its turn,
 * so latency is bounded by the requests ahead of it, not by everything arriving meanwhile.
 */
const requestStart = new AsyncLocalStorage<number>();

/** Runs `fn` (and everything it starts) as work of a request that started at `startedAt` (ms). */
export function runAsRequest<T>(startedAt: number, fn: () => T): T {
  return requestStart.run(startedAt, fn);
}

/** Restores the request's start time for the rest of this call chain (after a stream callback lost it). */
export function resumeRequest(startedAt: number): void {
  requestStart.enterWith(startedAt);
}

interface Waiter {
  key: number;
  seq: number;
  start: () => void;
}

/** Hands out one turn at a time, lowest (key, arrival) first. */
export class PriorityGate {
  private busy = false;
  private seq = 0;
  /** Sorted by (key, seq); short (one entry per waiting request), so inserting by binary search is enough. */
  private readonly waiting: Waiter[] = [];

  async run<T>(fn: () => Promise<T>, key = requestStart.getStore() ?? Date.now()): Promise<T> {
    if (this.busy || this.waiting.length > 0) await this.wait(key);
    else this.busy = true;
    try {
      return await fn();
    } finally {
      const next = this.waiting.shift();
      if (next) next.start();
      else this.busy = false;
    }
  }

  /** Waiting turns, for tests. */
  get queued(): number {
    return this.waiting.length;
  }

  private wait(key: number): Promise<void> {
    return new Promise<void>((start) => {
      const waiter = { key, seq: this.seq++, start };
      let lo = 0;
      let hi = this.waiting.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        const w = this.waiting[mid];
        if (w.key < key || (w.key === key && w.seq < waiter.seq)) lo = mid + 1;
        else hi = mid;
      }
      this.waiting.splice(lo, 0, waiter);
    });
  }
}

const GATED = new Set<PropertyKey>(['query', 'exec', 'transaction']);

/**
 * The PGlite instance as Drizzle should see it: its query, exec and transaction calls pass through
 * the gate (a transaction holds its turn until it ends; statements inside it use the transaction
 * object and do not queue again). Everything else is the instance itself.
 */
export function orderedPglite(pglite: PGlite, gate = new PriorityGate()): PGlite {
  return new Proxy(pglite, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop, target);
      if (typeof value !== 'function') return value;
      const method = value as (...args: unknown[]) => unknown;
      if (!GATED.has(prop)) return method.bind(target);
      return (...args: unknown[]) => gate.run(() => method.apply(target, args) as Promise<unknown>);
    },
  });
}
