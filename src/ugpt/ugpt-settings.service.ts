import { Injectable } from '@nestjs/common';
import type { StatDocument } from '../database/schema.js';
import type { GptSupport } from '../game-support/types.js';
import { pickAlg } from '../http/algorithms.js';
import { DEFAULT_UGPT_SETTINGS, UgptSettingsRepository, type UgptPreferences } from '../repositories/ugpt-settings.repository.js';
import { SocialRepository } from '../repositories/social.repository.js';
import type { PatchUgptSettingsDto } from './dto/ugpt.dto.js';
import { toUgptSettingsDocument, type UgptSettingsDocument } from '../presenters/ugpt-settings.presenter.js';

const PREFERENCES = [
  { key: 'preferredScoreAlg', kind: 'score' },
  { key: 'preferredSessionAlg', kind: 'session' },
  { key: 'preferredProfileAlg', kind: 'profile' },
] as const;

/** Per user and GPT preferences and showcase stats; a user who never saved any has the defaults. */
@Injectable()
export class UgptSettingsService {
  constructor(
    private readonly repository: UgptSettingsRepository,
    private readonly social: SocialRepository,
  ) {}

  async get(userID: number, gpt: GptSupport): Promise<UgptSettingsDocument> {
    const [settings, rivals] = await Promise.all([this.repository.find(userID, gpt.game, gpt.playtype), this.social.rivalIDs(userID, gpt.game, gpt.playtype)]);
    return toUgptSettingsDocument({ userID, game: gpt.game, playtype: gpt.playtype, settings: settings ?? DEFAULT_UGPT_SETTINGS, rivals });
  }

  /**
   * Sets the preferences given (null unsets one); absent ones stay. Each name must be one of the
   * GPT's algorithms of its kind. An empty body changes nothing and returns the current settings.
   */
  async patch(userID: number, gpt: GptSupport, dto: PatchUgptSettingsDto): Promise<UgptSettingsDocument> {
    const changes: UgptPreferences = {};
    for (const { key, kind } of PREFERENCES) {
      const value = dto[key];
      if (value === undefined) continue;
      changes[key] = value === null ? null : pickAlg(gpt, kind, value, { subject: key, orNull: true });
    }
    if (Object.keys(changes).length === 0) return this.get(userID, gpt);
    const settings = await this.repository.save(userID, gpt.game, gpt.playtype, changes);
    const rivals = await this.social.rivalIDs(userID, gpt.game, gpt.playtype);
    return toUgptSettingsDocument({ userID, game: gpt.game, playtype: gpt.playtype, settings, rivals });
  }

  /** Replaces the showcase stats (already validated), keeping the preferences. */
  async setStats(userID: number, gpt: GptSupport, stats: StatDocument[]): Promise<StatDocument[]> {
    return (await this.repository.save(userID, gpt.game, gpt.playtype, { stats })).stats;
  }
}
