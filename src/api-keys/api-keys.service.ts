import { Injectable, NotFoundException } from '@nestjs/common';
import { and, desc, eq } from 'drizzle-orm';
import { permissionRecord, type Permission } from '../common/permissions.js';
import { randomHex, sha256Hex } from '../common/crypto.js';
import { FOREIGN_KEY_VIOLATION, sqlState } from '../common/sql-state.js';
import { Database, type Queryable } from '../database/database.js';
import { apiKeys } from '../database/schema.js';
import type { ApiKeyDocument } from './dto/api-key.responses.js';

export type ApiKeyRow = typeof apiKeys.$inferSelect;

/** Spec APIKeyDocument, plus keyID (to revoke it) and createdAt. `token` is present only when the key is issued. */
export function toApiKeyDocument(row: ApiKeyRow, token?: string): ApiKeyDocument {
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

export interface IssueKey {
  userID: number;
  identifier: string;
  permissions: readonly Permission[];
  fromAPIClient: string | null;
}

@Injectable()
export class ApiKeysService {
  constructor(private readonly database: Database) {}

  /** Mints a token (40 hex characters, as Tachi clients expect) and stores only its SHA-256. A client deleted meanwhile is a 404. */
  async issue(key: IssueKey, q: Queryable = this.database.db): Promise<{ row: ApiKeyRow; token: string }> {
    const token = randomHex(20);
    try {
      const [row] = await q
        .insert(apiKeys)
        .values({ userID: key.userID, tokenHash: sha256Hex(token), identifier: key.identifier, permissions: [...new Set(key.permissions)], fromAPIClient: key.fromAPIClient, createdAt: Date.now() })
        .returning();
      return { row, token };
    } catch (err) {
      if (key.fromAPIClient !== null && sqlState(err) === FOREIGN_KEY_VIOLATION) throw new NotFoundException(`The client ${key.fromAPIClient} does not exist.`);
      throw err;
    }
  }

  list(userID: number): Promise<ApiKeyRow[]> {
    return this.database.db.select().from(apiKeys).where(eq(apiKeys.userID, userID)).orderBy(desc(apiKeys.createdAt), desc(apiKeys.keyID));
  }

  async revoke(userID: number, keyID: number): Promise<void> {
    const deleted = await this.database.db
      .delete(apiKeys)
      .where(and(eq(apiKeys.keyID, keyID), eq(apiKeys.userID, userID)))
      .returning({ keyID: apiKeys.keyID });
    if (deleted.length === 0) throw new NotFoundException(`This user has no API key ${keyID}.`);
  }
}
