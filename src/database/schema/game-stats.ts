import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { unixMs } from './columns.js';
import { users } from './users.js';

/** A user's profile on one GPT (spec UserGameStatsDocument). A row exists once the user has played the GPT. */
export const userGameStats = pgTable(
  'user_game_stats',
  {
    userID: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    game: text('game').notNull(),
    playtype: text('playtype').notNull(),
    ratings: jsonb('ratings')
      .$type<Record<string, number | null>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    classes: jsonb('classes')
      .$type<Record<string, string>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    lastUpdated: unixMs('last_updated').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userID, t.game, t.playtype] }), index('user_game_stats_gpt_user_idx').on(t.game, t.playtype, t.userID)],
);

export type GameStatsRow = typeof userGameStats.$inferSelect;
