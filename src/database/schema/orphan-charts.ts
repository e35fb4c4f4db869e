import { index, integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { unixMs } from './columns.js';
import { users } from './users.js';

/**
 * A song and chart as a player's client described them, in the seed records' shape (without the
 * song id, which is given when the chart is created).
 */
export interface OrphanChartRecords {
  song: { title: string; artist: string; altTitles: string[]; searchTerms: string[]; data: Record<string, unknown> };
  chart: {
    chartID: string;
    level: string;
    levelNum: number;
    isPrimary: boolean;
    difficulty: string;
    versions: string[];
    data: Record<string, unknown>;
  };
}

/**
 * Charts the catalog does not know, sent by players' clients (beatoraja): one row per chart and
 * player who sent it. Once enough distinct players have, the song and chart are created and the
 * rows go.
 */
export const orphanChartQueue = pgTable(
  'orphan_chart_queue',
  {
    game: text('game').notNull(),
    playtype: text('playtype').notNull(),
    /** The chart's lowercase hash (SHA256 for BMS and PMS). */
    chartHash: text('chart_hash').notNull(),
    userID: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** What this player's client said the song and chart are. */
    records: jsonb('records').$type<OrphanChartRecords>().notNull(),
    timeAdded: unixMs('time_added').notNull(),
  },
  (t) => [primaryKey({ columns: [t.game, t.playtype, t.chartHash, t.userID] }), index('orphan_chart_queue_user_idx').on(t.userID)],
);
