import { AsyncLocalStorage } from 'node:async_hooks';

/** The current request's read routing (replicas.ts routes by it; the caches cap their positions with it). */
/** How a request reads: the position it must see, and once chosen, the replica it reads from. */
export interface ReadRoute {
  /** The change feed position the request must see. */
  required: number;
  /** Every further query goes to the primary. */
  pinned: boolean;
  /** The replica chosen for the request (replicas.ts). */
  replica?: object;
  /** The lowest `caughtUp` of the replicas this request read from: what it saw is current as of this position. */
  seenPosition?: number;
}

export const routes = new AsyncLocalStorage<ReadRoute>();

/** Runs fn (a request's handling) so that its plain reads may go to a replica that has replayed past `required`. */
export function runWithReplicaReads<T>(required: number, fn: () => T): T {
  return routes.run({ required, pinned: false }, fn);
}

/** Runs fn with every query on the primary, whatever the request allows (the catalog cache's loads). */
export function onPrimary<T>(fn: () => T): T {
  return routes.run({ required: 0, pinned: true }, fn);
}

/** The rest of the current request reads from the primary (a route that must see the latest write: an import's poll). */
export function pinToPrimary(): void {
  const route = routes.getStore();
  if (route) route.pinned = true;
}

/**
 * The change feed position that what this request has read so far is known to be current as of:
 * `position` when it read only from the primary, else no later than the replicas it read from had
 * replayed. The read cache and FeedMemo keep an answer as of this, so a replica never makes them
 * serve a stale one.
 */
export function readPositionCap(position: number): number {
  const seen = routes.getStore()?.seenPosition;
  return seen === undefined ? position : Math.min(position, seen);
}
