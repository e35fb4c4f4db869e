import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { PERMISSIONS, type Permission } from '../../common/permissions.js';

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

/** A key issued for an API client: with the client's key file filled in. */
export class IssuedApiKeyResponse extends ApiKeyDocument {
  @ApiPropertyOptional({ description: "The client's apiKeyFormat with the token in it (the bare token without a format). Only with clientID." })
  apiKeyFile?: string;
  @ApiPropertyOptional({ type: String, nullable: true, description: 'Only with clientID.' }) apiKeyFilename?: string | null;
}
