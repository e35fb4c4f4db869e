import { Injectable } from '@nestjs/common';
import { desc, lt } from 'drizzle-orm';
import { Database } from '../database/database.js';
import { adminAuditLog, type AdminAuditRow } from '../database/schema.js';

@Injectable()
export class AdminAuditRepository {
  constructor(private readonly database: Database) {}

  async insert(entry: Omit<AdminAuditRow, 'id'>): Promise<AdminAuditRow> {
    const [row] = await this.database.db.insert(adminAuditLog).values(entry).returning();
    return row;
  }

  /** Newest first; `before` is an entry id, for the next page. */
  list(limit: number, before?: number): Promise<AdminAuditRow[]> {
    return this.database.db
      .select()
      .from(adminAuditLog)
      .where(before === undefined ? undefined : lt(adminAuditLog.id, before))
      .orderBy(desc(adminAuditLog.id))
      .limit(limit);
  }
}
