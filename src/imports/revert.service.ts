import { ConflictException, Injectable } from '@nestjs/common';
import { eq } from 'drizzle-orm';
import { randomHex } from '../common/crypto.js';
import { anyOf } from '../database/bulk-write.js';
import { Database } from '../database/database.js';
import { imports, scores } from '../database/schema.js';
import { removeScores } from '../scoring/score-removal.js';
import { UserBusyError, withUserLock } from '../scoring/import-lock.js';
import type { ImportRow } from '../presenters/import.presenter.js';

@Injectable()
export class RevertService {
  constructor(private readonly database: Database) {}

  /**
   * Undoes an import in one transaction: its scores go, and PBs, ranks, sessions and profile
   * ratings are repaired; class changes stay. The ImportDocument is deleted. Takes the user's
   * import lock, so a revert never races an import of the same user.
   */
  async revertImport(row: ImportRow): Promise<void> {
    if (row.status !== 'completed') throw new ConflictException(`The import ${row.importID} is ${row.status}; only a completed import can be reverted.`);
    try {
      await withUserLock(this.database, row.userID, `revert:${randomHex(8)}`, () =>
        this.database.transaction(async (tx) => {
          const imported = row.scoreIDs.length ? await tx.select().from(scores).where(anyOf(scores.scoreID, row.scoreIDs)) : [];
          await removeScores(tx, row.userID, imported, { keepClasses: true });
          await tx.delete(imports).where(eq(imports.importID, row.importID));
        }),
      );
    } catch (err) {
      if (err instanceof UserBusyError) throw new ConflictException('This user has an import in progress; revert once it has finished.');
      throw err;
    }
  }
}
