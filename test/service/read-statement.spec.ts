import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { eq, getTableColumns, sql } from 'drizzle-orm';
import { aliasedColumns, readStatement, type Database } from '../../src/database/database.js';
import { EMPTY_SOCIALS, userGameStats, users, type GameStatsRow, type UserRow } from '../../src/database/schema.js';
import { openTestDatabase } from '../support/app.js';

const USERS_BY_IDS = readStatement<UserRow>(
  'test_users_by_ids',
  sql`SELECT ${aliasedColumns(getTableColumns(users))} FROM ${users} WHERE ${users.id} = ANY($1::int[]) ORDER BY ${users.id}`,
);
const STATS_OF = readStatement<GameStatsRow>(
  'test_stats_of',
  sql`SELECT ${aliasedColumns(getTableColumns(userGameStats))} FROM ${userGameStats} WHERE ${userGameStats.userID} = $1`,
);

/**
 * Database.read on a real migrated database (PGlite, or PostgreSQL with TEST_DATABASE_URL): a
 * ReadStatement's rows are the rows Drizzle maps from the same table, field for field and type for
 * type (unix ms as numbers, jsonb as values, nulls kept), run after run (a server's named
 * statement is reused).
 */
describe('ReadStatement', () => {
  let database: Database;
  let drop: () => Promise<void>;
  let ids: number[];

  beforeAll(async () => {
    ({ database, drop } = await openTestDatabase());
    const rows = await database.db
      .insert(users)
      .values([
        {
          username: 'Reader',
          usernameLowercase: 'reader',
          about: 'a',
          socialMedia: EMPTY_SOCIALS,
          joinDate: 1_792_649_069_779,
          lastSeen: 8_640_000_000_000_000,
        },
        {
          username: 'Other',
          usernameLowercase: 'other',
          about: '',
          status: 'hi',
          socialMedia: { ...EMPTY_SOCIALS, twitter: 'x' },
          clan: { tag: 'C' },
          badges: ['b'],
          joinDate: 0,
          lastSeen: 1,
        },
      ])
      .returning({ id: users.id });
    ids = rows.map((r) => r.id);
    await database.db
      .insert(userGameStats)
      .values({ userID: ids[0], game: 'sdvx', playtype: 'Single', ratings: { VF6: 0.369, none: null }, classes: { dan: 'X' }, lastUpdated: 1_792_649_069_779 });
  });
  afterAll(async () => {
    await drop();
  });

  it('gives the rows Drizzle maps, with the same JS types', async () => {
    const drizzleUsers = await database.db
      .select()
      .from(users)
      .where(sql`${users.id} = ANY(${sql.param(ids)}::int[])`)
      .orderBy(users.id);
    for (let run = 0; run < 3; run++) expect(await database.read(USERS_BY_IDS, [ids])).toStrictEqual(drizzleUsers);
    const [first] = await database.read(USERS_BY_IDS, [[ids[0]]]);
    expect(typeof first.joinDate).toBe('number');
    expect(first.joinDate).toBe(1_792_649_069_779);
    expect(first.clan).toBeNull();

    const drizzleStats = await database.db.select().from(userGameStats).where(eq(userGameStats.userID, ids[0]));
    expect(await database.read(STATS_OF, [ids[0]])).toStrictEqual(drizzleStats);
    expect(await database.read(STATS_OF, [ids[1]])).toStrictEqual([]);
  });

  it('refuses a statement that embeds values instead of naming parameters', () => {
    expect(() => readStatement('test_embedded', sql`SELECT ${users.id} FROM ${users} WHERE ${users.id} = ${1}`)).toThrow(/parameters as \$1/);
  });
});
