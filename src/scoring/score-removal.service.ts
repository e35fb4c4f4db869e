import { Injectable } from '@nestjs/common';
import { randomHex } from '../common/crypto.js';
import { Database } from '../database/database.js';
import { ImportsRepository } from '../repositories/imports.repository.js';
import { ScoresRepository } from '../repositories/scores.repository.js';
import { ImportLockService } from './import-lock.service.js';
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
}
