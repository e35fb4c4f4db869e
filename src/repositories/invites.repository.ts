import { Injectable } from '@nestjs/common';
import { and, eq, isNull } from 'drizzle-orm';
import { Database, type Queryable } from '../database/database.js';
import { invites, type InviteRow } from '../database/schema.js';

@Injectable()
export class InvitesRepository {
  constructor(private readonly database: Database) {}

  async insert(codes: readonly string[], createdAt: number): Promise<void> {
    await this.database.db.insert(invites).values(codes.map((code) => ({ code, createdAt })));
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

  /** Every code, oldest first. */
  list(): Promise<InviteRow[]> {
    return this.database.db.select().from(invites).orderBy(invites.createdAt);
  }
}
