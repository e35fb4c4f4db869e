import { and, eq, getTableName, inArray, sql } from 'drizzle-orm';
import * as schema from '../../src/database/schema.js';
import { dbOf, type Store } from './stored.js';

/**
 * States a test arranges behind the app's back, because no route makes them: an administrator or
 * a banned account, an import lock held by another process, rows as a crashed process left them.
 * With stored.ts, the only place of test/support and test/e2e that knows the schema: e2e files
 * call these instead of writing rows themselves.
 */

/** Sets the users' authLevel: 0 banned, 1 a user, 3 an administrator. */
export async function setAuthLevel(s: Store, userID: number | number[], authLevel: number): Promise<void> {
  const ids = Array.isArray(userID) ? userID : [userID];
  await dbOf(s).update(schema.users).set({ authLevel }).where(inArray(schema.users.id, ids));
}

/** Makes the user an administrator (authLevel 3), as `npm run cli -- auth-level <user> 3` does. */
export const makeAdmin = (s: Store, userID: number) => setAuthLevel(s, userID, 3);

/** Makes the user banned (authLevel 0). */
export const ban = (s: Store, userID: number) => setAuthLevel(s, userID, 0);

/**
 * Holds the user's import lock as a running import of another process would: a row whose
 * heartbeat is `heartbeat` (now by default: a live holder). Returns its release.
 */
export async function holdImportLock(s: Store, userID: number, options: { owner?: string; heartbeat?: number } = {}): Promise<() => Promise<void>> {
  await dbOf(s)
    .insert(schema.importLocks)
    .values({ userID, owner: options.owner ?? 'e2e-running-import', heartbeat: options.heartbeat ?? Date.now() });
  return async () => {
    await dbOf(s).delete(schema.importLocks).where(eq(schema.importLocks.userID, userID));
  };
}

/** Moves the heartbeat of the user's import lock (to make it stale, as a holder that stopped refreshing it). */
export async function setImportLockHeartbeat(s: Store, userID: number, heartbeat: number): Promise<void> {
  await dbOf(s).update(schema.importLocks).set({ heartbeat }).where(eq(schema.importLocks.userID, userID));
}

/**
 * An import row as a process leaves it before it finishes: queued with its input (a job not yet
 * run), or ongoing without one (an inline import whose process died). Its importID is `importID`.
 */
export async function storeUnfinishedImport(
  s: Store,
  row: { importID: string; userID: number; importType: string; status: 'queued' | 'ongoing'; input?: string; progress?: string; timeQueued?: number },
): Promise<void> {
  await dbOf(s)
    .insert(schema.imports)
    .values({ userIntent: false, timeQueued: Date.now(), ...row });
}

/** Replaces a queued import's stored input (as if it had passed an older rule). */
export async function setImportInput(s: Store, importID: string, input: string): Promise<void> {
  await dbOf(s).update(schema.imports).set({ input }).where(eq(schema.imports.importID, importID));
}

/** The client that runs lockProfilesTable and waitingOnProfilesTable: a pg.Client or pool of the test's database. */
interface SqlClient {
  query: (text: string) => Promise<{ rowCount: number | null }>;
}
const profilesTable = () => getTableName(schema.userGameStats);

/**
 * Opens a transaction in `client` that holds a SHARE lock on the table of profiles (game stats):
 * an import's transaction then waits at its last table, after writing its scores, sessions and
 * PBs. ROLLBACK in `client` lets it go on.
 */
export async function lockProfilesTable(client: SqlClient): Promise<void> {
  await client.query('BEGIN');
  await client.query(`LOCK TABLE ${profilesTable()} IN SHARE MODE`);
}

/** Whether some transaction waits for the lock of lockProfilesTable. */
export async function waitingOnProfilesTable(client: SqlClient): Promise<boolean> {
  const waiting = await client.query(`SELECT 1 FROM pg_locks WHERE NOT granted AND relation = '${profilesTable()}'::regclass`);
  return (waiting.rowCount ?? 0) > 0;
}

/**
 * A user inserted straight into the table, without credentials (hashing a password per user would
 * dominate a large setup; a CLI test may need one before any server runs). Returns its id.
 */
export async function storeUser(s: Store, username: string, values: { joinDate?: number; lastSeen?: number; about?: string } = {}): Promise<number> {
  const [row] = await dbOf(s)
    .insert(schema.users)
    .values({ username, usernameLowercase: username.toLowerCase(), about: '', socialMedia: schema.EMPTY_SOCIALS, joinDate: 0, lastSeen: 0, ...values })
    .returning({ id: schema.users.id });
  return row.id;
}

