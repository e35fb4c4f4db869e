import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { PERMISSIONS, type Permission } from '../common/permissions.js';
import type { apiClients } from '../database/schema.js';

/** Spec OAuth2ClientDoc. */
export class ClientDocument {
  @ApiProperty() clientID!: string;
  @ApiPropertyOptional({ description: "Only in its owner's list and in the answers to create and reset-secret." }) clientSecret?: string;
  @ApiProperty() name!: string;
  @ApiProperty({ type: 'integer', description: 'Owner user id.' }) author!: number;
  @ApiProperty({ enum: PERMISSIONS, isArray: true }) requestedPermissions!: Permission[];
  @ApiProperty({ type: String, nullable: true }) redirectUri!: string | null;
  @ApiProperty({ type: String, nullable: true }) webhookUri!: string | null;
  @ApiProperty({ type: String, nullable: true }) apiKeyFormat!: string | null;
  @ApiProperty({ type: String, nullable: true }) apiKeyFilename!: string | null;
}

/** Spec OAuth2ClientDoc; the secret only for its owner's list, creation and reset. */
export function toClientDocument(row: typeof apiClients.$inferSelect, withSecret: boolean): ClientDocument {
  return {
    clientID: row.clientID,
    ...(withSecret ? { clientSecret: row.clientSecret } : {}),
    name: row.name,
    author: row.author,
    requestedPermissions: row.requestedPermissions,
    redirectUri: row.redirectUri,
    webhookUri: row.webhookUri,
    apiKeyFormat: row.apiKeyFormat,
    apiKeyFilename: row.apiKeyFilename,
  };
}
