import { boolean, integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { unixMs } from './columns.js';
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

/** A user's kshook (SOUND VOLTEX Konaste) settings (Tachi's `kshook-sv6c-settings`): whether the next profile export imports its scores. */
export const kshookSv6cSettings = pgTable('kshook_sv6c_settings', {
  userID: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  forceStaticImport: boolean('force_static_import').notNull().default(false),
});

/**
 * A player's link to another service (`POST /import/from-api`): one row per (user, service). The
 * credentials (KAI's tokens, a CG card and PIN, a MYT access code) are JSON encrypted with
 * SecretsService (context: integrationCredentialsContext); `facts` holds what GET may show (never a secret).
 */
export const integrationCredentials = pgTable(
  'integration_credentials',
  {
    userID: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    service: text('service').notNull(),
    credentialsEncrypted: text('credentials_encrypted').notNull(),
    facts: jsonb('facts').$type<Record<string, unknown>>().notNull().default({}),
    linkedAt: unixMs('linked_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userID, t.service] })],
);

/** Where a player's last successful sync of an `api/` import type ended (the source's cursor), stored by that import's transaction. */
export const fromApiSyncState = pgTable(
  'from_api_sync_state',
  {
    userID: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    importType: text('import_type').notNull(),
    cursor: jsonb('cursor').$type<unknown>(),
    importID: text('import_id').notNull(),
    syncedAt: unixMs('synced_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userID, t.importType] })],
);

export type IntegrationCredentialsRow = typeof integrationCredentials.$inferSelect;
export type FromApiSyncStateRow = typeof fromApiSyncState.$inferSelect;