/** Removes the user's PB on the chart, as a lost write would (for the admin repairs). */
export async function removePb(s: Store, userID: number, chartID: string): Promise<void> {
  await dbOf(s)
    .delete(schema.personalBests)
    .where(and(eq(schema.personalBests.userID, userID), eq(schema.personalBests.chartID, chartID)));
}

/** Overwrites the user's PB on the chart as a bug would: its score (column and scoreData), rank or calculatedData. */
export async function overwritePb(
  s: Store,
  userID: number,
  chartID: string,
  values: { score?: number; rank?: number; calculatedData?: Record<string, number | null> },
): Promise<void> {
  const { score, ...rest } = values;
  const pbs = schema.personalBests;
  await dbOf(s)
    .update(pbs)
    .set({ ...rest, ...(score === undefined ? {} : { score, scoreData: sql`jsonb_set(${pbs.scoreData}, '{score}', ${String(score)}::jsonb)` }) })
    .where(and(eq(pbs.userID, userID), eq(pbs.chartID, chartID)));
}

/** Overwrites what the user's scores, PBs, sessions and profiles have computed (calculatedData, ratings), as a bug would. */
export async function overwriteComputed(
  s: Store,
  userID: number,
  values: { scores?: Record<string, number>; pbs?: Record<string, number>; sessions?: Record<string, number>; profileRatings?: Record<string, number> },
): Promise<void> {
  const db = dbOf(s);
  if (values.scores) await db.update(schema.scores).set({ calculatedData: values.scores }).where(eq(schema.scores.userID, userID));
  if (values.pbs) await db.update(schema.personalBests).set({ calculatedData: values.pbs }).where(eq(schema.personalBests.userID, userID));
  if (values.sessions) await db.update(schema.sessions).set({ calculatedData: values.sessions }).where(eq(schema.sessions.userID, userID));
  if (values.profileRatings) await db.update(schema.userGameStats).set({ ratings: values.profileRatings }).where(eq(schema.userGameStats.userID, userID));
}

/** Makes the user's mailed codes (of one purpose, or all) expired, as time passing would. */
export async function expireEmailCodes(s: Store, userID: number, purpose?: 'verify-email' | 'reset-password'): Promise<void> {
  const codes = schema.emailCodes;
  await dbOf(s)
    .update(codes)
    .set({ expiresAt: Date.now() - 1 })
    .where(and(eq(codes.userID, userID), purpose ? eq(codes.purpose, purpose) : undefined));
}

/** Renames a song in its table, behind the seed loader (the only writer of songs): what a hand edit or another process would do. */
export async function renameSong(s: Store, game: string, songID: number, title: string): Promise<void> {
  await dbOf(s)
    .update(schema.songs)
    .set({ title })
    .where(and(eq(schema.songs.game, game), eq(schema.songs.id, songID)));
}

/** A song without charts, inserted straight into the table (the seed loader refuses one). Returns its removal. */
export async function storeChartlessSong(s: Store, game: string, songID: number, title: string): Promise<() => Promise<void>> {
  await dbOf(s)
    .insert(schema.songs)
    .values({
      game,
      id: songID,
      title,
      artist: 'Nobody',
      altTitles: [],
      searchTerms: [],
      data: {},
      matchTitles: [title.toLowerCase()],
      searchText: title,
      seedHash: 'test',
    });
  return async () => {
    await dbOf(s)
      .delete(schema.songs)
      .where(and(eq(schema.songs.game, game), eq(schema.songs.id, songID)));
  };
}

/** A CLEAR 9,000,000 PB straight into the table, unranked (rank the chart afterwards, as imports would). */
export async function storePb(s: Store, pb: { userID: number; chartID: string; game: string; playtype: string; songID: number }): Promise<void> {
  await dbOf(s)
    .insert(schema.personalBests)
    .values({
      ...pb,
      isPrimary: true,
      score: 9_000_000,
      percent: 90,
      lampIndex: 1,
      gradeIndex: 4,
      scoreData: { score: 9_000_000, percent: 90, lamp: 'CLEAR', lampIndex: 1, grade: 'A+', gradeIndex: 4, judgements: {}, optional: {} },
      calculatedData: {},
      composedFrom: [],
      timeAchieved: null,
    });
}

/** Makes the OAuth2 code of this hash expired, as time passing would. */
export async function expireOauthCode(s: Store, codeHash: string): Promise<void> {
  await dbOf(s)
    .update(schema.oauthCodes)
    .set({ expiresAt: Date.now() - 1 })
    .where(eq(schema.oauthCodes.codeHash, codeHash));
}

/** Deletes the API client behind the app's back (as a concurrent DELETE would). */
export async function removeApiClient(s: Store, clientID: string): Promise<void> {
  await dbOf(s).delete(schema.apiClients).where(eq(schema.apiClients.clientID, clientID));
}

