import { bigserial, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { unixMs } from './columns.js';
import { users } from './users.js';

/** How an admin action arrived: an administrator's session or API token, or the CLI on the server. */
export type AdminActor = 'session' | 'token' | 'cli';

/** One row per admin action (route or CLI command): who, what, when, with which parameters. Read newest first by id. */
export const adminAuditLog = pgTable('admin_audit_log', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  /** The administrator; null for the CLI, or once the account is deleted. */
  userID: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
  via: text('via').$type<AdminActor>().notNull(),
  action: text('action').notNull(),
  params: jsonb('params').$type<Record<string, unknown>>().notNull(),
  timestamp: unixMs('timestamp').notNull(),
});

export type AdminAuditRow = typeof adminAuditLog.$inferSelect;
