import { Injectable } from '@nestjs/common';
import { and, desc, eq, lte, sql } from 'drizzle-orm';
import { Database } from '../database/database.js';
import { notifications, users, type NotificationBody, type NotificationRow } from '../database/schema.js';

@Injectable()
export class NotificationsRepository {
  constructor(private readonly database: Database) {}

  async insert(notification: Omit<NotificationRow, 'read'>): Promise<NotificationRow> {
    const [row] = await this.database.db.insert(notifications).values(notification).returning();
    return row;
  }

  /**
   * The same notification to every user, in one INSERT … SELECT; each gets its own notifID ("N" and
   * 40 hex, from two random UUIDs). Returns how many were sent.
   */
  async insertForEveryUser(title: string, body: NotificationBody, sentAt: number): Promise<number> {
    const inserted = await this.database.db
      .insert(notifications)
      .select(
        this.database.db
          .select({
            notifID: sql<string>`'N' || replace(gen_random_uuid()::text, '-', '') || left(replace(gen_random_uuid()::text, '-', ''), 8)`.as('notif_id'),
            sentTo: users.id,
            title: sql<string>`${title}::text`.as('title'),
            body: sql<NotificationBody>`${JSON.stringify(body)}::jsonb`.as('body'),
            sentAt: sql<number>`${sentAt}::bigint`.as('sent_at'),
            read: sql<boolean>`false`.as('read'),
          })
          .from(users),
      )
      .returning({ id: notifications.notifID });
    return inserted.length;
  }

  /** Newest first. */
  listForUser(userID: number): Promise<NotificationRow[]> {
    return this.database.db
      .select()
      .from(notifications)
      .where(eq(notifications.sentTo, userID))
      .orderBy(desc(notifications.sentAt), desc(notifications.notifID));
  }

  async markReadSentUpTo(userID: number, sentAt: number): Promise<void> {
    await this.database.db
      .update(notifications)
      .set({ read: true })
      .where(and(eq(notifications.sentTo, userID), lte(notifications.sentAt, sentAt)));
  }

  async deleteSentUpTo(userID: number, sentAt: number): Promise<void> {
    await this.database.db.delete(notifications).where(and(eq(notifications.sentTo, userID), lte(notifications.sentAt, sentAt)));
  }
}
