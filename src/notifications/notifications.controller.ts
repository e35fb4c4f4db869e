import { Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { OwnerOnly, SessionOnly, TargetUser } from '../http/auth/access.decorators.js';
import type { UserRow } from '../http/auth/auth-context.js';
import type { NotificationRow } from '../repositories/notifications.repository.js';
import { NotificationsService } from './notifications.service.js';

function toNotificationDocument(n: NotificationRow) {
  return { notifID: n.notifID, title: n.title, sentTo: n.sentTo, sentAt: n.sentAt, read: n.read, body: n.body };
}

@ApiTags('users')
@Controller('users/:userID/notifications')
@SessionOnly()
@OwnerOnly()
export class NotificationsController {
  constructor(private readonly notifications: NotificationsService) {}

  @Get()
  async list(@TargetUser() user: UserRow) {
    return (await this.notifications.list(user.id)).map(toNotificationDocument);
  }

  @Post('mark-all-read')
  @HttpCode(200)
  async markAllRead(@TargetUser() user: UserRow) {
    await this.notifications.markAllRead(user.id, Date.now());
    return {};
  }

  @Post('delete-all')
  @HttpCode(200)
  async deleteAll(@TargetUser() user: UserRow) {
    await this.notifications.deleteAll(user.id, Date.now());
    return {};
  }
}
