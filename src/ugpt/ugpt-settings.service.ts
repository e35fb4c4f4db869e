import { BadRequestException, Injectable } from '@nestjs/common';
import { and, eq } from 'drizzle-orm';
import { Database } from '../database/database.js';
import { ugptSettings, type StatDocument } from '../database/schema.js';
import type { GptSupport } from '../game-support/types.js';
import type { PatchUgptSettingsDto } from './dto/ugpt.dto.js';
import type { UgptSettingsDocument } from './dto/ugpt.responses.js';

type SettingsRow = typeof ugptSettings.$inferSelect;

/** Spec UGPTSettingsDocument. */
export function toUgptSettingsDocument(
  s: Pick<SettingsRow, 'preferredScoreAlg' | 'preferredSessionAlg' | 'preferredProfileAlg' | 'stats'>,
): UgptSettingsDocument {
  return { preferredScoreAlg: s.preferredScoreAlg, preferredSessionAlg: s.preferredSessionAlg, preferredProfileAlg: s.preferredProfileAlg, stats: s.stats };
}

const DEFAULTS = { preferredScoreAlg: null, preferredSessionAlg: null, preferredProfileAlg: null, stats: [] };

const PREFERENCES = [
  { key: 'preferredScoreAlg', kind: 'score', algs: (gpt: GptSupport) => gpt.scoreRatingAlgs },
  { key: 'preferredSessionAlg', kind: 'session', algs: (gpt: GptSupport) => gpt.sessionRatingAlgs },
  { key: 'preferredProfileAlg', kind: 'profile', algs: (gpt: GptSupport) => gpt.profileRatingAlgs },
] as const;

/** Per user and GPT preferences and showcase stats (ugpt_settings); a user who never saved any has the defaults. */
@Injectable()
export class UgptSettingsService {
  constructor(private readonly database: Database) {}

  async get(userID: number, gpt: GptSupport): Promise<UgptSettingsDocument> {
    const [row] = await this.database.db
      .select()
      .from(ugptSettings)
      .where(and(eq(ugptSettings.userID, userID), eq(ugptSettings.game, gpt.game), eq(ugptSettings.playtype, gpt.playtype)));
    return toUgptSettingsDocument(row ?? DEFAULTS);
  }

  /**
   * Sets the preferences given (null unsets one); absent ones stay. Each name must be one of the
   * GPT's algorithms of its kind. An empty body changes nothing and returns the current settings.
   */
  async patch(userID: number, gpt: GptSupport, dto: PatchUgptSettingsDto): Promise<UgptSettingsDocument> {
    const changes: Partial<Pick<SettingsRow, 'preferredScoreAlg' | 'preferredSessionAlg' | 'preferredProfileAlg'>> = {};
    for (const { key, kind, algs } of PREFERENCES) {
      const value = dto[key];
      if (value === undefined) continue;
      if (value !== null && !Object.hasOwn(algs(gpt), value)) {
        throw new BadRequestException(
          `Invalid ${key} '${value}'. ${kind[0].toUpperCase()}${kind.slice(1)} rating algorithms of ${gpt.game} ${gpt.playtype}: ${Object.keys(algs(gpt)).join(', ')} (or null).`,
        );
      }
      changes[key] = value;
    }
    if (Object.keys(changes).length === 0) return this.get(userID, gpt);
    const [row] = await this.database.db
      .insert(ugptSettings)
      .values({ userID, game: gpt.game, playtype: gpt.playtype, ...DEFAULTS, ...changes })
      .onConflictDoUpdate({ target: [ugptSettings.userID, ugptSettings.game, ugptSettings.playtype], set: changes })
      .returning();
    return toUgptSettingsDocument(row);
  }

  /** Replaces the showcase stats (already validated), keeping the preferences. */
  async setStats(userID: number, gpt: GptSupport, stats: StatDocument[]): Promise<StatDocument[]> {
    const [row] = await this.database.db
      .insert(ugptSettings)
      .values({ userID, game: gpt.game, playtype: gpt.playtype, ...DEFAULTS, stats })
      .onConflictDoUpdate({ target: [ugptSettings.userID, ugptSettings.game, ugptSettings.playtype], set: { stats } })
      .returning();
    return row.stats;
  }
}