/** Drops the client's encrypted secret, as a client made before secrets were stored encrypted has none. */
export async function forgetEncryptedClientSecret(s: Store, clientID: string): Promise<void> {
  await dbOf(s).update(schema.apiClients).set({ clientSecretEncrypted: null }).where(eq(schema.apiClients.clientID, clientID));
}

/** Replaces the client's encrypted secret with this value (one made with a key the app does not have, say). */
export async function setEncryptedClientSecret(s: Store, clientID: string, value: string): Promise<void> {
  await dbOf(s).update(schema.apiClients).set({ clientSecretEncrypted: value }).where(eq(schema.apiClients.clientID, clientID));
}

/** Notifications straight into the table, with chosen send times (the service stamps them with now). */
export async function storeNotifications(
  s: Store,
  rows: { notifID: string; sentTo: number; title: string; body: { type: string; content: unknown }; sentAt: number }[],
): Promise<void> {
  await dbOf(s)
    .insert(schema.notifications)
    .values(rows as (typeof schema.notifications.$inferInsert)[]);
}

/** Scrambles every stored rank (7, with no ranking key) and every chart's player count (1), as a bad migration would. */
export async function scrambleStoredRanks(s: Store): Promise<void> {
  await dbOf(s).update(schema.personalBests).set({ rank: 7, rankOrder: 0 });
  await dbOf(s).update(schema.chartRankings).set({ players: 1 });
}

/** Removes every profile rating of the user (index rows and the profile's ratings): a profile without a value under any algorithm. */
export async function clearProfileRatings(s: Store, userID: number): Promise<void> {
  await dbOf(s).delete(schema.profileRatings).where(eq(schema.profileRatings.userID, userID));
  await dbOf(s).update(schema.userGameStats).set({ ratings: {} }).where(eq(schema.userGameStats.userID, userID));
}

type WithoutSeedHash<T> = Omit<T, 'seedHash'> & { seedHash?: string };

/** Goals straight into the table (as if seeded; seedHash '' unless given). */
export async function storeGoals(s: Store, rows: WithoutSeedHash<typeof schema.goals.$inferInsert>[]): Promise<void> {
  await dbOf(s)
    .insert(schema.goals)
    .values(rows.map((r) => ({ seedHash: '', ...r })));
}

/** Quests straight into the table (as if seeded). */
export async function storeQuests(s: Store, rows: WithoutSeedHash<typeof schema.quests.$inferInsert>[]): Promise<void> {
  await dbOf(s)
    .insert(schema.quests)
    .values(rows.map((r) => ({ seedHash: '', ...r })));
}

/** Questlines straight into the table (as if seeded). */
export async function storeQuestlines(s: Store, rows: WithoutSeedHash<typeof schema.questlines.$inferInsert>[]): Promise<void> {
  await dbOf(s)
    .insert(schema.questlines)
    .values(rows.map((r) => ({ seedHash: '', ...r })));
}

/** Goal subscriptions straight into the table (many at once, past what subscribing one by one would take). */
export async function storeGoalSubs(s: Store, rows: (typeof schema.goalSubs.$inferInsert)[]): Promise<void> {
  await dbOf(s).insert(schema.goalSubs).values(rows);
}

/** Quest subscriptions straight into the table. */
export async function storeQuestSubs(s: Store, rows: (typeof schema.questSubs.$inferInsert)[]): Promise<void> {
  await dbOf(s).insert(schema.questSubs).values(rows);
}

/** A webhook delivery straight into its table, as another process (or the CLI) leaves one pending. */
export async function storeWebhookDelivery(s: Store, row: typeof schema.webhookDeliveries.$inferInsert): Promise<void> {
  await dbOf(s).insert(schema.webhookDeliveries).values(row);
}

/** Makes every new webhook delivery row fail to insert (a CHECK that nothing passes), as a process that died before storing them. Returns its removal. */
export async function refuseWebhookDeliveries(s: Store): Promise<() => Promise<void>> {
  const table = sql.raw(`"${getTableName(schema.webhookDeliveries)}"`);
  const db = dbOf(s);
  await db.execute(sql`ALTER TABLE ${table} ADD CONSTRAINT test_refuse_deliveries CHECK (false) NOT VALID`);
  return async () => {
    await db.execute(sql`ALTER TABLE ${table} DROP CONSTRAINT test_refuse_deliveries`);
  };
}

/**
 * Makes every transaction that inserts a score fail at its COMMIT (a deferred constraint trigger
 * that raises), after everything in it ran: as a database that fails the commit. Returns its removal.
 */
