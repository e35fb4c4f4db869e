import { describe, expect, it } from '@jest/globals';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../src/database/database.js';
import { openTestDatabase, usingPostgres } from '../support/app.js';

/**
 * The server's connections prepare the parameterised statements they send (src/database/prepared-client.ts): the
 * database parses and plans each text once per connection. Bounded: long parameter lists run unnamed.
 */
(usingPostgres ? describe : describe.skip)('prepared statements on the write path', () => {
  it('names a repeated parameterised statement once per connection, and leaves unparameterised and long-list ones unnamed', async () => {
    const { database, drop } = await openTestDatabase();
    try {
      const prepared = await database.transaction(async (tx) => {
        for (let i = 0; i < 3; i++) expect(await queryRows<{ n: number }>(tx, sql`SELECT ${i}::int + 1 AS n`)).toEqual([{ n: i + 1 }]);
        // 100 parameters: past the bound, not prepared.
        const many = Array.from({ length: 100 }, (_, i) => sql`${i}::int`);
        expect(await queryRows<{ n: number }>(tx, sql`SELECT greatest(${sql.join(many, sql`, `)}) AS n`)).toEqual([{ n: 99 }]);
        await queryRows(tx, sql`SELECT 1 AS unparameterised`);
        return queryRows<{ name: string; statement: string }>(tx, sql`SELECT name, statement FROM pg_prepared_statements WHERE ${1} = 1 ORDER BY name`);
      });
      const texts = prepared.map((p) => p.statement);
      expect(prepared.every((p) => p.name.startsWith('w_'))).toBe(true);
      expect(texts.filter((t) => t.includes('+ 1 AS n'))).toHaveLength(1);
      expect(texts.some((t) => t.includes('greatest('))).toBe(false);
      expect(texts.some((t) => t.includes('unparameterised'))).toBe(false);
      // The pool's other statements still answer (and the callback form of pool.query too).
      expect(await queryRows(database.db, sql`SELECT ${'ok'}::text AS answer`)).toEqual([{ answer: 'ok' }]);
    } finally {
      await drop();
    }
  });
});
