import { Injectable } from '@nestjs/common';
import { and, eq } from 'drizzle-orm';
import { Database } from '../database/database.js';
import { ugptSettings, type StatDocument, type UgptSettingsRow } from '../database/schema.js';

export type UgptPreferences = Partial<Pick<UgptSettingsRow, 'preferredScoreAlg' | 'preferredSessionAlg' | 'preferredProfileAlg'>>;

/** What a user who never saved settings on a GPT has. */
export const DEFAULT_UGPT_SETTINGS: Omit<UgptSettingsRow, 'userID' | 'game' | 'playtype'> = {
  preferredScoreAlg: null,
  preferredSessionAlg: null,
  preferredProfileAlg: null,
  stats: [],
};

/** Per user and GPT preferences and showcase stats (ugpt_settings). */
@Injectable()
export class UgptSettingsRepository {
  constructor(private readonly database: Database) {}

  async find(userID: number, game: string, playtype: string): Promise<UgptSettingsRow | undefined> {
    const [row] = await this.database.db
      .select()
      .from(ugptSettings)
      .where(and(eq(ugptSettings.userID, userID), eq(ugptSettings.game, game), eq(ugptSettings.playtype, playtype)));
    return row;
  }

  /** Sets these columns, creating the row with the defaults for the others when the user has none. */
  async save(userID: number, game: string, playtype: string, changes: UgptPreferences | { stats: StatDocument[] }): Promise<UgptSettingsRow> {
    const [row] = await this.database.db
      .insert(ugptSettings)
      .values({ userID, game, playtype, ...DEFAULT_UGPT_SETTINGS, ...changes })
      .onConflictDoUpdate({ target: [ugptSettings.userID, ugptSettings.game, ugptSettings.playtype], set: changes })
      .returning();
    return row;
  }
}
