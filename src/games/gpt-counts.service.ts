import { Injectable } from '@nestjs/common';
import type { GptSupport } from '../game-support/types.js';
import { GptLeaderboardsRepository } from '../repositories/gpt-leaderboards.repository.js';

/** As Tachi: a GPT's counts are kept for an hour. */
export const GPT_COUNTS_TTL_MS = 60 * 60 * 1000;

export interface GptCounts {
  scoreCount: number;
  playerCount: number;
  chartCount: number;
}

/** How many scores, players and charts each GPT has, counted at most once an hour per GPT (in this process). */
@Injectable()
export class GptCountsService {
  private readonly cache = new Map<string, { at: number; counts: Promise<GptCounts> }>();

  constructor(private readonly repository: GptLeaderboardsRepository) {}

  counts(gpt: GptSupport, now = Date.now()): Promise<GptCounts> {
    const key = `${gpt.game}:${gpt.playtype}`;
    const cached = this.cache.get(key);
    if (cached && now - cached.at < GPT_COUNTS_TTL_MS) return cached.counts;
    const counts = this.repository.counts(gpt);
    this.cache.set(key, { at: now, counts });
    // A failed count is not kept.
    counts.catch(() => this.cache.get(key)?.counts === counts && this.cache.delete(key));
    return counts;
  }
}
