import { pgTable, text } from 'drizzle-orm/pg-core';
import { unixMs } from './columns.js';

/** Secrets generated on first boot and shared by every instance (e.g. the session cookie secret). */
export const appSecrets = pgTable('app_secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  createdAt: unixMs('created_at').notNull(),
});
