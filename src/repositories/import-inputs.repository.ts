import { Injectable } from '@nestjs/common';
import { eq, inArray, lt } from 'drizzle-orm';
import { Database } from '../database/database.js';
import { importInputs } from '../database/schema.js';

/** The kept inputs of completed imports (import_inputs); written by the import's transaction (scoring/import-write.ts). */
@Injectable()
export class ImportInputsRepository {
  constructor(private readonly database: Database) {}

  async find(importID: string): Promise<{ userID: number; input: string; storedAt: number } | undefined> {
    const [row] = await this.database.db
      .select({ userID: importInputs.userID, input: importInputs.input, storedAt: importInputs.storedAt })
      .from(importInputs)
      .where(eq(importInputs.importID, importID))
      .limit(1);
    return row;
  }

  /** Deletes up to `limit` inputs stored before `before`, oldest first; returns how many went. */
  async deleteStoredBefore(before: number, limit: number): Promise<number> {
    const old = this.database.db
      .select({ id: importInputs.importID })
      .from(importInputs)
      .where(lt(importInputs.storedAt, before))
      .orderBy(importInputs.storedAt)
      .limit(limit);
    const deleted = await this.database.db.delete(importInputs).where(inArray(importInputs.importID, old)).returning({ id: importInputs.importID });
    return deleted.length;
  }
}
