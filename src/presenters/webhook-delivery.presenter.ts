import { ApiProperty } from '@nestjs/swagger';
import type { WebhookDeliveryRow, WebhookDeliveryStatus } from '../database/schema.js';

/** One entry of a client's webhook delivery log. */
export class WebhookDeliveryDocument {
  @ApiProperty({ type: 'integer', description: 'Also sent as the X-Webhook-Delivery header.' }) deliveryID!: number;
  @ApiProperty({ example: 'class-update/v1' }) type!: string;
  @ApiProperty({ type: 'integer', description: 'The user the event is about.' }) userID!: number;
  @ApiProperty({ enum: ['pending', 'delivered', 'failed'] }) status!: WebhookDeliveryStatus;
  @ApiProperty({ type: 'integer', description: 'Attempts made so far.' }) attempts!: number;
  @ApiProperty({ type: 'integer', description: 'Unix ms.' }) createdAt!: number;
  @ApiProperty({ type: 'integer', nullable: true, description: 'Unix ms of the last attempt.' }) lastAttemptAt!: number | null;
  @ApiProperty({ type: 'integer', nullable: true, description: 'Unix ms of the next attempt while pending, else null.' }) nextAttemptAt!: number | null;
  @ApiProperty({ type: 'integer', nullable: true }) deliveredAt!: number | null;
  @ApiProperty({ type: 'integer', nullable: true, description: "The HTTP status of the last attempt's answer (after redirects)." })
  lastStatusCode!: number | null;
  @ApiProperty({ type: String, nullable: true, description: 'Why the last attempt did not deliver.' }) lastError!: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'The URL the last attempt posted to.' }) lastUrl!: string | null;
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'The body posted: {type, content}.' }) payload!: Record<string, unknown>;
}

export function toWebhookDeliveryDocument(row: WebhookDeliveryRow): WebhookDeliveryDocument {
  return {
    deliveryID: row.deliveryID,
    type: row.eventType,
    userID: row.userID,
    status: row.status,
    attempts: row.attempts,
    createdAt: row.createdAt,
    lastAttemptAt: row.lastAttemptAt,
    nextAttemptAt: row.status === 'pending' ? row.nextAttemptAt : null,
    deliveredAt: row.deliveredAt,
    lastStatusCode: row.lastStatusCode,
    lastError: row.lastError,
    lastUrl: row.lastUrl,
    payload: row.payload as unknown as Record<string, unknown>,
  };
}
