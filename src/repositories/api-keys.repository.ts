import { Injectable } from '@nestjs/common';
import { and, desc, eq, getTableColumns } from 'drizzle-orm';
import type { Permission } from '../common/permissions.js';
import { Database, type Queryable } from '../database/database.js';
import { apiKeys, users, type ApiKeyRow, type UserRow } from '../database/schema.js';

export interface NewApiKey {
  userID: number;
  tokenHash: string;
  identifier: string;
  permissions: readonly Permission[];
  fromAPIClient: string | null;
}

@Injectable()
export class ApiKeysRepository {
  constructor(private readonly database: Database) {}

  async insert(key: NewApiKey, q: Queryable = this.database.db): Promise<ApiKeyRow> {
    const [row] = await q
      .insert(apiKeys)
      .values({ ...key, permissions: [...new Set(key.permissions)], createdAt: Date.now() })
      .returning();
    return row;
  }

  /** Newest first. */
  listForUser(userID: number): Promise<ApiKeyRow[]> {
    return this.database.db.select().from(apiKeys).where(eq(apiKeys.userID, userID)).orderBy(desc(apiKeys.createdAt), desc(apiKeys.keyID));
  }

  /** False when the user has no such key. */
  async deleteOwned(userID: number, keyID: number): Promise<boolean> {
    const deleted = await this.database.db
      .delete(apiKeys)
      .where(and(eq(apiKeys.keyID, keyID), eq(apiKeys.userID, userID)))
      .returning({ keyID: apiKeys.keyID });
    return deleted.length > 0;
  }

  /** The key with this token hash, and its user. */
  async findWithUserByTokenHash(
    tokenHash: string,
  ): Promise<{ user: UserRow; keyID: number; permissions: Permission[]; fromAPIClient: string | null } | undefined> {
    const [row] = await this.database.db
      .select({ user: getTableColumns(users), keyID: apiKeys.keyID, permissions: apiKeys.permissions, fromAPIClient: apiKeys.fromAPIClient })
      .from(apiKeys)
      .innerJoin(users, eq(users.id, apiKeys.userID))
      .where(eq(apiKeys.tokenHash, tokenHash))
      .limit(1);
    return row;
  }
}
