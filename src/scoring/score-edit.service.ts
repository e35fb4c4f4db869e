import { Injectable } from '@nestjs/common';
import { Database } from '../database/database.js';
import { findGpt } from '../game-support/registry.js';
import { ScoresRepository, type ScoreAnnotations } from '../repositories/scores.repository.js';
import { loadChartContexts, recomputePersonalBests } from './pbs/personal-bests.writer.js';
import type { ScoreRow } from '../database/schema.js';

@Injectable()
export class ScoreEditService {
  constructor(
    private readonly database: Database,
    private readonly scores: ScoresRepository,
  ) {}

  /**
   * Sets a score's comment and/or highlight. A highlight change recomputes the PB of that chart,
   * whose `highlighted` follows the scores it is composed from. Undefined if the score is gone.
   */
  annotate(scoreID: string, changes: ScoreAnnotations): Promise<ScoreRow | undefined> {
    return this.database.transaction(async (tx) => {
      const updated = await this.scores.annotate(scoreID, changes, tx);
      if (!updated || changes.highlighted === undefined) return updated;
      const gpt = findGpt(updated.game, updated.playtype);
      if (gpt) await recomputePersonalBests(tx, updated.userID, gpt, await loadChartContexts(tx, [updated.chartID]));
      return updated;
    });
  }
}
