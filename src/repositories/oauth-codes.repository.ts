import { Injectable } from '@nestjs/common';
import { eq, lt } from 'drizzle-orm';
import { Database } from '../database/database.js';
import { oauthCodes } from '../database/schema.js';
import { ApiKeysRepository, type ApiKeyRow, type NewApiKey } from './api-keys.repository.js';
import { transactionOrRollBack } from './transaction.js';

export type OAuthCodeRow = typeof oauthCodes.$inferSelect;

/** Why a code was not exchanged: unknown (or already used), expired, or created for another client. */
export type CodeRefusal = 'unknown' | 'expired' | 'other-client';

@Injectable()
export class OAuthCodesRepository {
  constructor(
    private readonly database: Database,
    private readonly apiKeys: ApiKeysRepository,
  ) {}

  /** Stores a code, and deletes every expired one (they are never exchanged, so nothing else would). */
  async insert(code: OAuthCodeRow): Promise<void> {
    await this.database.db.delete(oauthCodes).where(lt(oauthCodes.expiresAt, code.createdOn));
    await this.database.db.insert(oauthCodes).values(code);
  }

  /**
   * Consumes the code and stores the key (from the code's client, or any client for a code made
   * without one) for the code's user, in one transaction. A refused code is left as it was, so a
   * code sent with the wrong client still works with its own.
   */
  exchangeForKey(codeHash: string, key: Omit<NewApiKey, 'userID'> & { fromAPIClient: string }): Promise<{ row: ApiKeyRow } | { refused: CodeRefusal }> {
    return transactionOrRollBack(this.database, async (tx, rollBack: (outcome: { refused: CodeRefusal }) => never) => {
      const [code] = await tx.delete(oauthCodes).where(eq(oauthCodes.codeHash, codeHash)).returning();
      if (!code) rollBack({ refused: 'unknown' });
      if (code.expiresAt < Date.now()) rollBack({ refused: 'expired' });
      if (code.clientID !== null && code.clientID !== key.fromAPIClient) rollBack({ refused: 'other-client' });
      return { row: await this.apiKeys.insert({ ...key, userID: code.userID }, tx) };
    });
  }
}
