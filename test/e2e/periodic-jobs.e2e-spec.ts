import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { SchedulerRegistry } from '@nestjs/schedule';
import { IMPORT_INPUT_RETENTION_JOB } from '../../src/import-inputs/import-inputs.scheduler.js';
import { EMBEDDED_ANALYZE_JOB } from '../../src/database/embedded-statistics.js';
import { SESSION_PRUNE_JOB } from '../../src/http/db-session.store.js';
import { CATALOG_VERSION_CHECK_JOB } from '../../src/repositories/catalog-cache.js';
import { RANK_REFRESH_JOB } from '../../src/scoring/pbs/rank-refresher.service.js';
import { WEBHOOK_POLL_JOB } from '../../src/webhooks/webhooks.service.js';
import { createTestApp, usingPostgres, usingRedis } from '../support/app.js';

/**
 * The services' periodic jobs are intervals in Nest's SchedulerRegistry (ScheduleModule, which
 * CoreModule imports): each is registered while the application runs, unref'd (it never keeps a
 * process alive), and stopped and removed when the application closes.
 */
describe('periodic jobs', () => {
  afterEach(() => {
    jest.restoreAllMocks();
  });

  it('are registered while the app runs and cleared when it closes', async () => {
    const t = await createTestApp({ RANK_REFRESH_INTERVAL_MS: '60000' });
    const registry = t.app.get(SchedulerRegistry);
    const expected = [
      RANK_REFRESH_JOB,
      WEBHOOK_POLL_JOB,
      IMPORT_INPUT_RETENTION_JOB,
      // On PostgreSQL the catalog cache polls the catalog version; the embedded engine is ANALYZEd by the server.
      usingPostgres ? CATALOG_VERSION_CHECK_JOB : EMBEDDED_ANALYZE_JOB,
      // Login sessions are pruned from the database when they are not kept in Redis.
      ...(usingRedis ? [] : [SESSION_PRUNE_JOB]),
    ];
    expect(registry.getIntervals().sort()).toEqual([...expected].sort());
    const timers = expected.map((name) => registry.getInterval(name) as NodeJS.Timeout);
    for (const timer of timers) expect(timer.hasRef()).toBe(false);

    const cleared = jest.spyOn(globalThis, 'clearInterval');
    await t.close();
    expect(registry.getIntervals()).toEqual([]);
    for (const timer of timers) expect(cleared).toHaveBeenCalledWith(timer);
  });

  it('the rank refresher has none when RANK_REFRESH_INTERVAL_MS is 0', async () => {
    const t = await createTestApp({ RANK_REFRESH_INTERVAL_MS: '0' });
    try {
      expect(t.app.get(SchedulerRegistry).doesExist('interval', RANK_REFRESH_JOB)).toBe(false);
    } finally {
      await t.close();
    }
  });
});
