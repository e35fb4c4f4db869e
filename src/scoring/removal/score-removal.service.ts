import { Injectable } from '@nestjs/common';
import { randomHex } from '../../common/crypto.js';
import { Database } from '../../database/database.js';
import { ImportsRepository } from '../../repositories/imports.repository.js';
import { ScoresRepository } from '../../repositories/scores.repository.js';
import { ImportLockService } from '../import-lock.service.js';
import type { GptSupport } from '../../game-support/types.js';
import { findGpt } from '../../game-support/registry.js';
import { deleteChartRow, deleteProfileRows, hasProfile, removeScoreBatch } from './destroy.js';
import { removeScores } from './score-removal.js';

/**
 * Removes a user's scores in one transaction (removeScores repairs PBs, ranks, sessions, imports
 * and profile), holding the user's import lock so that it never interleaves with one of their
 * imports: throws UserBusyError while one runs.
 */
@Injectable()
export class ScoreRemovalService {
  constructor(
    private readonly database: Database,
    private readonly locks: ImportLockService,
    private readonly scores: ScoresRepository,
    private readonly imports: ImportsRepository,
  ) {}

  /** Deletes one of the user's scores; derived classes follow. False if the score is gone. */
  deleteScore(userID: number, scoreID: string): Promise<boolean> {
    return this.locks.withUserLock(userID, `delete:${randomHex(8)}`, () =>
      this.database.transaction(async (tx) => {
        const current = await this.scores.lockById(scoreID, tx);
        if (!current) return false;
        await removeScores(tx, current.userID, [current], { keepClasses: false });
        return true;
      }),
    );
  }

  /** Undoes an import: its scores go, class changes stay, and its ImportDocument is deleted. */
  revertImport(userID: number, importID: string, scoreIDs: readonly string[]): Promise<void> {
    return this.locks.withUserLock(userID, `revert:${randomHex(8)}`, () =>
      this.database.transaction(async (tx) => {
        await removeScores(tx, userID, await this.scores.findByIds(scoreIDs, tx), { keepClasses: true });
        await this.imports.delete(importID, tx);
      }),
    );
  }

  /**
   * Removes the user's profile on a GPT: their scores go batch by batch (each batch repairs PBs,
   * ranks, sessions and imports as a delete does), then the profile's other rows. False when the
   * user had neither a profile nor a score there.
   */
  destroyProfile(userID: number, gpt: GptSupport): Promise<boolean> {
    return this.locks.withUserLock(userID, `destroy-ugpt:${randomHex(8)}`, async () => {
      if (!(await this.database.transaction((tx) => hasProfile(tx, userID, gpt)))) return false;
      while ((await this.database.transaction((tx) => removeScoreBatch(tx, userID, gpt))) > 0);
      await this.database.transaction((tx) => deleteProfileRows(tx, userID, gpt));
      return true;
    });
  }

  /**
   * Removes a chart: each player's scores on it go as a delete removes them (their PBs, the
   * chart's ranks, sessions and profiles follow), then the chart itself. Throws UserBusyError when
   * one of those players has an import running; what was done stays done, and a retry finishes.
   */
  async destroyChart(chart: { chartID: string; game: string; playtype: string }): Promise<void> {
    const gpt = findGpt(chart.game, chart.playtype);
    if (gpt) {
      for (const userID of await this.scores.usersWithScoresOn(chart.chartID)) {
        await this.locks.withUserLock(userID, `destroy-chart:${randomHex(8)}`, async () => {
          while ((await this.database.transaction((tx) => removeScoreBatch(tx, userID, gpt, chart.chartID))) > 0);
        });
      }
    }
    await this.database.transaction((tx) => deleteChartRow(tx, chart.chartID));
    this.database.catalogChanged();
  }
}
