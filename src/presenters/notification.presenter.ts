import { ApiProperty } from '@nestjs/swagger';
import type { NotificationBody, NotificationRow } from '../database/schema.js';

export class NotificationBodyDocument implements NotificationBody {
  @ApiProperty() type!: string;
  @ApiProperty({ type: 'object', additionalProperties: true }) content!: Record<string, unknown>;
}

export class NotificationDocument {
  @ApiProperty() notifID!: string;
  @ApiProperty() title!: string;
  @ApiProperty({ type: 'integer', description: 'Recipient user id.' }) sentTo!: number;
  @ApiProperty({ type: 'integer', description: 'Unix ms.' }) sentAt!: number;
  @ApiProperty() read!: boolean;
  @ApiProperty({ type: NotificationBodyDocument }) body!: NotificationBody;
}

export function toNotificationDocument(n: NotificationRow): NotificationDocument {
  return { notifID: n.notifID, title: n.title, sentTo: n.sentTo, sentAt: n.sentAt, read: n.read, body: n.body };
}
