import { Injectable } from '@nestjs/common';
import { and, eq, isNull } from 'drizzle-orm';
import { randomHex } from '../common/crypto.js';
import { Database, type Queryable } from '../database/database.js';
import { invites } from '../database/schema.js';

/** Invite codes for INVITE_ONLY deployments; created by `npm run cli -- invites create`. */
@Injectable()
export class InvitesService {
  constructor(private readonly database: Database) {}

  async create(count: number): Promise<string[]> {
    const now = Date.now();
    const codes = Array.from({ length: count }, () => randomHex(20));
    await this.database.db.insert(invites).values(codes.map((code) => ({ code, createdAt: now })));
    return codes;
  }

  /** Atomically marks an unused code as used by userID; false when it is unknown or already used. */
  async consume(code: string, userID: number, q: Queryable): Promise<boolean> {
    const rows = await q
      .update(invites)
      .set({ consumedBy: userID, consumedAt: Date.now() })
      .where(and(eq(invites.code, code), isNull(invites.consumedAt)))
      .returning({ code: invites.code });
    return rows.length === 1;
  }

  list() {
    return this.database.db.select().from(invites);
  }
}
