import { Injectable } from '@nestjs/common';
import { and, eq, isNull } from 'drizzle-orm';
import type { Queryable } from '../database/database.js';
import { invites } from '../database/schema.js';

@Injectable()
export class InvitesRepository {
  /** Atomically marks an unused code as used by userID; false when it is unknown or already used. */
  async consume(code: string, userID: number, q: Queryable): Promise<boolean> {
    const rows = await q
      .update(invites)
      .set({ consumedBy: userID, consumedAt: Date.now() })
      .where(and(eq(invites.code, code), isNull(invites.consumedAt)))
      .returning({ code: invites.code });
    return rows.length === 1;
  }
}
