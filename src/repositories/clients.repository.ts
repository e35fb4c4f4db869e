import { Injectable } from '@nestjs/common';
import { and, asc, count, eq, gt, isNotNull, sql } from 'drizzle-orm';
import { ADVISORY_LOCK_NAMESPACE, Database } from '../database/database.js';
import { apiClients, type ClientRow } from '../database/schema.js';

export type NewClient = Omit<ClientRow, 'createdAt'>;
export type ClientChanges = Partial<
  Pick<ClientRow, 'name' | 'redirectUri' | 'webhookUri' | 'apiKeyFormat' | 'apiKeyFilename' | 'clientSecretHash' | 'clientSecretEncrypted' | 'webhookSecret'>
>;

@Injectable()
export class ClientsRepository {
  constructor(private readonly database: Database) {}

  /** Oldest first. */
  listByAuthor(author: number): Promise<ClientRow[]> {
    return this.database.db.select().from(apiClients).where(eq(apiClients.author, author)).orderBy(asc(apiClients.createdAt));
  }

  async findById(clientID: string): Promise<ClientRow | undefined> {
    const [row] = await this.database.db.select().from(apiClients).where(eq(apiClients.clientID, clientID)).limit(1);
    return row;
  }

  /**
   * Inserts the client unless its author already has `cap` clients (then undefined). The count and
   * the insert run under a per-author lock, so concurrent requests cannot both pass the cap.
   */
  insertUnderCap(client: NewClient, cap: number): Promise<ClientRow | undefined> {
    return this.database.transaction(async (tx) => {
      await tx.execute(sql`SELECT pg_advisory_xact_lock(${ADVISORY_LOCK_NAMESPACE + 1}, ${client.author})`);
      const [{ owned }] = await tx.select({ owned: count() }).from(apiClients).where(eq(apiClients.author, client.author));
      if (owned >= cap) return undefined;
      const [row] = await tx
        .insert(apiClients)
        .values({ ...client, createdAt: Date.now() })
        .returning();
      return row;
    });
  }

  /** Undefined when the client no longer exists. */
  async update(clientID: string, changes: ClientChanges): Promise<ClientRow | undefined> {
    const [row] = await this.database.db.update(apiClients).set(changes).where(eq(apiClients.clientID, clientID)).returning();
    return row;
  }

  /** Up to `limit` clients with an encrypted secret, by clientID after `after` (for `secrets rotate`). */
  encryptedSecrets(after: string | null, limit: number): Promise<{ clientID: string; value: string }[]> {
    return this.database.db
      .select({ clientID: apiClients.clientID, value: sql<string>`${apiClients.clientSecretEncrypted}` })
      .from(apiClients)
      .where(and(isNotNull(apiClients.clientSecretEncrypted), after === null ? undefined : gt(apiClients.clientID, after)))
      .orderBy(asc(apiClients.clientID))
      .limit(limit);
  }

  /** Replaces the encrypted secret if it is still `expected` (a reset in between wins); whether it was replaced. */
  async replaceEncryptedSecret(clientID: string, expected: string, next: string): Promise<boolean> {
    const rows = await this.database.db
      .update(apiClients)
      .set({ clientSecretEncrypted: next })
      .where(and(eq(apiClients.clientID, clientID), eq(apiClients.clientSecretEncrypted, expected)))
      .returning({ clientID: apiClients.clientID });
    return rows.length > 0;
  }

  /** The foreign keys cascade: every API key and OAuth code the client issued goes with it. */
  async delete(clientID: string): Promise<void> {
    await this.database.db.delete(apiClients).where(eq(apiClients.clientID, clientID));
  }
}
