import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { PERMISSIONS, permissionRecord, type Permission } from '../common/permissions.js';
import type { ApiKeyRow } from '../database/schema.js';
import { definePresenter } from './profile.js';

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

/** Tachi's APIKeyDocument: `token` is always there, null when it is not shown (only its hash is stored). */
export class TachiApiKeyDocument {
  @ApiProperty({ type: 'integer' }) keyID!: number;
  @ApiProperty({ type: 'integer' }) userID!: number;
  @ApiProperty({ type: String, nullable: true, description: 'The bearer token in the answer that issues the key; null elsewhere.' }) token!: string | null;
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

const presentApiKey = definePresenter('apiKey', {
  spec: ({ row, token }: { row: ApiKeyRow; token?: string }): ApiKeyDocument => ({
    keyID: row.keyID,
    userID: row.userID,
    ...(token !== undefined ? { token } : {}),
    identifier: row.identifier,
    permissions: permissionRecord(row.permissions),
    fromAPIClient: row.fromAPIClient,
    createdAt: row.createdAt,
  }),
  tachi: ({ token }, { keyID, userID, token: _token, ...rest }): TachiApiKeyDocument => ({ keyID, userID, token: token ?? null, ...rest }),
  schemas: { spec: ApiKeyDocument, tachi: TachiApiKeyDocument },
});

/** Spec APIKeyDocument, plus keyID (to revoke it) and createdAt. `token` is present only when the key is issued. */
export function toApiKeyDocument(row: ApiKeyRow, token?: string): ApiKeyDocument {
  return presentApiKey({ row, token });
}

/** A key issued for an API client: with the client's key file filled in. */
export class IssuedApiKeyResponse extends ApiKeyDocument {
  @ApiPropertyOptional({ description: "The client's apiKeyFormat with the token in it (the bare token without a format). Only with clientID." })
  apiKeyFile?: string;
  @ApiPropertyOptional({ type: String, nullable: true, description: 'Only with clientID.' }) apiKeyFilename?: string | null;
}

/** The answer to issuing a key for a client. Under tachi it is the key's document alone, as Tachi's api-tokens/create answers. */
export const toIssuedApiKeyDocument = definePresenter('issuedApiKey', {
  spec: (s: { row: ApiKeyRow; token: string; apiKeyFile: string; apiKeyFilename: string | null }): IssuedApiKeyResponse => ({
    ...toApiKeyDocument(s.row, s.token),
    apiKeyFile: s.apiKeyFile,
    apiKeyFilename: s.apiKeyFilename,
  }),
  tachi: ({ row, token }) => toApiKeyDocument(row, token),
  schemas: { spec: IssuedApiKeyResponse, tachi: TachiApiKeyDocument },
});
