import { ConflictException, Injectable } from '@nestjs/common';
import { UserBusyError } from '../scoring/import-lock.js';
import { ScoreRemovalService } from '../scoring/removal/score-removal.service.js';
import type { ImportRow } from '../database/schema.js';

@Injectable()
export class RevertService {
  constructor(private readonly removal: ScoreRemovalService) {}

  /**
   * Undoes an import in one transaction: its scores go, and PBs, ranks, sessions and profile
   * ratings are repaired; class changes stay. The ImportDocument is deleted. Takes the user's
   * import lock, so a revert never races an import of the same user.
   */
  async revertImport(row: ImportRow): Promise<void> {
    if (row.status !== 'completed') throw new ConflictException(`The import ${row.importID} is ${row.status}; only a completed import can be reverted.`);
    try {
      await this.removal.revertImport(row.userID, row.importID, row.scoreIDs);
    } catch (err) {
      if (err instanceof UserBusyError) throw new ConflictException('This user has an import in progress; revert once it has finished.');
      throw err;
    }
  }
}
