import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { AppConfig } from '../../config/app-config.js';
import { ChangeFeed } from '../../database/change-feed.js';
import type { ApiRequest } from '../request.js';

/** A finished answer: the bytes sent, their ETag, and what they were built from. */
export interface CachedAnswer {
  body: Buffer;
  etag: string;
  contentType: string;
  /** The change scopes the answer depends on (database/change-feed.ts `scope`). */
  scopes: readonly string[];
  /** The change feed's position when the answer started to be built. */
  position: number;
}

/** Per-answer bookkeeping beside the body (key, scopes, headers), counted against the budget. */
const ENTRY_OVERHEAD_BYTES = 512;

/**
 * Finished answers of the @CachedRead routes, by request (path and query; `me` as the signed-in
 * user's id), least recently used first out when READ_CACHE_MB is full. An answer is served only
 * while the change feed shows none of its scopes changed since it started to be built, so every
 * committed write, by any process, seed load or admin command, is seen by the next read.
 */
@Injectable()
export class ReadCache implements OnApplicationBootstrap {
  private readonly entries: LRUCache<string, CachedAnswer> | null;
  /** Counters, for tests and the benchmarks. */
  readonly stats = { hits: 0, notModified: 0, misses: 0, stale: 0, stored: 0 };

  constructor(
    config: AppConfig,
    readonly feed: ChangeFeed,
  ) {
    const maxSize = config.READ_CACHE_MB * 1024 * 1024;
    this.entries =
      maxSize > 0
        ? new LRUCache<string, CachedAnswer>({
            maxSize,
            sizeCalculation: (answer, key) => answer.body.length + key.length + ENTRY_OVERHEAD_BYTES,
          })
        : null;
  }

  async onApplicationBootstrap(): Promise<void> {
    if (this.entries) await this.feed.start();
  }

  get enabled(): boolean {
    return this.entries !== null;
  }

  /** The cache key of a GET, or undefined when it cannot be cached (`me` without a user). */
  keyOf(req: ApiRequest): string | undefined {
    const url = req.originalUrl;
    const me = url.indexOf('/users/me/');
    if (me < 0) return url;
    const user = req.auth?.user;
    return user ? `${url.slice(0, me)}/users/~${user.id}/${url.slice(me + '/users/me/'.length)}` : undefined;
  }

  /** The answer stored under key, if nothing it depends on changed since. */
  lookup(key: string): CachedAnswer | undefined {
    const answer = this.entries?.get(key);
    if (!answer) return undefined;
    if (this.feed.unchangedSince(answer.scopes, answer.position)) return answer;
    this.entries!.delete(key);
    this.stats.stale++;
    return undefined;
  }

  /** Keeps an answer unless something it depends on already changed while it was built. */
  store(key: string, answer: CachedAnswer): void {
    if (!this.entries || !this.feed.unchangedSince(answer.scopes, answer.position)) return;
    this.entries.set(key, answer);
    this.stats.stored++;
  }

  clear(): void {
    this.entries?.clear();
  }

  /** Waits until this process has seen the changes of every transaction it committed so far. */
  async barrier(): Promise<void> {
    if (this.entries) await this.feed.barrier();
  }
}
