import { describe, expect, it } from '@jest/globals';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import fs from 'node:fs';
import path from 'node:path';
import { sha256Hex } from '../../src/common/crypto.js';

const FOLDER = path.resolve('drizzle');
const journal = JSON.parse(fs.readFileSync(path.join(FOLDER, 'meta/_journal.json'), 'utf8')) as { entries: { idx: number; tag: string }[] };

async function apply(db: PGlite, tag: string): Promise<void> {
  const sql = fs.readFileSync(path.join(FOLDER, `${tag}.sql`), 'utf8');
  for (const statement of sql.split('--> statement-breakpoint')) if (statement.trim()) await db.exec(statement);
}

describe('migration: client secrets become SHA-256 hashes', () => {
  it('hashes the secrets of existing clients and drops the plain column', async () => {
    const entries = [...journal.entries].sort((a, b) => a.idx - b.idx);
    const first = entries.findIndex((e) => e.tag.endsWith('hash-client-secrets-pkce'));
    expect(first).toBeGreaterThan(0);
    const db = await PGlite.create({ extensions: { pg_trgm } });
    for (const entry of entries.slice(0, first)) await apply(db, entry.tag);

    // A client registered before the change, with its secret in plain text (and the webhook secret the earlier webhooks migration gave it; no owner row needed: foreign keys off).
    await db.exec('SET session_replication_role = replica');
    await db.query(
      `INSERT INTO api_clients (client_id, client_secret, webhook_secret, name, author, requested_permissions, created_at) VALUES ('CIold', 'CSplain-old-secret', 'WSold', 'Old', 1, '[]', 0)`,
    );
    for (const entry of entries.slice(first)) await apply(db, entry.tag);

    const { rows } = await db.query<Record<string, unknown>>(`SELECT * FROM api_clients WHERE client_id = 'CIold'`);
    expect(rows[0].client_secret_hash).toBe(sha256Hex('CSplain-old-secret'));
    expect(rows[0]).not.toHaveProperty('client_secret');
    await db.close();
  });
});
