import { Injectable } from '@nestjs/common';
import { and, eq, gt, or, sql } from 'drizzle-orm';
import { Database, type Queryable } from '../database/database.js';
import { fromApiSyncState, integrationCredentials, type IntegrationCredentialsRow } from '../database/schema.js';

/** Where a player's credentials for a service are stored encrypted: the context SecretsService binds the value to. */
export const integrationCredentialsContext = (userID: number, service: string) => `integration_credentials.credentials_encrypted:${userID}:${service}`;

/** The players' links to other services (their encrypted credentials) and each (user, import type)'s sync state. */
@Injectable()
export class IntegrationCredentialsRepository {
  constructor(private readonly database: Database) {}

  async find(userID: number, service: string): Promise<IntegrationCredentialsRow | undefined> {
    const [row] = await this.database.db
      .select()
      .from(integrationCredentials)
      .where(and(eq(integrationCredentials.userID, userID), eq(integrationCredentials.service, service)));
    return row;
  }

  /** Creates or replaces the link. */
  async save(userID: number, service: string, credentialsEncrypted: string, facts: Record<string, unknown>): Promise<IntegrationCredentialsRow> {
    const linkedAt = Date.now();
    const [row] = await this.database.db
      .insert(integrationCredentials)
      .values({ userID, service, credentialsEncrypted, facts, linkedAt })
      .onConflictDoUpdate({ target: [integrationCredentials.userID, integrationCredentials.service], set: { credentialsEncrypted, facts, linkedAt } })
      .returning();
    return row;
  }

  /** Replaces the credentials of an existing link (refreshed tokens), keeping its facts; false when it was unlinked meanwhile. */
  async replaceCredentials(userID: number, service: string, credentialsEncrypted: string): Promise<boolean> {
    const updated = await this.database.db
      .update(integrationCredentials)
      .set({ credentialsEncrypted })
      .where(and(eq(integrationCredentials.userID, userID), eq(integrationCredentials.service, service)))
      .returning({ userID: integrationCredentials.userID });
    return updated.length > 0;
  }

  /**
   * Removes the link and the sync state of the service's import types (a relink may be another
   * account: its plays are not the cursor's). Whether there was a link.
   */
  async remove(userID: number, service: string, importTypes: readonly string[]): Promise<boolean> {
    return this.database.transaction(async (tx) => {
      const removed = await tx
        .delete(integrationCredentials)
        .where(and(eq(integrationCredentials.userID, userID), eq(integrationCredentials.service, service)))
        .returning({ userID: integrationCredentials.userID });
      for (const importType of importTypes)
        await tx.delete(fromApiSyncState).where(and(eq(fromApiSyncState.userID, userID), eq(fromApiSyncState.importType, importType)));
      return removed.length > 0;
    });
  }

  /** Up to `limit` encrypted credentials, by "userID:service" after `after` (for `secrets rotate`). */
  async encryptedCredentials(after: string | null, limit: number): Promise<{ id: string; value: string }[]> {
    const [afterUser, afterService] = after === null ? [null, null] : [Number(after.slice(0, after.indexOf(':'))), after.slice(after.indexOf(':') + 1)];
    const rows = await this.database.db
      .select({ userID: integrationCredentials.userID, service: integrationCredentials.service, value: integrationCredentials.credentialsEncrypted })
      .from(integrationCredentials)
      .where(
        afterUser === null
          ? undefined
          : or(
              gt(integrationCredentials.userID, afterUser),
              and(eq(integrationCredentials.userID, afterUser), gt(integrationCredentials.service, afterService!)),
            ),
      )
      .orderBy(integrationCredentials.userID, integrationCredentials.service)
      .limit(limit);
    return rows.map((r) => ({ id: `${r.userID}:${r.service}`, value: r.value }));
  }

  /** Replaces an encrypted value if it is still `expected` (a relink in between wins); whether it was replaced. */
  async replaceEncrypted(id: string, expected: string, next: string): Promise<boolean> {
    const userID = Number(id.slice(0, id.indexOf(':')));
    const service = id.slice(id.indexOf(':') + 1);
    const updated = await this.database.db
      .update(integrationCredentials)
      .set({ credentialsEncrypted: next })
      .where(
        and(eq(integrationCredentials.userID, userID), eq(integrationCredentials.service, service), eq(integrationCredentials.credentialsEncrypted, expected)),
      )
      .returning({ userID: integrationCredentials.userID });
    return updated.length > 0;
  }

  /** The cursor of the player's last successful sync of this import type; null before the first. */
  async cursor(userID: number, importType: string): Promise<unknown> {
    const [row] = await this.database.db
      .select({ cursor: fromApiSyncState.cursor })
      .from(fromApiSyncState)
      .where(and(eq(fromApiSyncState.userID, userID), eq(fromApiSyncState.importType, importType)));
    return row?.cursor ?? null;
  }

  /** Stores a sync's cursor: called with the import's transaction, so it is kept only if the import commits. */
  async saveCursor(tx: Queryable, userID: number, importType: string, importID: string, cursor: unknown): Promise<void> {
    const value = sql`${JSON.stringify(cursor ?? null)}::jsonb`;
    await tx
      .insert(fromApiSyncState)
      .values({ userID, importType, importID, cursor: value, syncedAt: Date.now() })
      .onConflictDoUpdate({ target: [fromApiSyncState.userID, fromApiSyncState.importType], set: { cursor: value, importID, syncedAt: Date.now() } });
  }
}