export async function refuseCommitsWritingScores(s: Store): Promise<() => Promise<void>> {
  const table = sql.raw(`"${getTableName(schema.scores)}"`);
  const db = dbOf(s);
  await db.execute(
    sql`CREATE FUNCTION test_refuse_commit() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'test: the commit is refused'; END $$`,
  );
  await db.execute(
    sql`CREATE CONSTRAINT TRIGGER test_refuse_commit AFTER INSERT ON ${table} DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION test_refuse_commit()`,
  );
  return async () => {
    await db.execute(sql`DROP TRIGGER test_refuse_commit ON ${table}`);
    await db.execute(sql`DROP FUNCTION test_refuse_commit()`);
  };
}

/** Adds a CHECK on folders that refuses this title (the seed checks pass it: only the write fails). Returns its removal. */
export async function forbidFolderTitle(s: Store, title: string): Promise<() => Promise<void>> {
  const table = sql.raw(`"${getTableName(schema.folders)}"`);
  const db = dbOf(s);
  await db.execute(sql`ALTER TABLE ${table} ADD CONSTRAINT test_forbidden_folder_title CHECK (title <> ${sql.raw(`'${title.replaceAll("'", "''")}'`)})`);
  return async () => {
    await db.execute(sql`ALTER TABLE ${table} DROP CONSTRAINT test_forbidden_folder_title`);
  };
}

type SnapshotRow = typeof schema.gameStatsSnapshots.$inferInsert;

/** Daily snapshots straight into the table; `ranking` may be null only after allowUnrankedSnapshots (as before migration 0009). */
export async function storeSnapshots(s: Store, rows: (Omit<SnapshotRow, 'ranking'> & { ranking: number | null })[]): Promise<void> {
  await dbOf(s)
    .insert(schema.gameStatsSnapshots)
    .values(rows as SnapshotRow[]);
}

const snapshotsTable = () => sql.raw(`"${getTableName(schema.gameStatsSnapshots)}"`);

/** Lets a snapshot have no ranking, as the table was before migration 0009 (which makes it NOT NULL). */
export async function allowUnrankedSnapshots(s: Store): Promise<void> {
  await dbOf(s).execute(sql`ALTER TABLE ${snapshotsTable()} ALTER COLUMN ranking DROP NOT NULL`);
}

/** Sets the ranking of the user's snapshots (null to test the NOT NULL constraint): rejects when the database refuses. */
export async function setSnapshotRanking(s: Store, userID: number, ranking: number | null): Promise<void> {
  await dbOf(s).execute(sql`UPDATE ${snapshotsTable()} SET ranking = ${ranking} WHERE user_id = ${userID}`);
}

/** Runs SQL statements as they are written (a migration file's, split at its breakpoints). */
export async function runStatements(s: Store, statements: string[]): Promise<void> {
  for (const statement of statements) await dbOf(s).execute(sql.raw(statement));
}

/** Sets the users' lastSeen (as their requests would have, that long ago). */
export async function setLastSeen(s: Store, userIDs: number[], lastSeen: number): Promise<void> {
  await dbOf(s).update(schema.users).set({ lastSeen }).where(inArray(schema.users.id, userIDs));
}

/**
 * Profiles (game stats) straight into the table, with the profile_ratings row the service keeps
 * beside each numeric rating, so the leaderboards count them as imports would have.
 */
export async function storeProfiles(
  s: Store,
  rows: { userID: number; game: string; playtype: string; ratings: Record<string, number | null>; classes?: Record<string, string> }[],
): Promise<void> {
  await dbOf(s)
    .insert(schema.userGameStats)
    .values(rows.map((r) => ({ classes: {}, lastUpdated: Date.now(), ...r })));
  const ratings = rows.flatMap((r) =>
    Object.entries(r.ratings)
      .filter((e): e is [string, number] => typeof e[1] === 'number')
      .map(([alg, value]) => ({ userID: r.userID, game: r.game, playtype: r.playtype, alg, value })),
  );
  if (ratings.length) await dbOf(s).insert(schema.profileRatings).values(ratings);
}

/** Sets when the user joined and their badges (the invite allowance counts both; no route sets them). */
export async function setJoinDateAndBadges(s: Store, userID: number, joinDate: number, badges: string[] = []): Promise<void> {
  await dbOf(s).update(schema.users).set({ joinDate, badges }).where(eq(schema.users.id, userID));
}

/** Moves the user's last username change to `at` (as if they had renamed themselves then). */
export async function setUsernameChangedAt(s: Store, userID: number, at: number | null): Promise<void> {
  await dbOf(s).update(schema.userCredentials).set({ usernameChangedAt: at }).where(eq(schema.userCredentials.userID, userID));
}
