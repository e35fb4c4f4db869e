import { eq } from 'drizzle-orm';
import type { Database } from '../database/database.js';
import { appSecrets } from '../database/schema.js';
import { randomHex } from '../common/crypto.js';

/** Returns the named secret, generating it on first use; every instance sharing the database gets the same value. */
export async function getOrCreateSecret(database: Database, name: string): Promise<string> {
  await database.db.insert(appSecrets).values({ name, value: randomHex(32), createdAt: Date.now() }).onConflictDoNothing();
  const [row] = await database.db.select({ value: appSecrets.value }).from(appSecrets).where(eq(appSecrets.name, name));
  return row.value;
}
