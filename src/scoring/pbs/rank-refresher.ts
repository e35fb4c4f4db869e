import { sql } from 'drizzle-orm';
import { queryRows, type Database } from '../../database/database.js';
import { chartRankings } from '../../database/schema.js';
import { CHART_RANK_LOCK, writeChartRanks } from './chart-ranks.writer.js';

/**
 * Re-ranks dirty charts (see chart_rankings), oldest change first, one chart per short
 * transaction, until none is left or `maxCharts` were refreshed. A chart is claimed with FOR
 * UPDATE SKIP LOCKED, so processes share the work, and only if its rank lock is free at once
 * (pg_try_advisory_xact_lock): an import holding it will wait for this row, so waiting for the
 * lock here could deadlock. A busy chart is skipped until the next call. Only PBs whose rank
 * changed are written; the chart is marked clean in the same transaction, and no change can
 * land meanwhile, as every writer of its PBs takes that lock first. Returns the charts refreshed.
 */
export async function refreshDirtyCharts(database: Database, maxCharts = Number.POSITIVE_INFINITY): Promise<number> {
  // Outside a transaction first: an idle service commits nothing (the embedded statistics job
  // ANALYZEs only after commits).
  if ((await dirtyChartCount(database)) === 0) return 0;
  const busy: string[] = [];
  let refreshed = 0;
  while (refreshed < maxCharts) {
    const outcome = await database.transaction(async (tx) => {
      const [claimed] = await queryRows<{ chart_id: string; game: string; playtype: string }>(
        tx,
        sql`SELECT chart_id, game, playtype FROM ${chartRankings}
        WHERE dirty_since IS NOT NULL AND NOT (chart_id = ANY(${sql.param(busy)}::text[]))
        ORDER BY dirty_since, chart_id LIMIT 1 FOR UPDATE SKIP LOCKED`,
      );
      if (!claimed) return 'none';
      const [lock] = await queryRows<{ got: boolean }>(tx, sql`SELECT pg_try_advisory_xact_lock(${CHART_RANK_LOCK}, hashtext(${claimed.chart_id})) AS got`);
      if (!lock.got) return { busy: claimed.chart_id };
      await writeChartRanks(tx, claimed, [claimed.chart_id]);
      return 'refreshed';
    });
    if (outcome === 'none') break;
    if (outcome === 'refreshed') refreshed++;
    else busy.push(outcome.busy);
  }
  return refreshed;
}

/** How many charts have stale stored ranks (chart_rankings_dirty_idx). */
export async function dirtyChartCount(database: Database): Promise<number> {
  const [row] = await queryRows<{ n: number }>(database.db, sql`SELECT count(*)::int AS n FROM ${chartRankings} WHERE dirty_since IS NOT NULL`);
  return Number(row.n);
}
