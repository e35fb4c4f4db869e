import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import path from 'node:path';
import { asc, eq, sql } from 'drizzle-orm';
import type { Database } from '../../src/database/database.js';
import { charts } from '../../src/database/schema.js';
import { chartMatchKeys } from '../../src/game-support/match-types.js';
import { SeedLoader, type SeedReport } from '../../src/seeds/seed-loader.js';
import { SeedSource } from '../../src/seeds/seed-source.js';
import { openTestDatabase } from '../support/app.js';

const CLEAN = path.resolve('test/fixtures/seeds/clean');

const chartsSummary = (report: SeedReport) => report.collections.find((c) => c.file === 'charts-iidx.json')!;

/**
 * The chart match key columns are derived from chart data by the match-type registry. When a registry line starts
 * reading a data field the stored charts were written without, the next seed load fills the column in: no migration.
 */
describe('seed loads keep the chart match keys in line with the match-type registry', () => {
  let database: Database;
  let drop: () => Promise<void>;
  const load = () => new SeedLoader(database).load(new SeedSource(CLEAN), { games: ['iidx'] });
  const stored = () =>
    database.db
      .select({ data: charts.data, inGameIDs: charts.inGameIDs, chartHashes: charts.chartHashes })
      .from(charts)
      .where(eq(charts.game, 'iidx'))
      .orderBy(asc(charts.chartID));

  beforeAll(async () => {
    ({ database, drop } = await openTestDatabase());
  });
  afterAll(async () => {
    await drop();
  });

  it('writes the derived keys, rewrites charts whose stored keys fall behind, and then nothing', async () => {
    await load();
    const rows = await stored();
    expect(rows.length).toBe(2);
    for (const r of rows) expect({ inGameIDs: r.inGameIDs, chartHashes: r.chartHashes }).toEqual(chartMatchKeys(r.data));

    // as if the charts had been stored before the registry read their hash and in-game id fields
    await database.db.execute(sql`UPDATE ${charts} SET ${sql.identifier('chart_hashes')} = '{}', ${sql.identifier('in_game_ids')} = '{}' WHERE game = 'iidx'`);
    const backfill = await load();
    expect(chartsSummary(backfill)).toMatchObject({ inserted: 0, updated: 2, unchanged: 0 });
    for (const r of await stored()) expect({ inGameIDs: r.inGameIDs, chartHashes: r.chartHashes }).toEqual(chartMatchKeys(r.data));

    const again = await load();
    expect(chartsSummary(again)).toMatchObject({ inserted: 0, updated: 0, unchanged: 2 });
  });
});
