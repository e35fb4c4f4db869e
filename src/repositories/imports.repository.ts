import { Injectable } from '@nestjs/common';
import { and, asc, count, desc, eq, gt, inArray, isNotNull, lt, notInArray, sql } from 'drizzle-orm';
import { Database, type Queryable } from '../database/database.js';
import { imports, type ImportRow, type NewImportRow } from '../database/schema.js';

@Injectable()
export class ImportsRepository {
  constructor(private readonly database: Database) {}

  /** Queued imports (with a stored input: inline imports have none) not finished and queued before `before`, oldest first. */
  async strandedQueuedIDs(before: number, limit: number): Promise<string[]> {
    const rows = await this.database.db
      .select({ importID: imports.importID })
      .from(imports)
      .where(and(inArray(imports.status, ['queued', 'ongoing']), isNotNull(imports.input), lt(imports.timeQueued, before)))
      .orderBy(asc(imports.timeQueued))
      .limit(limit);
    return rows.map((r) => r.importID);
  }

  async findById(importID: string): Promise<ImportRow | undefined> {
    const [row] = await this.database.db.select().from(imports).where(eq(imports.importID, importID)).limit(1);
    return row;
  }

  /**
   * A user's imports with one status, newest first (completed: by timeFinished; failed: by
   * timeStarted, or timeQueued for one that failed before starting), optionally of one import
   * type or user intent.
   */
  listByUser(userID: number, status: 'completed' | 'failed', filter: { importType?: string; userIntent?: boolean }, limit: number): Promise<ImportRow[]> {
    return this.list(status, { ...filter, userID }, limit);
  }

  /** Everyone's imports with one status, newest first, in the order and with the filters of `listByUser`. */
  list(status: 'completed' | 'failed', filter: { userID?: number; importType?: string; userIntent?: boolean }, limit: number): Promise<ImportRow[]> {
    const conditions = [eq(imports.status, status)];
    if (filter.userID !== undefined) conditions.push(eq(imports.userID, filter.userID));
    if (filter.importType !== undefined) conditions.push(eq(imports.importType, filter.importType));
    if (filter.userIntent !== undefined) conditions.push(eq(imports.userIntent, filter.userIntent));
    const order = status === 'completed' ? desc(imports.timeFinished) : desc(sql`coalesce(${imports.timeStarted}, ${imports.timeQueued})`);
    return this.database.db
      .select()
      .from(imports)
      .where(and(...conditions))
      .orderBy(order, desc(imports.importID))
      .limit(limit);
  }

  /**
   * The import types of the user's completed imports that they asked for (userIntent) and that finished after
   * `since`, leaving out `except`, each with how many: the most used first, then by name.
   */
  async recentImportTypes(userID: number, since: number, except: readonly string[]): Promise<{ importType: string; count: number }[]> {
    const uses = count();
    return this.database.db
      .select({ importType: imports.importType, count: uses })
      .from(imports)
      .where(
        and(
          eq(imports.userID, userID),
          eq(imports.status, 'completed'),
          eq(imports.userIntent, true),
          gt(imports.timeFinished, since),
          except.length ? notInArray(imports.importType, [...except]) : undefined,
        ),
      )
      .groupBy(imports.importType)
      .orderBy(desc(uses), asc(imports.importType));
  }

  async insert(row: NewImportRow): Promise<void> {
    await this.database.db.insert(imports).values(row);
  }

  /** Stores an import that failed before it had a row (a score hook's); one stored meanwhile is left as it is. */
  async insertFailed(row: NewImportRow): Promise<void> {
    await this.database.db.insert(imports).values(row).onConflictDoNothing();
  }

  async setProgress(importID: string, progress: string, status?: 'ongoing'): Promise<void> {
    await this.database.db
      .update(imports)
      .set({ progress, ...(status ? { status } : {}) })
      .where(eq(imports.importID, importID));
  }

  /** Fails the import for good unless it has already finished (completed or failed). */
  async markFailed(importID: string, failure: { statusCode: number; message: string }): Promise<void> {
    await this.database.db
      .update(imports)
      .set({ status: 'failed', progress: null, input: null, failure, timeFinished: Date.now() })
      .where(and(eq(imports.importID, importID), inArray(imports.status, ['queued', 'ongoing'])));
  }

  async delete(importID: string, q: Queryable): Promise<void> {
    await q.delete(imports).where(eq(imports.importID, importID));
  }
}
