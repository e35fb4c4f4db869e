import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { EmbeddedStatistics } from '../../src/database/embedded-statistics.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { batchManual, imported, loadFixtureCatalog, player, T0 } from '../support/imports.js';
import { lastAnalyzed, type TableName } from '../support/stored.js';

/** The embedded engine has no autovacuum: the server refreshes planner statistics itself after writes. */
describe('planner statistics on the embedded database', () => {
  let t: TestApp;
  const lastAnalyze = (table: TableName) => lastAnalyzed(t, table);

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('a seed load analyzes the catalog it wrote', async () => {
    await loadFixtureCatalog(t.database, 'catalog', ['sdvx']);
    expect(await lastAnalyze('charts')).not.toBeNull();
  });

  it('analyzes after transactions were committed, and not again without new ones', async () => {
    if (t.database.kind !== 'pglite') return; // PostgreSQL servers leave it to autovacuum
    const statistics = t.app.get(EmbeddedStatistics);
    const p = await player(t);
    await imported(
      t,
      p.token,
      batchManual('sdvx', 'Single', [{ matchType: 'sdvxInGameID', identifier: '1001', difficulty: 'MXM', score: 9_000_000, lamp: 'CLEAR', timeAchieved: T0 }]),
    );
    expect(await lastAnalyze('scores')).toBeNull();
    await statistics.refresh();
    const first = await lastAnalyze('scores');
    expect(first).not.toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 20));
    await statistics.refresh();
    expect(await lastAnalyze('scores')).toBe(first);
  });
});
