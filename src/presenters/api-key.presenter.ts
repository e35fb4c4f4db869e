import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { PERMISSIONS, permissionRecord, type Permission } from '../common/permissions.js';
import type { apiKeys } from '../database/schema.js';

/** Spec APIKeyDocument, plus keyID (to revoke it) and createdAt. */
export class ApiKeyDocument {
  @ApiProperty({ type: 'integer' }) keyID!: number;
  @ApiProperty({ type: 'integer' }) userID!: number;
  @ApiPropertyOptional({ description: 'The bearer token: shown only in the answer that issues the key.' }) token?: string;
  @ApiProperty() identifier!: string;
  @ApiProperty({
    type: 'object',
    properties: Object.fromEntries(PERMISSIONS.map((p) => [p, { type: 'boolean' }])),
    required: [...PERMISSIONS],
    selfRequired: true,
    description: 'Permission name → granted.',
  })
  permissions!: Record<Permission, boolean>;
  @ApiProperty({ type: String, nullable: true, description: 'The client that issued the key; null for a custom key.' }) fromAPIClient!: string | null;
  @ApiProperty({ type: 'integer', description: 'Unix ms.' }) createdAt!: number;
}

/** Spec APIKeyDocument, plus keyID (to revoke it) and createdAt. `token` is present only when the key is issued. */
export function toApiKeyDocument(row: typeof apiKeys.$inferSelect, token?: string): ApiKeyDocument {
  return {
    keyID: row.keyID,
    userID: row.userID,
    ...(token !== undefined ? { token } : {}),
    identifier: row.identifier,
    permissions: permissionRecord(row.permissions),
    fromAPIClient: row.fromAPIClient,
    createdAt: row.createdAt,
  };
}
