import { Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { OwnerOnly, SessionOnly, TargetUser } from '../http/auth/access.decorators.js';
import type { UserRow } from '../http/auth/auth-context.js';
import { ApiEmptyObjectResponse, type EmptyObject } from '../http/empty-object.js';
import { NotificationDocument, toNotificationDocument } from '../presenters/notification.presenter.js';
import { NotificationsService } from './notifications.service.js';

@ApiTags('users')
@Controller('users/:userID/notifications')
@SessionOnly()
@OwnerOnly()
export class NotificationsController {
  constructor(private readonly notifications: NotificationsService) {}

  @Get()
  @ApiOkResponse({ type: NotificationDocument, isArray: true, description: 'Newest first.' })
  async list(@TargetUser() user: UserRow): Promise<NotificationDocument[]> {
    return (await this.notifications.list(user.id)).map(toNotificationDocument);
  }

  @Post('mark-all-read')
  @HttpCode(200)
  @ApiEmptyObjectResponse()
  async markAllRead(@TargetUser() user: UserRow): Promise<EmptyObject> {
    await this.notifications.markAllRead(user.id, Date.now());
    return {};
  }

  @Post('delete-all')
  @HttpCode(200)
  @ApiEmptyObjectResponse()
  async deleteAll(@TargetUser() user: UserRow): Promise<EmptyObject> {
    await this.notifications.deleteAll(user.id, Date.now());
    return {};
  }
}
