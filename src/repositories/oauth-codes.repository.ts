import { Injectable } from '@nestjs/common';
import { eq, lt } from 'drizzle-orm';
import { Database } from '../database/database.js';
import { apiKeys, oauthCodes, type ApiKeyRow, type OAuthCodeRow } from '../database/schema.js';
import { ApiKeysRepository, type NewApiKey } from './api-keys.repository.js';
import { s256, safeEqual } from '../common/crypto.js';
import { transactionOrRollBack } from './transaction.js';

/**
 * Why a code was not exchanged: unknown (or already used), expired, created for another client, or
 * its PKCE check failed (verifier missing, wrong, or sent for a code made without a challenge).
 */
export type CodeRefusal = 'unknown' | 'expired' | 'other-client' | 'verifier-missing' | 'verifier-wrong' | 'verifier-unexpected' | 'replayed';

@Injectable()
export class OAuthCodesRepository {
  constructor(
    private readonly database: Database,
    private readonly apiKeys: ApiKeysRepository,
  ) {}

  /** Stores a code, and deletes every expired one, used or not (nothing else would). */
  async insert(code: Omit<OAuthCodeRow, 'usedAt' | 'keyID'>): Promise<void> {
    await this.database.db.delete(oauthCodes).where(lt(oauthCodes.expiresAt, code.createdOn));
    await this.database.db.insert(oauthCodes).values(code);
  }

  /**
   * Exchanges the code for a key (from the code's client, or any client for a code made without
   * one) for the code's user, in one transaction: the key is stored and the code marked used. A
   * refused code is left as it was, so a code sent with the wrong client, or a guessed verifier,
   * does not burn the user's code. A code its own client (with the right verifier) sends again is
   * a replay: the caller revokes the key it gave, with revokeReplayed.
   */
  exchangeForKey(
    codeHash: string,
    codeVerifier: string | undefined,
    key: Omit<NewApiKey, 'userID'> & { fromAPIClient: string },
  ): Promise<{ row: ApiKeyRow } | { refused: CodeRefusal }> {
    return transactionOrRollBack(this.database, async (tx, rollBack: (outcome: { refused: CodeRefusal }) => never) => {
      const [code] = await tx.select().from(oauthCodes).where(eq(oauthCodes.codeHash, codeHash)).for('update');
      if (!code) rollBack({ refused: 'unknown' });
      if (code.expiresAt < Date.now()) rollBack({ refused: 'expired' });
      if (code.clientID !== null && code.clientID !== key.fromAPIClient) rollBack({ refused: 'other-client' });
      // RFC 7636 4.6, and RFC 9700 2.1.1: a verifier for a code made without a challenge is refused too.
      if (code.codeChallenge === null && codeVerifier !== undefined) rollBack({ refused: 'verifier-unexpected' });
      if (code.codeChallenge !== null && codeVerifier === undefined) rollBack({ refused: 'verifier-missing' });
      if (code.codeChallenge !== null && !safeEqual(s256(codeVerifier!), code.codeChallenge)) rollBack({ refused: 'verifier-wrong' });
      if (code.usedAt !== null) rollBack({ refused: 'replayed' });
      const row = await this.apiKeys.insert({ ...key, userID: code.userID }, tx);
      await tx.update(oauthCodes).set({ usedAt: Date.now(), keyID: row.keyID }).where(eq(oauthCodes.codeHash, codeHash));
      return { row };
    });
  }

  /** A used code was sent again: the key it gave is revoked, and the code deleted. */
  async revokeReplayed(codeHash: string): Promise<void> {
    await this.database.transaction(async (tx) => {
      const [code] = await tx.delete(oauthCodes).where(eq(oauthCodes.codeHash, codeHash)).returning();
      if (code && code.keyID !== null) await tx.delete(apiKeys).where(eq(apiKeys.keyID, code.keyID));
    });
  }
}
