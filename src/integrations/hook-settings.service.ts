import { Injectable } from '@nestjs/common';
import { IntegrationSettingsRepository, type FervidexSettings } from '../repositories/integration-settings.repository.js';
import type { PatchFervidexSettingsDto, PatchKshookSv6cSettingsDto } from './dto/hook-settings.dto.js';

/** A user's settings of the score hooks' integrations. */
@Injectable()
export class HookSettingsService {
  constructor(private readonly settings: IntegrationSettingsRepository) {}

  fervidex(userID: number): Promise<FervidexSettings> {
    return this.settings.fervidex(userID);
  }

  /** Sets the given fields; absent ones are unchanged. An empty card list is stored as null: both mean every card. */
  patchFervidex(userID: number, dto: PatchFervidexSettingsDto): Promise<FervidexSettings> {
    const changes: Partial<FervidexSettings> = {};
    if (dto.cards !== undefined) changes.cards = dto.cards?.length ? dto.cards : null;
    if (dto.forceStaticImport !== undefined) changes.forceStaticImport = dto.forceStaticImport;
    return Object.keys(changes).length ? this.settings.saveFervidex(userID, changes) : this.settings.fervidex(userID);
  }

  kshookSv6c(userID: number): Promise<{ forceStaticImport: boolean }> {
    return this.settings.kshookSv6c(userID);
  }

  patchKshookSv6c(userID: number, dto: PatchKshookSv6cSettingsDto): Promise<{ forceStaticImport: boolean }> {
    return dto.forceStaticImport === undefined
      ? this.settings.kshookSv6c(userID)
      : this.settings.saveKshookSv6c(userID, { forceStaticImport: dto.forceStaticImport });
  }
}
