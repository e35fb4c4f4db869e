import { and, eq } from 'drizzle-orm';
import type { Database } from '../../database/database.js';
import { chartRankings, personalBests } from '../../database/schema.js';
import { allGpts } from '../../game-support/registry.js';
import { rerankCharts } from './chart-ranks.writer.js';

/** Charts ranked per transaction: each holds its charts' rank locks only that long. */
const CHARTS_PER_TRANSACTION = 500;

export interface RerankResult {
  charts: number;
  changed: number;
}

/**
 * Recomputes the chart ranks and player counts of every PB of these games (all games by default),
 * chart batch by chart batch, each in its own transaction under the same per-chart locks imports
 * take; every chart is clean afterwards.
 */
export async function rerankAll(database: Database, games?: readonly string[]): Promise<RerankResult> {
  const result: RerankResult = { charts: 0, changed: 0 };
  for (const gpt of allGpts().filter((g) => !games || games.includes(g.game))) {
    // The charts with PBs, and every chart with a count (or a dirty mark) to correct.
    const chartIDs = (
      await database.db
        .selectDistinct({ chartID: personalBests.chartID })
        .from(personalBests)
        .where(and(eq(personalBests.game, gpt.game), eq(personalBests.playtype, gpt.playtype)))
        .union(
          database.db
            .select({ chartID: chartRankings.chartID })
            .from(chartRankings)
            .where(and(eq(chartRankings.game, gpt.game), eq(chartRankings.playtype, gpt.playtype))),
        )
    ).map((r) => r.chartID);
    for (let i = 0; i < chartIDs.length; i += CHARTS_PER_TRANSACTION) {
      const batch = chartIDs.slice(i, i + CHARTS_PER_TRANSACTION);
      result.changed += await database.transaction((tx) => rerankCharts(tx, gpt, batch));
      result.charts += batch.length;
    }
  }
  return result;
}
