import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { PERMISSIONS, type Permission } from '../common/permissions.js';
import type { ClientRow } from '../database/schema.js';
import { definePresenter } from './profile.js';

/** Spec OAuth2ClientDoc. */
export class ClientDocument {
  @ApiProperty() clientID!: string;
  @ApiPropertyOptional({
    description:
      'Only in the answers to create and reset-secret: the server keeps a hash of it, and a copy encrypted with SECRETS_KEY that its webhook deliveries carry under API_PROFILE=tachi.',
  })
  clientSecret?: string;
  @ApiPropertyOptional({
    description:
      'Signs its webhook deliveries (X-Webhook-Signature) and is their bearer token (under API_PROFILE=tachi the client secret is). Only in the answers to create and reset-webhook-secret.',
  })
  webhookSecret?: string;
  @ApiProperty() name!: string;
  @ApiProperty({ type: 'integer', description: 'Owner user id.' }) author!: number;
  @ApiProperty({ enum: PERMISSIONS, isArray: true }) requestedPermissions!: Permission[];
  @ApiProperty({ type: String, nullable: true }) redirectUri!: string | null;
  @ApiProperty({ type: String, nullable: true }) webhookUri!: string | null;
  @ApiProperty({ type: String, nullable: true }) apiKeyFormat!: string | null;
  @ApiProperty({ type: String, nullable: true }) apiKeyFilename!: string | null;
}

/** Tachi's OAuth2 client document: `apiKeyTemplate` for the spec's `apiKeyFormat` (the same `%%SERVICE_KEY%%` rule). */
export class TachiClientDocument {
  @ApiProperty() clientID!: string;
  @ApiPropertyOptional({
    description:
      'Only in the answers to create and reset-secret: the server keeps a hash of it, and a copy encrypted with SECRETS_KEY that its webhook deliveries carry under API_PROFILE=tachi.',
  })
  clientSecret?: string;
  @ApiPropertyOptional({ description: 'Signs its webhook deliveries. Only in the answers to create and reset-webhook-secret.' }) webhookSecret?: string;
  @ApiProperty() name!: string;
  @ApiProperty({ type: 'integer', description: 'Owner user id.' }) author!: number;
  @ApiProperty({ enum: PERMISSIONS, isArray: true }) requestedPermissions!: Permission[];
  @ApiProperty({ type: String, nullable: true }) redirectUri!: string | null;
  @ApiProperty({ type: String, nullable: true }) webhookUri!: string | null;
  @ApiProperty({ type: String, nullable: true }) apiKeyTemplate!: string | null;
  @ApiProperty({ type: String, nullable: true }) apiKeyFilename!: string | null;
}

const presentClient = definePresenter('client', {
  spec: ({ row, secret, withWebhookSecret }: { row: ClientRow; secret?: string; withWebhookSecret: boolean }): ClientDocument => ({
    clientID: row.clientID,
    ...(secret !== undefined ? { clientSecret: secret } : {}),
    ...(withWebhookSecret ? { webhookSecret: row.webhookSecret } : {}),
    name: row.name,
    author: row.author,
    requestedPermissions: row.requestedPermissions,
    redirectUri: row.redirectUri,
    webhookUri: row.webhookUri,
    apiKeyFormat: row.apiKeyFormat,
    apiKeyFilename: row.apiKeyFilename,
  }),
  tachi: (_source, { apiKeyFormat, apiKeyFilename, ...rest }): TachiClientDocument => ({ ...rest, apiKeyTemplate: apiKeyFormat, apiKeyFilename }),
  schemas: { spec: ClientDocument, tachi: TachiClientDocument },
});

/**
 * Spec OAuth2ClientDoc; `secret` (the plain one, known only when it was just made) at creation and
 * reset; the webhook secret only at creation and its reset.
 */
export function toClientDocument(row: ClientRow, secret?: string, withWebhookSecret = false): ClientDocument {
  return presentClient({ row, secret, withWebhookSecret });
}

/** The list names requestedPermissions also `requestPermissions`, as the spec's list does. */
export class ListedClientDocument extends ClientDocument {
  @ApiProperty({ enum: PERMISSIONS, isArray: true }) requestPermissions!: Permission[];
}

/** A client in its owner's list. Under tachi, the client's document alone. */
export const toListedClientDocument = definePresenter('listedClient', {
  spec: (row: ClientRow): ListedClientDocument => ({ ...toClientDocument(row), requestPermissions: row.requestedPermissions }),
  tachi: (row) => toClientDocument(row),
  schemas: { spec: ListedClientDocument, tachi: TachiClientDocument },
});
