import { Injectable } from '@nestjs/common';
import { and, eq, lt, or } from 'drizzle-orm';
import { randomHex, sha256Hex } from '../common/crypto.js';
import { Database, type Queryable } from '../database/database.js';
import { emailCodes, type EmailCodePurpose } from '../database/schema.js';

export const EMAIL_CODE_LIFETIME_MS: Record<EmailCodePurpose, number> = {
  'verify-email': 24 * 60 * 60 * 1000,
  'reset-password': 60 * 60 * 1000,
};

@Injectable()
export class EmailCodesRepository {
  constructor(private readonly database: Database) {}

  /** Issues a new code; earlier codes of the same purpose for the user stop working, and every expired code (anyone's) is deleted. */
  async issue(userID: number, purpose: EmailCodePurpose, q: Queryable = this.database.db): Promise<string> {
    const code = randomHex(20);
    const now = Date.now();
    await q.delete(emailCodes).where(or(and(eq(emailCodes.userID, userID), eq(emailCodes.purpose, purpose)), lt(emailCodes.expiresAt, now)));
    await q.insert(emailCodes).values({ codeHash: sha256Hex(code), userID, purpose, createdAt: now, expiresAt: now + EMAIL_CODE_LIFETIME_MS[purpose] });
    return code;
  }

  /** Deletes the code as it is read, so it works once; returns its user while it is unexpired. */
  async consume(code: string, purpose: EmailCodePurpose, q: Queryable): Promise<number | undefined> {
    const [row] = await q
      .delete(emailCodes)
      .where(and(eq(emailCodes.codeHash, sha256Hex(code)), eq(emailCodes.purpose, purpose)))
      .returning();
    return row && row.expiresAt >= Date.now() ? row.userID : undefined;
  }
}
