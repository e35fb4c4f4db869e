import { Injectable } from '@nestjs/common';
import { randomHex } from '../common/crypto.js';
import type { NotificationBody, NotificationRow } from '../database/schema.js';
import { NotificationsRepository } from '../repositories/notifications.repository.js';

@Injectable()
export class NotificationsService {
  constructor(private readonly notifications: NotificationsRepository) {}

  send(userID: number, title: string, body: NotificationBody): Promise<NotificationRow> {
    return this.notifications.insert({ notifID: `N${randomHex(20)}`, sentTo: userID, title, body, sentAt: Date.now() });
  }

  /** A SITE_ANNOUNCEMENT (content `{}`) to every user, written in one statement. Returns how many users it reached. */
  announce(title: string): Promise<number> {
    return this.notifications.insertForEveryUser(title, { type: 'SITE_ANNOUNCEMENT', content: {} }, Date.now());
  }

  /** Newest first. */
  list(userID: number): Promise<NotificationRow[]> {
    return this.notifications.listForUser(userID);
  }

  /** Only notifications that existed when the request started: one arriving meanwhile stays unread. */
  markAllRead(userID: number, asOf: number): Promise<void> {
    return this.notifications.markReadSentUpTo(userID, asOf);
  }

  deleteAll(userID: number, asOf: number): Promise<void> {
    return this.notifications.deleteSentUpTo(userID, asOf);
  }
}
