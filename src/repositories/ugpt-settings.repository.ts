import { Injectable } from '@nestjs/common';
import { and, eq, sql } from 'drizzle-orm';
import { Database } from '../database/database.js';
import { ugptSettings, type StatDocument, type UgptSettingsRow } from '../database/schema.js';

export type UgptPreferences = Partial<
  Pick<
    UgptSettingsRow,
    'preferredScoreAlg' | 'preferredSessionAlg' | 'preferredProfileAlg' | 'preferredDefaultEnum' | 'defaultTable' | 'preferredRanking' | 'gameSpecific'
  >
>;

/** What a user who never saved settings on a GPT has. */
export const DEFAULT_UGPT_SETTINGS: Omit<UgptSettingsRow, 'userID' | 'game' | 'playtype'> = {
  preferredScoreAlg: null,
  preferredSessionAlg: null,
  preferredProfileAlg: null,
  stats: [],
  preferredDefaultEnum: null,
  defaultTable: null,
  preferredRanking: null,
  gameSpecific: {},
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

  /**
   * Sets these columns, creating the row with the defaults for the others when the user has none.
   * `gameSpecific` is merged key by key into the stored one (a key not given keeps its value), in
   * the same statement; `resetGameSpecific` empties it first (every key back to the GPT's default).
   */
  async save(
    userID: number,
    game: string,
    playtype: string,
    changes: UgptPreferences | { stats: StatDocument[] },
    resetGameSpecific = false,
  ): Promise<UgptSettingsRow> {
    const set: Record<string, unknown> = { ...changes };
    if ('gameSpecific' in changes && changes.gameSpecific !== undefined) {
      const given = JSON.stringify(changes.gameSpecific);
      set.gameSpecific = resetGameSpecific ? sql`${given}::jsonb` : sql`${ugptSettings.gameSpecific} || ${given}::jsonb`;
    }
    const [row] = await this.database.db
      .insert(ugptSettings)
      .values({ userID, game, playtype, ...DEFAULT_UGPT_SETTINGS, ...changes })
      .onConflictDoUpdate({ target: [ugptSettings.userID, ugptSettings.game, ugptSettings.playtype], set })
      .returning();
    return row;
  }
}
