import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { findGpt } from '../../src/game-support/registry.js';
import { GamesModule } from '../../src/games/games.module.js';
import { GPT_COUNTS_TTL_MS, GptCountsService } from '../../src/games/gpt-counts.service.js';
import { insertProfile, insertUser, openServiceModule, type ServiceTestModule } from './support-db.js';

const SP = findGpt('iidx', 'SP')!;
const DP = findGpt('iidx', 'DP')!;

describe('GptCountsService', () => {
  let t: ServiceTestModule;
  let counts: GptCountsService;

  beforeAll(async () => {
    t = await openServiceModule([GamesModule]);
    counts = t.module.get(GptCountsService);
  });
  afterAll(() => t.close());

  it("counts a GPT's players, keeps the counts for an hour, then counts again", async () => {
    const now = 1_000_000;
    expect(await counts.counts(SP, now)).toEqual({ scoreCount: 0, playerCount: 0, chartCount: 0 });
    const a = await insertUser(t.db, 'counted_a');
    const b = await insertUser(t.db, 'counted_b');
    await insertProfile(t.db, a.id, SP, {});
    await insertProfile(t.db, b.id, SP, {});
    await insertProfile(t.db, b.id, DP, {});
    expect((await counts.counts(SP, now + GPT_COUNTS_TTL_MS - 1)).playerCount).toBe(0);
    expect((await counts.counts(SP, now + GPT_COUNTS_TTL_MS)).playerCount).toBe(2);
    expect((await counts.counts(DP, now + GPT_COUNTS_TTL_MS)).playerCount).toBe(1);
  });
});
