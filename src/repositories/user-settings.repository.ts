import { Injectable } from '@nestjs/common';
import { eq } from 'drizzle-orm';
import { Database } from '../database/database.js';
import { userSettings, type UserSettingsRow } from '../database/schema.js';

/** A user's site-wide preferences, without the user id. */
export type UserPreferences = Omit<UserSettingsRow, 'userID'>;

/** What a user who never saved preferences has: every one false. */
export const DEFAULT_USER_PREFERENCES: UserPreferences = {
  invisible: false,
  developerMode: false,
  advancedMode: false,
  contentiousContent: false,
  deletableScores: false,
};

@Injectable()
export class UserSettingsRepository {
  constructor(private readonly database: Database) {}

  /** The user's preferences, or the defaults when they never saved any. */
  async find(userID: number): Promise<UserPreferences> {
    const [row] = await this.database.db.select().from(userSettings).where(eq(userSettings.userID, userID));
    return row ? preferencesOf(row) : { ...DEFAULT_USER_PREFERENCES };
  }

  /** Sets the given preferences (the others keep their values, or the defaults) and returns them all. */
  async save(userID: number, changes: Partial<UserPreferences>): Promise<UserPreferences> {
    const [row] = await this.database.db
      .insert(userSettings)
      .values({ userID, ...DEFAULT_USER_PREFERENCES, ...changes })
      .onConflictDoUpdate({ target: userSettings.userID, set: changes })
      .returning();
    return preferencesOf(row);
  }
}

function preferencesOf(row: UserSettingsRow): UserPreferences {
  return {
    invisible: row.invisible,
    developerMode: row.developerMode,
    advancedMode: row.advancedMode,
    contentiousContent: row.contentiousContent,
    deletableScores: row.deletableScores,
  };
}
