import { boolean, index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { unixMs } from './columns.js';
import { users } from './users.js';

export interface NotificationBody {
  type: string;
  content: Record<string, unknown>;
}

export const notifications = pgTable(
  'notifications',
  {
    notifID: text('notif_id').primaryKey(),
    sentTo: integer('sent_to')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    body: jsonb('body').$type<NotificationBody>().notNull(),
    sentAt: unixMs('sent_at').notNull(),
    read: boolean('read').notNull().default(false),
  },
  (t) => [index('notifications_user_sent_idx').on(t.sentTo, t.sentAt)],
);

export type NotificationRow = typeof notifications.$inferSelect;
