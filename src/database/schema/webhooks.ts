import { sql } from 'drizzle-orm';
import { bigserial, index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { unixMs } from './columns.js';
import { apiClients } from './api-keys.js';
import { users } from './users.js';

/** What a delivery posts: Tachi's `{type, content}` webhook body. */
export interface WebhookPayload {
  type: string;
  content: Record<string, unknown>;
}

export type WebhookDeliveryStatus = 'pending' | 'delivered' | 'failed';

/**
 * One webhook event for one client: the delivery log, and (status `pending`, `next_attempt_at`)
 * the persisted retry queue. `event_key` makes enqueueing an event twice (a redelivered import
 * job) one delivery.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    deliveryID: bigserial('delivery_id', { mode: 'number' }).primaryKey(),
    clientID: text('client_id')
      .notNull()
      .references(() => apiClients.clientID, { onDelete: 'cascade' }),
    /** The user the event is about. */
    userID: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    eventKey: text('event_key').notNull(),
    eventType: text('event_type').notNull(),
    payload: jsonb('payload').$type<WebhookPayload>().notNull(),
    status: text('status').$type<WebhookDeliveryStatus>().notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: unixMs('next_attempt_at').notNull(),
    lastAttemptAt: unixMs('last_attempt_at'),
    /** The HTTP status of the last attempt's final response (after redirects), null when none came. */
    lastStatusCode: integer('last_status_code'),
    lastError: text('last_error'),
    /** The URL the last attempt posted to (the client's webhookUri then). */
    lastUrl: text('last_url'),
    createdAt: unixMs('created_at').notNull(),
    deliveredAt: unixMs('delivered_at'),
  },
  (t) => [
    uniqueIndex('webhook_deliveries_event_idx').on(t.clientID, t.eventKey),
    index('webhook_deliveries_client_idx').on(t.clientID, t.createdAt),
    index('webhook_deliveries_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`status = 'pending'`),
  ],
);

export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect;
