import { Injectable } from '@nestjs/common';
import { and, eq } from 'drizzle-orm';
import { Database } from '../database/database.js';
import { fervidexSettings, kshookSv6cSettings } from '../database/schema.js';

/** A user's Fervidex settings as the API shows them. */
export interface FervidexSettings {
  /** The cards (X-Account-Id) whose plays are accepted; null: any card. */
  cards: string[] | null;
  /** The next arcade profile dump imports its scores, once. */
  forceStaticImport: boolean;
}

/** What a user who never saved Fervidex settings has. */
export const DEFAULT_FERVIDEX_SETTINGS: FervidexSettings = { cards: null, forceStaticImport: false };

/** Per-user settings of the score hooks' integrations (Tachi's `integrations/…/settings`). */
@Injectable()
export class IntegrationSettingsRepository {
  constructor(private readonly database: Database) {}

  async fervidex(userID: number): Promise<FervidexSettings> {
    const [row] = await this.database.db.select().from(fervidexSettings).where(eq(fervidexSettings.userID, userID));
    return row ? { cards: row.cards, forceStaticImport: row.forceStaticImport } : { ...DEFAULT_FERVIDEX_SETTINGS };
  }

  /** Sets the given fields, creating the row with the defaults for the others. */
  async saveFervidex(userID: number, changes: Partial<FervidexSettings>): Promise<FervidexSettings> {
    const [row] = await this.database.db
      .insert(fervidexSettings)
      .values({ userID, ...DEFAULT_FERVIDEX_SETTINGS, ...changes })
      .onConflictDoUpdate({ target: fervidexSettings.userID, set: changes })
      .returning();
    return { cards: row.cards, forceStaticImport: row.forceStaticImport };
  }

  /** Uses up the Fervidex forceStaticImport (see takeForceStaticImport). */
  takeFervidexForceStaticImport(userID: number): Promise<boolean> {
    return this.takeForceStaticImport(fervidexSettings, userID);
  }

  /** The user's kshook settings (defaults when never saved). */
  async kshookSv6c(userID: number): Promise<{ forceStaticImport: boolean }> {
    const [row] = await this.database.db.select().from(kshookSv6cSettings).where(eq(kshookSv6cSettings.userID, userID));
    return { forceStaticImport: row?.forceStaticImport ?? false };
  }

  /** Uses up the kshook forceStaticImport (see takeForceStaticImport). */
  takeKshookSv6cForceStaticImport(userID: number): Promise<boolean> {
    return this.takeForceStaticImport(kshookSv6cSettings, userID);
  }

  /**
   * Uses up a hook's forceStaticImport: true if it was set (it is now false), false otherwise. One
   * statement, so two profile dumps sent at once cannot both use it.
   */
  private async takeForceStaticImport(table: typeof fervidexSettings | typeof kshookSv6cSettings, userID: number): Promise<boolean> {
    const updated = await this.database.db
      .update(table)
      .set({ forceStaticImport: false })
      .where(and(eq(table.userID, userID), eq(table.forceStaticImport, true)))
      .returning({ userID: table.userID });
    return updated.length > 0;
  }

  async saveKshookSv6c(userID: number, changes: { forceStaticImport?: boolean }): Promise<{ forceStaticImport: boolean }> {
    const [row] = await this.database.db
      .insert(kshookSv6cSettings)
      .values({ userID, forceStaticImport: false, ...changes })
      .onConflictDoUpdate({ target: kshookSv6cSettings.userID, set: changes })
      .returning();
    return { forceStaticImport: row.forceStaticImport };
  }
}
