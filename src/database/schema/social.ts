import { index, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { unixMs } from './columns.js';
import { users } from './users.js';

/** A user's rivals on a GPT: `userID` has `rivalID` as a rival on (game, playtype). Both users' deletion removes the row. */
export const rivals = pgTable(
  'rivals',
  {
    userID: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    game: text('game').notNull(),
    playtype: text('playtype').notNull(),
    rivalID: integer('rival_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    since: unixMs('since').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userID, t.game, t.playtype, t.rivalID] }), index('rivals_challengers_idx').on(t.rivalID, t.game, t.playtype)],
);

/** `userID` follows `followedID` (site-wide). Both users' deletion removes the row. */
export const follows = pgTable(
  'follows',
  {
    userID: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    followedID: integer('followed_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    since: unixMs('since').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userID, t.followedID] }), index('follows_followed_idx').on(t.followedID)],
);

export type RivalRow = typeof rivals.$inferSelect;
export type FollowRow = typeof follows.$inferSelect;
