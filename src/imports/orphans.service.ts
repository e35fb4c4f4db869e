import { ConflictException, Inject, Injectable } from '@nestjs/common';
import type { SeedReport } from '../seeds/seed-loader.js';
import { findGpt } from '../game-support/registry.js';
import { OrphansRepository } from '../repositories/orphans.repository.js';
import { UserBusyError } from '../scoring/import-lock.js';
import { ImportLockService } from '../scoring/import-lock.service.js';
import { ImportPipeline, type ConvertBatch } from './import-pipeline.js';
import type { Converted } from '../scoring/import-write.js';
import { IMPORT_TYPES_TOKEN, timesIdentifyPlays, type ImportType } from './import-types/types.js';
import { randomHex } from '../common/crypto.js';
import { groupBy } from '../common/collections.js';

export interface OrphanRetryResult {
  /** Orphans attempted. */
  processed: number;
  /** Still unmatched: kept as orphans. */
  failed: number;
  /** Matched and saved as scores. */
  success: number;
  /** Matched but invalid, or already saved: dropped. */
  removed: number;
}

export interface SeedOrphanRetryResult extends OrphanRetryResult {
  /** Users whose orphans were not retried: an import of theirs was running. */
  skippedUsers: number;
}

/** The games whose songs or charts a seed load added or changed: their orphans may match now. */
export function gamesWithCatalogChanges(report: Pick<SeedReport, 'collections'>): string[] {
  const games = report.collections
    .filter((c) => c.inserted + c.updated > 0)
    .map((c) => /^(?:songs|charts)-(.+)\.json$/.exec(c.file)?.[1])
    .filter((g): g is string => g !== undefined);
  return [...new Set(games)];
}

/** Retries orphaned scores: each group (same GPT, import type and context) goes through the import pipeline again. */
@Injectable()
export class OrphansService {
  constructor(
    private readonly orphans: OrphansRepository,
    private readonly locks: ImportLockService,
    private readonly pipeline: ImportPipeline,
    @Inject(IMPORT_TYPES_TOKEN) private readonly types: readonly ImportType[],
  ) {}

  async retryForUser(userID: number): Promise<OrphanRetryResult> {
    try {
      return await this.locks.withUserLock(userID, `orphans:${randomHex(8)}`, () => this.retry(userID));
    } catch (err) {
      if (err instanceof UserBusyError) throw new ConflictException('You have an import in progress; retry your orphans once it has finished.');
      throw err;
    }
  }

  /**
   * After a seed load changed songs or charts: retries the orphans of these games (only those) for
   * every user who has some. Users busy with an import are skipped, and counted.
   */
  async retryForGames(games: readonly string[]): Promise<SeedOrphanRetryResult> {
    if (games.length === 0) return { processed: 0, failed: 0, success: 0, removed: 0, skippedUsers: 0 };
    return this.retryForUsers(await this.orphans.usersWithOrphansOf(games), games);
  }

  /** Retries these users' orphans of these games (after a chart was created). Users busy with an import are skipped, and counted. */
  async retryForUsers(userIDs: readonly number[], games: readonly string[]): Promise<SeedOrphanRetryResult> {
    const total: SeedOrphanRetryResult = { processed: 0, failed: 0, success: 0, removed: 0, skippedUsers: 0 };
    for (const userID of userIDs) {
      try {
        const r = await this.locks.withUserLock(userID, `orphans:${randomHex(8)}`, () => this.retry(userID, games));
        for (const k of Object.keys(r) as (keyof OrphanRetryResult)[]) total[k] += r[k];
      } catch (err) {
        if (!(err instanceof UserBusyError)) throw err;
        total.skippedUsers += 1;
      }
    }
    return total;
  }

  /** Retries the user's orphans, or only those of these games. */
  private async retry(userID: number, games?: readonly string[]): Promise<OrphanRetryResult> {
    const orphans = await this.orphans.ofUser(userID, games);
    const groups = groupBy(orphans, (o) => JSON.stringify([o.game, o.playtype, o.importType, o.context.service, o.context.version]));
    const result: OrphanRetryResult = { processed: orphans.length, failed: 0, success: 0, removed: 0 };
    const retried: { batch: ConvertBatch; converted: Converted; orphanIDs: string[] }[] = [];
    for (const group of groups.values()) {
      const { game, playtype, importType, context } = group[0];
      const gpt = findGpt(game, playtype);
      if (!gpt) {
        result.failed += group.length;
        continue;
      }
      const batch: ConvertBatch = {
        userID,
        gpt,
        context,
        importType,
        importID: null,
        elements: group.map((o, index) => ({ index, raw: o.data })),
        timeIdentifiesPlay: timesIdentifyPlays(this.types, importType),
      };
      retried.push({ batch, converted: await this.pipeline.convert(batch), orphanIDs: group.map((o) => o.orphanID) });
    }
    const saved = await this.pipeline.saveRetriedOrphans(retried);
    retried.forEach(({ converted: out }, i) => {
      result.success += saved[i];
      result.removed += out.built.length - saved[i] + out.invalid.length;
      result.failed += out.orphans.length;
    });
    return result;
  }
}
