import { boolean, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { users } from './users.js';

/**
 * A user's Fervidex settings (Tachi's `fer-settings`): the cards whose plays are accepted (null or
 * empty: any card) and whether the next arcade profile dump imports its scores (once; reset on use).
 * A user without a row has the defaults: no card filter, no forced static import.
 */
export const fervidexSettings = pgTable('fervidex_settings', {
  userID: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  cards: text('cards').array(),
  forceStaticImport: boolean('force_static_import').notNull().default(false),
});
