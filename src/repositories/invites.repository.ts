import { Injectable } from '@nestjs/common';
import { and, asc, count, eq, isNull } from 'drizzle-orm';
import { Database, type Queryable } from '../database/database.js';
import { invites, userCredentials, type InviteRow } from '../database/schema.js';

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

  /** The invites the user created, oldest first. */
  listCreatedBy(userID: number): Promise<InviteRow[]> {
    return this.database.db.select().from(invites).where(eq(invites.createdBy, userID)).orderBy(asc(invites.createdAt), asc(invites.code));
  }

  async countCreatedBy(userID: number, q: Queryable = this.database.db): Promise<number> {
    const [row] = await q.select({ n: count() }).from(invites).where(eq(invites.createdBy, userID));
    return row.n;
  }

  /**
   * Creates an invite of the user's, unless they already created `limit` (null: no limit); undefined
   * then. The user's credentials row is locked meanwhile, so two requests at once cannot both pass.
   */
  createFor(userID: number, code: string, createdAt: number, limit: number | null): Promise<InviteRow | undefined> {
    return this.database.transaction(async (tx) => {
      await tx.select({ userID: userCredentials.userID }).from(userCredentials).where(eq(userCredentials.userID, userID)).for('update');
      if (limit !== null && (await this.countCreatedBy(userID, tx)) >= limit) return undefined;
      const [row] = await tx.insert(invites).values({ code, createdAt, createdBy: userID }).returning();
      return row;
    });
  }

  /** Every code, oldest first. */
  list(): Promise<InviteRow[]> {
    return this.database.db.select().from(invites).orderBy(invites.createdAt);
  }
}
