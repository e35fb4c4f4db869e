import { Injectable } from '@nestjs/common';
import { and, desc, eq, lte } from 'drizzle-orm';
import { Database } from '../database/database.js';
import { notifications } from '../database/schema.js';

export type NotificationRow = typeof notifications.$inferSelect;

@Injectable()
export class NotificationsRepository {
  constructor(private readonly database: Database) {}

  async insert(notification: Omit<NotificationRow, 'read'>): Promise<NotificationRow> {
    const [row] = await this.database.db.insert(notifications).values(notification).returning();
    return row;
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
