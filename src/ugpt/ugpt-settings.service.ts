import { BadRequestException, Injectable } from '@nestjs/common';
import { z } from 'zod';
import { CatalogRepository } from '../repositories/catalog.repository.js';
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

/** The enum metrics every GPT keeps on its scores (scoreData.grade and scoreData.lamp): what preferredDefaultEnum may name. */
export const ENUM_METRICS = ['grade', 'lamp'] as const;

function pickEnumMetric(gpt: GptSupport, name: string | null): string | null {
  if (name === null || (ENUM_METRICS as readonly string[]).includes(name)) return name;
  throw new BadRequestException(
    `Invalid preferredDefaultEnum '${name}'. Expected one of: ${ENUM_METRICS.join(', ')} or null (the enum metrics of ${gpt.game} ${gpt.playtype}).`,
  );
}

/** The GPT's own preferences in the body, checked against GptSupport.preferences (a GPT without any takes no key). */
function parseGameSpecific(gpt: GptSupport, body: Record<string, unknown>): Record<string, unknown> {
  const parsed = (gpt.preferences?.schema ?? z.strictObject({})).safeParse(body);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const at = ['gameSpecific', ...issue.path.map(String)].join('.');
  const keys = Object.keys(gpt.preferences?.schema instanceof z.ZodObject ? gpt.preferences.schema.shape : {});
  const allowed = keys.length > 0 ? `${gpt.game} ${gpt.playtype} takes: ${keys.join(', ')}` : `${gpt.game} ${gpt.playtype} has no game-specific preferences`;
  throw new BadRequestException(`Invalid ${at}: ${issue.message} (${allowed}).`);
}

/** Per user and GPT preferences and showcase stats; a user who never saved any has the defaults. */
@Injectable()
export class UgptSettingsService {
  constructor(
    private readonly repository: UgptSettingsRepository,
    private readonly social: SocialRepository,
    private readonly catalog: CatalogRepository,
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
    if (dto.preferredDefaultEnum !== undefined) changes.preferredDefaultEnum = pickEnumMetric(gpt, dto.preferredDefaultEnum);
    if (dto.preferredRanking !== undefined) changes.preferredRanking = dto.preferredRanking;
    if (dto.defaultTable !== undefined) changes.defaultTable = await this.pickTable(gpt, dto.defaultTable);
    if (dto.gameSpecific !== undefined) changes.gameSpecific = dto.gameSpecific === null ? {} : parseGameSpecific(gpt, dto.gameSpecific);
    if (Object.keys(changes).length === 0) return this.get(userID, gpt);
    const settings = await this.repository.save(userID, gpt.game, gpt.playtype, changes, dto.gameSpecific === null);
    const rivals = await this.social.rivalIDs(userID, gpt.game, gpt.playtype);
    return toUgptSettingsDocument({ userID, game: gpt.game, playtype: gpt.playtype, settings, rivals });
  }

  private async pickTable(gpt: GptSupport, tableID: string | null): Promise<string | null> {
    if (tableID === null) return null;
    if (!(await this.catalog.table(gpt.game, gpt.playtype, tableID))) {
      throw new BadRequestException(`The table '${tableID}' does not exist on ${gpt.game} ${gpt.playtype}, so it cannot be the default table.`);
    }
    return tableID;
  }

  /** Replaces the showcase stats (already validated), keeping the preferences. */
  async setStats(userID: number, gpt: GptSupport, stats: StatDocument[]): Promise<StatDocument[]> {
    return (await this.repository.save(userID, gpt.game, gpt.playtype, { stats })).stats;
  }
}
