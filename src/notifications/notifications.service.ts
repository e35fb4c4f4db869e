import { Injectable } from '@nestjs/common';
import { and, desc, eq, lte } from 'drizzle-orm';
import { randomHex } from '../common/crypto.js';
import { Database, type Queryable } from '../database/database.js';
import { notifications, type NotificationBody } from '../database/schema.js';

export type NotificationRow = typeof notifications.$inferSelect;

@Injectable()
export class NotificationsService {
  constructor(private readonly database: Database) {}

  async send(userID: number, title: string, body: NotificationBody, q: Queryable = this.database.db): Promise<NotificationRow> {
    const [row] = await q.insert(notifications).values({ notifID: `N${randomHex(20)}`, sentTo: userID, title, body, sentAt: Date.now() }).returning();
    return row;
  }

  /** Newest first. */
  list(userID: number): Promise<NotificationRow[]> {
    return this.database.db.select().from(notifications).where(eq(notifications.sentTo, userID)).orderBy(desc(notifications.sentAt), desc(notifications.notifID));
  }

  /** Only notifications that existed when the request started: one arriving meanwhile stays unread. */
  async markAllRead(userID: number, asOf: number): Promise<void> {
    await this.database.db
      .update(notifications)
      .set({ read: true })
      .where(and(eq(notifications.sentTo, userID), lte(notifications.sentAt, asOf)));
  }

  async deleteAll(userID: number, asOf: number): Promise<void> {
    await this.database.db.delete(notifications).where(and(eq(notifications.sentTo, userID), lte(notifications.sentAt, asOf)));
  }
}
