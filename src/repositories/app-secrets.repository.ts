import { Injectable } from '@nestjs/common';
import { eq } from 'drizzle-orm';
import { randomHex } from '../common/crypto.js';
import { Database } from '../database/database.js';
import { appSecrets } from '../database/schema.js';

@Injectable()
export class AppSecretsRepository {
  constructor(private readonly database: Database) {}

  /** Returns the named secret, generating it on first use; every instance sharing the database gets the same value. */
  async getOrCreate(name: string): Promise<string> {
    await this.database.db
      .insert(appSecrets)
      .values({ name, value: randomHex(32), createdAt: Date.now() })
      .onConflictDoNothing();
    const [row] = await this.database.db.select({ value: appSecrets.value }).from(appSecrets).where(eq(appSecrets.name, name));
    return row.value;
  }
}
