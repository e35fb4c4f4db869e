import { and, asc, count, eq, getTableColumns, getTableName, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { queryRows, type Database } from '../../src/database/database.js';
import * as schema from '../../src/database/schema.js';
import type { ImportDocument } from '../../src/presenters/import.presenter.js';
import type { PbDocument } from '../../src/presenters/pb.presenter.js';
import type { ScoreDocument } from '../../src/presenters/score.presenter.js';
import type { SessionDocument } from '../../src/presenters/session.presenter.js';
import type { GoalSubDocument, QuestSubDocument } from '../../src/presenters/targets.presenter.js';
import type { TestApp } from './app.js';

/**
 * What the service stored, in words that do not change with the schema.
 *
 * Readers of state a route shows go through that route (score, PB, session, import, profile and
 * goal documents), so a test asserts what a client sees. State no route shows (orphans, import
 * rows and locks, row counts, stored ranks, catalog rows, secrets at rest) is read here from the
 * tables: this file and db-fixtures.ts (the rows a test must write) are the only places of
 * test/support and test/e2e that know the schema; e2e files import neither it nor drizzle-orm.
 */

/** The app (for the readers through the API). */
export type Api = Pick<TestApp, 'http'>;
/** A database, or anything holding one (a TestApp). */
export type Store = Database | { database: Database };

/** The Drizzle handle of a store (for db-fixtures.ts). */
export const dbOf = (s: Store) => ('db' in s ? s : s.database).db;

async function getJson<T>(t: Api, url: string): Promise<T | undefined> {
  const res = await t.http().get(url);
  if (res.status === 404) return undefined;
  if (res.status !== 200) throw new Error(`GET ${url}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as T;
}

// ---------------------------------------------------------------------------------------------
// Through the API

export interface GameStats {
  userID: number;
  game: string;
  playtype: string;
  ratings: Record<string, number | null>;
  classes: Record<string, string>;
}

/** Every profile (GPT) of the user, from GET /users/:userID/game-stats. */
export async function storedProfiles(t: Api, userID: number): Promise<GameStats[]> {
  return (await getJson<GameStats[]>(t, `/api/v1/users/${userID}/game-stats`)) ?? [];
}

/** The user's profile on a GPT (ratings and classes), or undefined when they have none. */
export async function storedGameStats(t: Api, userID: number, game: string, playtype: string): Promise<GameStats | undefined> {
  return (await storedProfiles(t, userID)).find((s) => s.game === game && s.playtype === playtype);
}

const ugpt = (userID: number, s: { game: string; playtype: string }) => `/api/v1/users/${userID}/games/${s.game}/${s.playtype}`;
/** Earlier times first, untimed scores last; ties by id. */
const byTime = (a: { timeAchieved: number | null; id: string }, b: { timeAchieved: number | null; id: string }) =>
  (a.timeAchieved ?? Infinity) - (b.timeAchieved ?? Infinity) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * Every score of the user as the API serves it (the scores/recent of each of their profiles),
 * earliest first, untimed last, ties by scoreID. A profile of more than 100 scores is more than
 * the route lists: count those with countRows.
 */
export async function storedScores(t: Api, userID: number): Promise<ScoreDocument[]> {
  const all: ScoreDocument[] = [];
  for (const profile of await storedProfiles(t, userID)) {
    const recent = await getJson<{ scores: ScoreDocument[] }>(t, `${ugpt(userID, profile)}/scores/recent`);
    const scores = recent?.scores ?? [];
    if (scores.length >= 100) throw new Error(`user ${userID} has 100 or more ${profile.game} ${profile.playtype} scores: more than scores/recent lists`);
    all.push(...scores);
  }
  return all.sort((a, b) => byTime({ timeAchieved: a.timeAchieved, id: a.scoreID }, { timeAchieved: b.timeAchieved, id: b.scoreID }));
}

/** The score as stored, whatever the API profile: to compare a document of another profile (Tachi's) with what is stored. */
export async function storedScoreRecord(s: Store, scoreID: string) {
  const [row] = await dbOf(s).select().from(schema.scores).where(eq(schema.scores.scoreID, scoreID));
  return row;
}

/** The score document of GET /scores/:scoreID, or undefined when there is no such score. */
export async function storedScore(t: Api, scoreID: string): Promise<ScoreDocument | undefined> {
  return (await getJson<{ score: ScoreDocument }>(t, `/api/v1/scores/${scoreID}`))?.score;
}

/** The user's PB on the chart (GET …/pbs/:chartID of the profile that has it), or undefined. */
export async function storedPb(t: Api, userID: number, chartID: string): Promise<PbDocument | undefined> {
  for (const profile of await storedProfiles(t, userID)) {
    const found = await getJson<{ pb: PbDocument }>(t, `${ugpt(userID, profile)}/pbs/${chartID}`);
    if (found) return found.pb;
  }
  return undefined;
}

/** Every PB of the user (the pbs/all of each of their profiles). */
export async function storedUserPbs(t: Api, userID: number): Promise<PbDocument[]> {
  const all: PbDocument[] = [];
  for (const profile of await storedProfiles(t, userID))
    all.push(...((await getJson<{ pbs: PbDocument[] }>(t, `${ugpt(userID, profile)}/pbs/all`))?.pbs ?? []));
  return all;
}

/** Every session of the user (the sessions/recent of each profile), earliest started first. */
export async function storedSessions(t: Api, userID: number): Promise<SessionDocument[]> {
  const all: SessionDocument[] = [];
  for (const profile of await storedProfiles(t, userID)) {
    const recent = (await getJson<SessionDocument[]>(t, `${ugpt(userID, profile)}/sessions/recent`)) ?? [];
    if (recent.length >= 100) throw new Error(`user ${userID} has 100 or more ${profile.game} ${profile.playtype} sessions: more than sessions/recent lists`);
    all.push(...recent);
  }
  return all.sort((a, b) => a.timeStarted - b.timeStarted || (a.sessionID < b.sessionID ? -1 : 1));
}

/** A session document (GET /sessions/:sessionID: its session), or undefined. */
export async function storedSession(t: Api, sessionID: string): Promise<SessionDocument | undefined> {
  return (await getJson<{ session: SessionDocument }>(t, `/api/v1/sessions/${sessionID}`))?.session;
}

/** A completed import's document (GET /imports/:importID), or undefined when there is none. */
export async function storedImport(t: Api, importID: string): Promise<ImportDocument | undefined> {
  return (await getJson<{ import: ImportDocument }>(t, `/api/v1/imports/${importID}`))?.import;
}

/** The scores a completed import stored that still exist (GET /imports/:importID: its scores). */
export async function storedScoresOfImport(t: Api, importID: string): Promise<ScoreDocument[]> {
  return (await getJson<{ scores: ScoreDocument[] }>(t, `/api/v1/imports/${importID}`))?.scores ?? [];
}

// ---------------------------------------------------------------------------------------------
// From the tables: state no route shows

/** The tables countRows knows, by the name a test uses. */
const TABLES = {
  users: schema.users,
  scores: schema.scores,
  pbs: schema.personalBests,
  sessions: schema.sessions,
  imports: schema.imports,
  importInputs: schema.importInputs,
  importLocks: schema.importLocks,
  orphans: schema.orphanScores,
  orphanChartQueue: schema.orphanChartQueue,
  profiles: schema.userGameStats,
  songs: schema.songs,
  charts: schema.charts,
  folders: schema.folders,
  folderCharts: schema.folderCharts,
  tables: schema.gameTables,
  bmsCourses: schema.bmsCourses,
  goals: schema.goals,
  quests: schema.quests,
  questlines: schema.questlines,
  goalSubs: schema.goalSubs,
  questSubs: schema.questSubs,
  notifications: schema.notifications,
  emailCodes: schema.emailCodes,
  oauthCodes: schema.oauthCodes,
  apiKeys: schema.apiKeys,
  apiClients: schema.apiClients,
  webhookDeliveries: schema.webhookDeliveries,
} satisfies Record<string, PgTable>;
export type TableName = keyof typeof TABLES;

/** Equality conditions on the table's columns, by their TypeScript names (userID, importID, …). */
function whereOf(table: PgTable, where: Record<string, unknown>): SQL | undefined {
  const columns = table as unknown as Record<string, PgColumn | undefined>;
  const conditions = Object.entries(where)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => {
      const column = columns[name];
      if (!column) throw new Error(`no column ${name}`);
      return eq(column, value);
    });
  return conditions.length ? and(...conditions) : undefined;
}

/** How many rows of the table match every `where` equality (all rows without one). */
export async function countRows(s: Store, table: TableName, where: Record<string, unknown> = {}): Promise<number> {
  const t = TABLES[table];
  const [row] = await dbOf(s).select({ n: count() }).from(t).where(whereOf(t, where));
  return row.n;
}

/** The user's row as stored (authLevel and the rest), found by id or lowercase username, or undefined. */
export async function storedUser(s: Store, where: { id: number } | { usernameLowercase: string }) {
  const [row] = await dbOf(s).select().from(schema.users).where(whereOf(schema.users, where));
  return row;
}

/** When the planner statistics of the table were last refreshed by ANALYZE (Unix ms), or null: never. */
export async function lastAnalyzed(s: Store, table: TableName): Promise<number | null> {
  const name = getTableName(TABLES[table]);
  const [row] = await queryRows<{ last_analyze: string | null }>(dbOf(s), sql`SELECT last_analyze FROM pg_stat_user_tables WHERE relname = ${name}`);
  return row.last_analyze === null ? null : new Date(row.last_analyze).getTime();
}

/**
 * Every table (and column) that still holds a row of the user: any table with a userID column,
 * users by id, invites by consumedBy, and the login sessions naming the user (the admin audit
 * log, which keeps who did what, aside). Empty once the account is gone.
 */
export async function rowsHeldBy(s: Store, userID: number): Promise<string[]> {
  const found: string[] = [];
  for (const [name, table] of Object.entries(schema)) {
    if (typeof table !== 'object' || table === null || !('getSQL' in table) || table === schema.adminAuditLog) continue;
    const columns = getTableColumns(table as PgTable) as Record<string, PgColumn>;
    for (const column of ['userID', 'id', 'consumedBy'].filter((c) => c in columns && (c !== 'id' || table === schema.users))) {
      const rows = await dbOf(s)
        .select()
        .from(table as PgTable)
        .where(eq(columns[column], userID));
      if (rows.length) found.push(`${name}.${column}`);
    }
  }
  const logins = await dbOf(s)
    .select()
    .from(schema.loginSessions)
    .where(sql`${schema.loginSessions.sess} ->> 'userID' = ${String(userID)}`);
  if (logins.length) found.push('loginSessions');
  return found;
}

/** The user's orphaned scores (kept for a chart that did not exist yet): game, playtype, data, context, in the order they came. */
export async function storedOrphans(s: Store, userID: number) {
  const o = schema.orphanScores;
  return dbOf(s).select().from(o).where(eq(o.userID, userID)).orderBy(asc(o.timeInserted), asc(o.orphanID));
}

/** An import's own row, whatever its status (queued, ongoing, completed, failed), or undefined. */
export async function importRow(s: Store, importID: string) {
  const [row] = await dbOf(s).select().from(schema.imports).where(eq(schema.imports.importID, importID));
  return row;
}

/** Every import of the user, in any status, in the order they were queued. */
export async function importRows(s: Store, where: { userID?: number; importType?: string; status?: string } = {}) {
  return dbOf(s).select().from(schema.imports).where(whereOf(schema.imports, where)).orderBy(asc(schema.imports.timeQueued), asc(schema.imports.importID));
}

/** The state of the user's last successful sync of an api/ import type (its cursor, importID and syncedAt), or undefined before the first. */
export async function storedSyncState(s: Store, userID: number, importType: string) {
  const t = schema.fromApiSyncState;
  const [row] = await dbOf(s)
    .select()
    .from(t)
    .where(and(eq(t.userID, userID), eq(t.importType, importType)));
  return row;
}

/** The user's import lock (held while an import writes their scores), or undefined. */
export async function importLock(s: Store, userID: number) {
  const [row] = await dbOf(s).select().from(schema.importLocks).where(eq(schema.importLocks.userID, userID));
  return row;
}

/** The catalog's version, raised by every change to songs or charts (a seed load, a chart a hook created). */
export async function catalogVersion(s: Store): Promise<number> {
  const [row] = await dbOf(s).select().from(schema.catalogState);
  return row.version;
}

/** The user's class achievements (a raise of a class: set, old and new value), in the order they were achieved. */
export async function classAchievements(s: Store, userID: number) {
  return dbOf(s).select().from(schema.classAchievements).where(eq(schema.classAchievements.userID, userID)).orderBy(asc(schema.classAchievements.id));
}

/** The mailed codes (their hashes) of verify-email and reset-password, with their owner, purpose and times. */
export async function storedEmailCodes(s: Store, where: { userID?: number; purpose?: 'verify-email' | 'reset-password' } = {}) {
  return dbOf(s).select().from(schema.emailCodes).where(whereOf(schema.emailCodes, where));
}

/** Whether the user verified their email address (a private credential no route shows). */
export async function emailVerified(s: Store, userID: number): Promise<boolean> {
  const [row] = await dbOf(s).select({ v: schema.userCredentials.emailVerified }).from(schema.userCredentials).where(eq(schema.userCredentials.userID, userID));
  return row.v;
}

/** An invite code's row: who consumed it, and when. */
export async function storedInvite(s: Store, code: string) {
  const [row] = await dbOf(s).select().from(schema.invites).where(eq(schema.invites.code, code));
  return row;
}

// ---------------------------------------------------------------------------------------------
// Chart ranks as stored (the lazy ranking's own bookkeeping, which readers hide)

/** The chart's PBs as [userID, stored rank], best stored rank first (readers count a dirty chart's ranks live instead). */
export async function storedRanks(s: Store, chartID: string): Promise<[number, number][]> {
  const pbs = schema.personalBests;
  const rows = await dbOf(s).select({ userID: pbs.userID, rank: pbs.rank }).from(pbs).where(eq(pbs.chartID, chartID));
  return rows.map((r): [number, number] => [r.userID, r.rank]).sort((x, y) => x[1] - y[1]);
}

/** Every PB as [userID, chartID, stored rank, its chart's player count], by chart, rank and user. */
export async function storedRankTable(s: Store): Promise<[number, string, number, number | null][]> {
  const pbs = schema.personalBests;
  const ranking = schema.chartRankings;
  const rows = await dbOf(s)
    .select({ userID: pbs.userID, chartID: pbs.chartID, rank: pbs.rank, outOf: ranking.players })
    .from(pbs)
    .leftJoin(ranking, eq(ranking.chartID, pbs.chartID))
    .orderBy(asc(pbs.chartID), asc(pbs.rank), asc(pbs.userID));
  return rows.map((r): [number, string, number, number | null] => [r.userID, r.chartID, r.rank, r.outOf]);
}

/** The chart's ranking bookkeeping: its player count and since when its stored ranks are stale (null: exact); undefined before any PB. */
export async function chartRanking(s: Store, chartID: string) {
  const [row] = await dbOf(s).select().from(schema.chartRankings).where(eq(schema.chartRankings.chartID, chartID));
  return row;
}

/**
 * Every PB row of the chart with its system columns, by user: xmin moves with any write of the
 * row, xmax with a row lock; `row` is the whole row as JSON.
 */
export async function pbRowVersions(s: Store, chartID: string) {
  const table = sql.raw(`"${getTableName(schema.personalBests)}"`);
  return queryRows<{ user_id: number; xmin: string; xmax: string; row: string }>(
    dbOf(s),
    sql`SELECT user_id, xmin::text AS xmin, xmax::text AS xmax, row_to_json(p)::text AS row FROM ${table} p WHERE chart_id = ${chartID} ORDER BY user_id`,
  );
}

// ---------------------------------------------------------------------------------------------
// Secrets at rest (what is stored of codes, tokens and client secrets)

/** The stored OAuth2 codes (only their hashes), optionally the one of this hash. */
export async function storedOauthCodes(s: Store, where: { codeHash?: string } = {}) {
  return dbOf(s).select().from(schema.oauthCodes).where(whereOf(schema.oauthCodes, where));
}

/** The stored API key of this token hash (only the hash is stored), or undefined. */
export async function storedApiKey(s: Store, tokenHash: string) {
  const [row] = await dbOf(s).select().from(schema.apiKeys).where(eq(schema.apiKeys.tokenHash, tokenHash));
  return row;
}

/** The API client's stored row (its secret only as a hash), or undefined. */
export async function storedApiClient(s: Store, clientID: string) {
  const [row] = await dbOf(s).select().from(schema.apiClients).where(eq(schema.apiClients.clientID, clientID));
  return row;
}

/** Every row of the API clients table, every column, as a dump of the database would hold them. */
export async function storedApiClientsTable(s: Store) {
  return dbOf(s).select().from(schema.apiClients);
}

// ---------------------------------------------------------------------------------------------
// Rating indexes (the per-algorithm rows that leaderboards read, beside the documents)

/** The user's profile ratings as indexed for the GPT leaderboards: game, playtype, alg, value. */
export async function storedProfileRatings(s: Store, userID: number) {
  return dbOf(s).select().from(schema.profileRatings).where(eq(schema.profileRatings.userID, userID));
}

/** The ratings of the user's PB on the chart as indexed for the best-PB lists: [{alg, value}]. */
export async function storedPbRatings(s: Store, userID: number, chartID: string) {
  const r = schema.pbRatings;
  return dbOf(s)
    .select({ alg: r.alg, value: r.value })
    .from(r)
    .where(and(eq(r.userID, userID), eq(r.chartID, chartID)));
}

// ---------------------------------------------------------------------------------------------
// Targets

const ugptTargets = (userID: number, game: string, playtype: string) => `/api/v1/users/${userID}/games/${game}/${playtype}/targets`;

/** The user's subscription to the goal (GET …/targets/goals/:goalID: its goalSub), or undefined when they have none. */
export async function storedGoalSub(t: Api, userID: number, goalID: string, gpt = { game: 'sdvx', playtype: 'Single' }) {
  return (await getJson<{ goalSub: GoalSubDocument }>(t, `${ugptTargets(userID, gpt.game, gpt.playtype)}/goals/${goalID}`))?.goalSub;
}

/** The user's subscription to the quest (GET …/targets/quests/:questID: its questSub), or undefined when they have none. */
export async function storedQuestSub(t: Api, userID: number, questID: string, gpt = { game: 'sdvx', playtype: 'Single' }) {
  return (await getJson<{ questSub: QuestSubDocument }>(t, `${ugptTargets(userID, gpt.game, gpt.playtype)}/quests/${questID}`))?.questSub;
}

// ---------------------------------------------------------------------------------------------
// The catalog as the seed loader wrote it (match keys, links and rows no route serves whole)

const CATALOG = {
  songs: { table: schema.songs, order: [schema.songs.game, schema.songs.id] },
  charts: { table: schema.charts, order: [schema.charts.chartID] },
  folders: { table: schema.folders, order: [schema.folders.folderID] },
  tables: { table: schema.gameTables, order: [schema.gameTables.tableID] },
  goals: { table: schema.goals, order: [schema.goals.goalID] },
  quests: { table: schema.quests, order: [schema.quests.questID] },
  questlines: { table: schema.questlines, order: [schema.questlines.questlineID] },
  bmsCourses: { table: schema.bmsCourses, order: [schema.bmsCourses.value, schema.bmsCourses.md5sums] },
};
type CatalogRows = {
  [K in keyof typeof CATALOG]: (typeof CATALOG)[K]['table']['$inferSelect'];
};

/** The stored rows of a catalog collection (match keys included) matching every `where` equality, in key order (songs by game and id). */
export async function catalogRows<K extends keyof typeof CATALOG>(s: Store, collection: K, where: Record<string, unknown> = {}): Promise<CatalogRows[K][]> {
  const { table, order } = CATALOG[collection];
  const rows = await dbOf(s)
    .select()
    .from(table as PgTable)
    .where(whereOf(table, where))
    .orderBy(...order.map((c) => asc(c)));
  return rows as CatalogRows[K][];
}

/** Every folder's charts, by folderID, each list sorted. */
export async function folderContents(s: Store): Promise<Record<string, string[]>> {
  const links = schema.folderCharts;
  const rows = await dbOf(s).select().from(links).orderBy(asc(links.folderID), asc(links.chartID));
  const out: Record<string, string[]> = {};
  for (const r of rows) (out[r.folderID] ??= []).push(r.chartID);
  return out;
}

/** The games that have songs, charts, folders or tables stored, sorted. */
export async function catalogGames(s: Store): Promise<string[]> {
  const games = new Set<string>();
  for (const table of [schema.songs, schema.charts, schema.folders, schema.gameTables])
    for (const row of await dbOf(s).selectDistinct({ game: table.game }).from(table)) games.add(row.game);
  return [...games].sort();
}

// ---------------------------------------------------------------------------------------------
// Daily snapshots

/**
 * The stored daily snapshots of profiles (the history route serves one user's, without the
 * place under every algorithm), by time, game and user: those matching every `where` equality,
 * and taken at `since` or later when given.
 */
export async function storedSnapshots(s: Store, where: { timestamp?: number; userID?: number; game?: string } = {}, options: { since?: number } = {}) {
  const t = schema.gameStatsSnapshots;
  const since = options.since === undefined ? undefined : sql`${t.timestamp} >= ${options.since}`;
  return dbOf(s)
    .select()
    .from(t)
    .where(and(whereOf(t, where), since))
    .orderBy(asc(t.timestamp), asc(t.game), asc(t.userID));
}
