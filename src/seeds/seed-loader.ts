import { Injectable } from '@nestjs/common';
import { eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import { Database, type Tx } from '../database/database.js';
import { bmsCourses, catalogState, charts, folderCharts, folders, gameTables, goals, questlines, quests, songs } from '../database/schema.js';
import { findGame, findGpt, GAMES } from '../game-support/registry.js';
import type { GameSupport } from '../game-support/types.js';
import { anyOf, upsertRows } from '../database/bulk-write.js';
import { syncChartPrimaryFlags } from '../scoring/chart-primary-sync.js';
import { resolveFolders } from './folder-resolver.js';
import { questsChanged } from '../scoring/targets/quest-changes.js';
import { reevaluateFolderGoals } from '../scoring/targets/target-progress.writer.js';
import { computeFolderID, computeGoalID, seedHash } from '../common/canonical-json.js';
import { assertValidFilter, decodeFilter, FilterError } from './mongo-filter.js';
import { SILENT_PROGRESS, type SeedProgress } from './progress.js';
import {
  bmsCourseRecord,
  chartRecord,
  describeZodError,
  findUnstorableText,
  folderRecord,
  goalRecord,
  questlineRecord,
  questRecord,
  songRecord,
  tableRecord,
  type BmsCourseRecord,
  type ChartRecord,
  type FolderRecord,
  type GoalRecord,
  type QuestlineRecord,
  type QuestRecord,
  type SongRecord,
  type TableRecord,
} from './seed-records.js';
import type { SeedSource } from './seed-source.js';

export interface SeedIssue {
  file: string;
  /** Position of the record in the file's array; null for a problem with the whole file. */
  index: number | null;
  message: string;
}

export interface CollectionSummary {
  file: string;
  records: number;
  inserted: number;
  updated: number;
  unchanged: number;
  rejected: number;
}

export interface SeedReport {
  source: string;
  games: string[];
  collections: CollectionSummary[];
  /** Records that were not loaded, with why. */
  rejected: SeedIssue[];
  /** Loaded, but worth knowing (e.g. an id that does not match its hash rule). */
  warnings: SeedIssue[];
  missingFiles: string[];
  /** GPTs whose folders were re-resolved, and the links written. */
  resolvedGpts: string[];
  folderLinks: number;
  changed: boolean;
}

export class SeedLoadError extends Error {}

interface Accepted<R> {
  record: R;
  index: number;
  hash: string;
}

interface Collection<R> {
  file: string;
  accepted: Accepted<R>[];
  rejected: number;
  records: number;
}

const KNOWN_FILTER_OPERATORS = new Set([
  '$eq',
  '$ne',
  '$gt',
  '$gte',
  '$lt',
  '$lte',
  '$in',
  '$nin',
  '$not',
  '$elemMatch',
  '$exists',
  '$size',
  '$all',
  '$and',
  '$or',
  '$nor',
]);

function unknownOperator(value: unknown): string | undefined {
  if (Array.isArray(value)) return value.map(unknownOperator).find(Boolean);
  if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k.startsWith('$') && !KNOWN_FILTER_OPERATORS.has(k)) return k;
      const inner = unknownOperator(v);
      if (inner) return inner;
    }
  }
  return undefined;
}

function hashValues(value: unknown): string[] {
  if (typeof value === 'string') return [value.toLowerCase()];
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string').map((v) => v.toLowerCase());
  return [];
}

/** A listed playtype of a supported game (a plain property lookup would also find "constructor"). */
function isSupportedGpt(game: string, playtype: string): boolean {
  return findGame(game)?.playtypes.includes(playtype) ?? false;
}

const INT32_MIN = -2_147_483_648;
const INT32_MAX = 2_147_483_647;

function inGameIDs(value: unknown): number[] {
  if (typeof value === 'number' && Number.isInteger(value)) return [value];
  if (Array.isArray(value)) return value.filter((v): v is number => typeof v === 'number' && Number.isInteger(v));
  return [];
}

export interface SeedLoadOptions {
  /** Only these games; default: every supported game. */
  games?: readonly string[];
  progress?: SeedProgress;
}

/**
 * Loads Tachi-format seed collections. Every record is validated; a bad one is reported with its
 * file and index and skipped, never failing the load. All accepted changes are written in one
 * transaction, with the folder→chart table re-resolved for every GPT whose charts, songs or
 * folders changed. Unchanged records (same content hash) are not written, so a second run with
 * the same seeds changes nothing and says so.
 */
@Injectable()
export class SeedLoader {
  constructor(private readonly database: Database) {}

  load(source: SeedSource, options: SeedLoadOptions = {}): Promise<SeedReport> {
    return new SeedLoad(this.database, options.progress ?? SILENT_PROGRESS).run(source, options);
  }
}

/** One load: its issues are its own, so loads never mix reports. */
class SeedLoad {
  private readonly rejected: SeedIssue[] = [];
  private readonly warnings: SeedIssue[] = [];
  private readonly missingFiles: string[] = [];

  constructor(
    private readonly database: Database,
    private readonly progress: SeedProgress,
  ) {}

  async run(source: SeedSource, options: SeedLoadOptions): Promise<SeedReport> {
    const unknown = (options.games ?? []).filter((g) => !findGame(g));
    if (unknown.length)
      throw new SeedLoadError(`Unknown game${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}. Supported: ${GAMES.map((g) => g.game).join(', ')}.`);
    await source.assertReachable();
    const games = options.games?.length ? GAMES.filter((g) => options.games!.includes(g.game)) : [...GAMES];
    // With --games, other games' records are out of scope; without it, a record of a game the registry lacks is reported.
    const selected = new Set(options.games?.length ? games.map((g) => g.game) : []);

    const songCollections = await Promise.all(games.map((g) => this.readSongs(source, g)));
    const chartCollections = await Promise.all(games.map((g) => this.readCharts(source, g)));
    const folderCollection = await this.readSimple(
      source,
      'folders.json',
      folderRecord,
      (r) => r.folderID,
      selected,
      (r, i) => this.checkFolder(r, i),
    );
    const goalCollection = await this.readSimple(
      source,
      'goals.json',
      goalRecord,
      (r) => r.goalID,
      selected,
      (r, i) => this.checkGoal(r, i),
    );
    const tableCollection = await this.readSimple(source, 'tables.json', tableRecord, (r) => r.tableID, selected);
    const questCollection = await this.readSimple(
      source,
      'quests.json',
      questRecord,
      (r) => r.questID,
      selected,
      (r) => this.checkQuest(r),
    );
    const questlineCollection = await this.readSimple(source, 'questlines.json', questlineRecord, (r) => r.questlineID, selected);
    const courseCollection = await this.readCourses(source, selected);

    await this.dropChartsOfOtherGames(games, chartCollections);
    const songIDs = await this.existingSongIDs(games, songCollections);
    chartCollections.forEach((c, i) => {
      const game = games[i].game;
      this.dropDangling([c], (chart) =>
        songIDs.get(game)?.has(chart.songID) ? undefined : `song ${chart.songID} does not exist in songs-${game}.json or the database`,
      );
    });
    const folderIDs = await this.knownIDs(
      folders,
      folders.folderID,
      folderCollection.accepted.map((a) => a.record.folderID),
    );
    this.dropDangling([tableCollection], (t) => {
      const missing = t.folders.filter((f) => !folderIDs.has(f));
      return missing.length
        ? `folder${missing.length > 1 ? 's' : ''} ${missing.slice(0, 3).join(', ')}${missing.length > 3 ? '…' : ''} do not exist`
        : undefined;
    });
    const goalIDs = await this.knownIDs(
      goals,
      goals.goalID,
      goalCollection.accepted.map((a) => a.record.goalID),
    );
    this.dropDangling([questCollection], (q) => {
      const missing = q.questData.flatMap((s) => s.goals.map((g) => g.goalID)).filter((g) => !goalIDs.has(g));
      return missing.length ? `goal${missing.length > 1 ? 's' : ''} ${missing.slice(0, 3).join(', ')} do not exist` : undefined;
    });
    const questIDs = await this.knownIDs(
      quests,
      quests.questID,
      questCollection.accepted.map((a) => a.record.questID),
    );
    this.dropDangling([questlineCollection], (ql) => {
      const missing = ql.quests.filter((q) => !questIDs.has(q));
      return missing.length ? `quest${missing.length > 1 ? 's' : ''} ${missing.slice(0, 3).join(', ')} do not exist` : undefined;
    });

    const plan = [
      ...songCollections.map((c, i) => this.planFor(c, songs, songs.id, songs.seedHash, (r) => String(r.id), eq(songs.game, games[i].game))),
      ...chartCollections.map((c, i) => this.planFor(c, charts, charts.chartID, charts.seedHash, (r) => r.chartID, eq(charts.game, games[i].game))),
      this.planFor(folderCollection, folders, folders.folderID, folders.seedHash, (r) => r.folderID),
      this.planFor(tableCollection, gameTables, gameTables.tableID, gameTables.seedHash, (r) => r.tableID),
      this.planFor(goalCollection, goals, goals.goalID, goals.seedHash, (r) => r.goalID),
      this.planFor(questCollection, quests, quests.questID, quests.seedHash, (r) => r.questID),
      this.planFor(questlineCollection, questlines, questlines.questlineID, questlines.seedHash, (r) => r.questlineID),
      this.planFor(courseCollection, bmsCourses, bmsCourses.md5sums, bmsCourses.seedHash, (r) => r.md5sums),
    ];
    const diffs = await Promise.all(plan);
    const [songDiffs, chartDiffs] = [diffs.slice(0, games.length), diffs.slice(games.length, 2 * games.length)];
    const [folderDiff, tableDiff, goalDiff, questDiff, questlineDiff, courseDiff] = diffs.slice(2 * games.length);

    const changedGpts = new Map<string, { game: string; playtype: string }>();
    const touch = (game: string, playtype: string) => changedGpts.set(`${game}:${playtype}`, { game, playtype });
    songDiffs.forEach((d, i) => {
      if (d.write.length) games[i].playtypes.forEach((p) => touch(games[i].game, p));
    });
    // a new chart touches its playtype; an updated one may have left another playtype's folders, so it touches them all
    chartDiffs.forEach((d, i) =>
      d.write.forEach((a) => (d.updates.has(a) ? games[i].playtypes : [(a.record as ChartRecord).playtype]).forEach((p) => touch(games[i].game, p))),
    );
    folderDiff.write.forEach((a) => touch((a.record as FolderRecord).game, (a.record as FolderRecord).playtype));

    const totalWrites = diffs.reduce((n, d) => n + d.write.length, 0);
    let folderLinks = 0;
    if (totalWrites > 0) {
      this.progress.phase('Writing records', totalWrites);
      const tick = (n: number) => this.progress.advance(n);
      folderLinks = await this.database.transaction(async (tx) => {
        for (const [i, d] of songDiffs.entries())
          await upsertRows(
            tx,
            songs,
            ['game', 'id'],
            d.write.map((a) => songRow(games[i].game, a.record as SongRecord, a.hash)),
            tick,
          );
        for (const [i, d] of chartDiffs.entries())
          await upsertRows(
            tx,
            charts,
            ['chart_id'],
            d.write.map((a) => chartRow(games[i].game, a.record as ChartRecord, a.hash)),
            tick,
          );
        await syncChartPrimaryFlags(
          tx,
          chartDiffs.flatMap((d) => d.write.map((a) => (a.record as ChartRecord).chartID)),
        );
        if ([...songDiffs, ...chartDiffs].some((d) => d.write.length)) await tx.update(catalogState).set({ version: sql`${catalogState.version} + 1` });
        await upsertRows(
          tx,
          folders,
          ['folder_id'],
          folderDiff.write.map((a) => folderRow(a.record as FolderRecord, a.hash)),
          tick,
        );
        await upsertRows(
          tx,
          gameTables,
          ['table_id'],
          tableDiff.write.map((a) => tableRow(a.record as TableRecord, a.hash)),
          tick,
        );
        await upsertRows(
          tx,
          goals,
          ['goal_id'],
          goalDiff.write.map((a) => goalRow(a.record as GoalRecord, a.hash)),
          tick,
        );
        await upsertRows(
          tx,
          quests,
          ['quest_id'],
          questDiff.write.map((a) => questRow(a.record as QuestRecord, a.hash)),
          tick,
        );
        await upsertRows(
          tx,
          questlines,
          ['questline_id'],
          questlineDiff.write.map((a) => questlineRow(a.record as QuestlineRecord, a.hash)),
          tick,
        );
        await upsertRows(
          tx,
          bmsCourses,
          ['md5sums'],
          courseDiff.write.map((a) => courseRow(a.record as BmsCourseRecord, a.hash)),
          tick,
        );
        this.progress.done();
        const links = await this.resolve(tx, [...changedGpts.values()]);
        // subscriptions follow: folder goals on re-resolved folders, and subscribers of changed quests
        await reevaluateFolderGoals(tx, [...changedGpts.values()]);
        await questsChanged(
          tx,
          questDiff.write.filter((a) => questDiff.updates.has(a)).map((a) => (a.record as QuestRecord).questID),
        );
        return links;
      });
      this.database.catalogChanged();
      // Fresh planner statistics for what was just written (the embedded engine has no autovacuum).
      await this.database.db.execute(
        sql`ANALYZE ${songs}, ${charts}, ${folders}, ${folderCharts}, ${gameTables}, ${goals}, ${quests}, ${questlines}, ${bmsCourses}`,
      );
    }

    const collections = diffs.map((d) => d.summary);
    return {
      source: source.location,
      games: games.map((g) => g.game),
      collections,
      rejected: [...this.rejected],
      warnings: [...this.warnings],
      missingFiles: [...this.missingFiles],
      resolvedGpts: totalWrites > 0 ? [...changedGpts.keys()] : [],
      folderLinks,
      changed: totalWrites > 0,
    };
  }

  private async resolve(tx: Tx, gpts: { game: string; playtype: string }[]): Promise<number> {
    if (gpts.length === 0) return 0;
    const total = (await tx.select({ id: folders.folderID, game: folders.game, playtype: folders.playtype }).from(folders)).filter((f) =>
      gpts.some((g) => g.game === f.game && g.playtype === f.playtype),
    ).length;
    this.progress.phase('Resolving folders', total);
    const links = await resolveFolders(tx, gpts, () => this.progress.advance());
    this.progress.done();
    return links;
  }

  private reject(file: string, index: number | null, message: string) {
    this.rejected.push({ file, index, message });
  }

  /** Reads and parses one collection file; undefined (recorded as missing) when it does not exist. */
  private async readArray(source: SeedSource, file: string): Promise<unknown[] | undefined> {
    const text = await source.read(file);
    if (text === undefined) {
      this.missingFiles.push(file);
      return undefined;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (err) {
      this.reject(file, null, `not valid JSON: ${(err as Error).message}`);
      return undefined;
    }
    if (!Array.isArray(parsed)) {
      this.reject(file, null, 'the file must hold a JSON array of records');
      return undefined;
    }
    return parsed;
  }

  private validate<R>(
    file: string,
    raw: unknown[],
    schema: z.ZodType<R>,
    key: (r: R) => string,
    extra?: (r: R, index: number) => string | undefined,
    keep: (r: R) => boolean = () => true,
  ): Collection<R> {
    const seen = new Set<string>();
    const collection: Collection<R> = { file, accepted: [], rejected: 0, records: 0 };
    this.progress.phase(`Validating ${file}`, raw.length);
    raw.forEach((item, index) => {
      this.progress.advance();
      const parsed = schema.safeParse(item);
      if (parsed.success && !keep(parsed.data)) return;
      collection.records++;
      let message: string | undefined;
      if (!parsed.success) message = describeZodError(parsed.error);
      else message = findUnstorableText(item) ?? (seen.has(key(parsed.data)) ? `duplicate id ${key(parsed.data)}` : extra?.(parsed.data, index));
      if (message !== undefined) {
        collection.rejected++;
        this.reject(file, index, message);
        return;
      }
      const record = parsed.data as R;
      seen.add(key(record));
      collection.accepted.push({ record, index, hash: seedHash(item) });
    });
    this.progress.done();
    return collection;
  }

  private async readSongs(source: SeedSource, game: GameSupport): Promise<Collection<SongRecord>> {
    const file = `songs-${game.game}.json`;
    const raw = (await this.readArray(source, file)) ?? [];
    return this.validate(file, raw, songRecord(game), (s) => String(s.id));
  }

  private async readCharts(source: SeedSource, game: GameSupport): Promise<Collection<ChartRecord>> {
    const file = `charts-${game.game}.json`;
    const raw = (await this.readArray(source, file)) ?? [];
    // (songID, playtype, difficulty, isPrimary) and the game's unique data fields (hashes), each to the first chart that has it
    const slots = new Map<string, string>();
    const keys = new Map<string, string>();
    return this.validate(
      file,
      raw,
      chartRecord(game),
      (c) => c.chartID,
      (c) => {
        const gpt = findGpt(game.game, c.playtype)!;
        if (gpt.difficulties.type === 'FIXED' && !gpt.difficulties.order.includes(c.difficulty)) {
          return `difficulty '${c.difficulty}' is not one of ${game.game} ${c.playtype}'s: ${gpt.difficulties.order.join(', ')}`;
        }
        const data = gpt.chartData.safeParse(c.data);
        if (!data.success) return `data.${describeZodError(data.error)}`;
        const outOfRange = inGameIDs(c.data.inGameID).find((n) => n < INT32_MIN || n > INT32_MAX);
        if (outOfRange !== undefined) return `data.inGameID: ${outOfRange} is outside the 32-bit integer range the database stores`;
        const slot = `${c.songID}|${c.playtype}|${c.difficulty}|${c.isPrimary}`;
        if (slots.has(slot))
          return `song ${c.songID} already has a${c.isPrimary ? ' primary' : ' non-primary'} ${c.playtype} ${c.difficulty} chart (${slots.get(slot)})`;
        const unique = (game.uniqueChartKeys ?? []).flatMap(({ field, perPlaytype }) =>
          hashValues(c.data[field]).map((value) => ({ field, value, key: `${field}|${perPlaytype ? c.playtype : ''}|${value}` })),
        );
        const taken = unique.find((u) => keys.has(u.key));
        if (taken) return `data.${taken.field} ${taken.value} is already the ${taken.field} of chart ${keys.get(taken.key)}`;
        slots.set(slot, c.chartID);
        for (const u of unique) keys.set(u.key, c.chartID);
        return undefined;
      },
    );
  }

  private async readSimple<R extends { game: string; playtype: string }>(
    source: SeedSource,
    file: string,
    schema: z.ZodType<R>,
    idOf: (r: R) => string,
    selected: ReadonlySet<string>,
    extra?: (r: R, index: number) => string | undefined,
  ): Promise<Collection<R>> {
    const raw = (await this.readArray(source, file)) ?? [];
    return this.validate(
      file,
      raw,
      schema,
      idOf,
      (r, index) => (isSupportedGpt(r.game, r.playtype) ? extra?.(r, index) : `unsupported game/playtype ${r.game}:${r.playtype}`),
      (r) => selected.size === 0 || selected.has(r.game),
    );
  }

  private checkFolder(folder: FolderRecord, index: number): string | undefined {
    if ((folder.type === 'static') !== Array.isArray(folder.data))
      return folder.type === 'static' ? 'a static folder needs an array of chartIDs' : `a ${folder.type} folder needs a filter object`;
    if (!Array.isArray(folder.data)) {
      const decoded = decodeFilter(folder.data);
      const op = unknownOperator(decoded);
      if (op) return `the filter uses ${op}, which is not supported`;
      try {
        assertValidFilter(decoded);
      } catch (err) {
        if (err instanceof FilterError) return `invalid filter: ${err.message}`;
        throw err;
      }
    }
    const expected = computeFolderID(folder);
    if (expected !== folder.folderID)
      this.warnings.push({ file: 'folders.json', index, message: `folderID ${folder.folderID} does not match its content (expected ${expected})` });
    return undefined;
  }

  private checkGoal(goal: GoalRecord, index: number): string | undefined {
    const expected = computeGoalID(goal);
    if (expected !== goal.goalID)
      this.warnings.push({ file: 'goals.json', index, message: `goalID ${goal.goalID} does not match its content (expected ${expected})` });
    return undefined;
  }

  private checkQuest(quest: QuestRecord): string | undefined {
    const refs = quest.questData.flatMap((s) => s.goals.map((g) => g.goalID));
    const dup = refs.find((g, i) => refs.indexOf(g) !== i);
    return dup ? `goal ${dup} is referenced twice` : undefined;
  }

  private async readCourses(source: SeedSource, selected: ReadonlySet<string>): Promise<Collection<BmsCourseRecord>> {
    const file = 'bms-course-lookup.json';
    const raw = selected.size === 0 || selected.has('bms') ? ((await this.readArray(source, file)) ?? []) : [];
    // one course per (set, playtype, value): the class a clear gives must name one course
    const courses = new Map<string, string>();
    return this.validate(
      file,
      raw,
      bmsCourseRecord,
      (c) => c.md5sums,
      (c) => {
        if (!isSupportedGpt('bms', c.playtype)) return `unsupported game/playtype bms:${c.playtype}`;
        const classes = findGpt('bms', c.playtype)!.classes;
        const set = Object.hasOwn(classes, c.set) ? classes[c.set] : undefined;
        if (!set) return `bms ${c.playtype} has no class set ${c.set}`;
        const valueID = typeof c.value === 'number' ? set.values[c.value]?.id : c.value;
        if (!valueID || !set.values.some((v) => v.id === valueID)) return `${c.set} has no value ${c.value}`;
        const key = `${c.set}|${c.playtype}|${valueID}`;
        if (courses.has(key)) return `duplicate course for ${c.playtype} ${c.set} ${valueID}: '${courses.get(key)}' already is`;
        courses.set(key, c.title);
        return undefined;
      },
    );
  }

  /**
   * A chartID is global: the same one in two games' files, or in one game's file while the database holds it as
   * another game's chart, would silently move the chart between games. The later file's record is rejected.
   */
  private async dropChartsOfOtherGames(games: readonly GameSupport[], collections: Collection<ChartRecord>[]) {
    const first = new Map<string, { file: string; index: number }>();
    for (const c of collections) {
      c.accepted = c.accepted.filter((a) => {
        const seen = first.get(a.record.chartID);
        if (seen === undefined) {
          first.set(a.record.chartID, { file: c.file, index: a.index });
          return true;
        }
        c.rejected++;
        this.reject(c.file, a.index, `duplicate id ${a.record.chartID}: already a chart in ${seen.file} (index ${seen.index})`);
        return false;
      });
    }
    if (first.size === 0) return;
    const stored = await this.database.db
      .select({ chartID: charts.chartID, game: charts.game })
      .from(charts)
      .where(anyOf(charts.chartID, [...first.keys()]));
    const gameOf = new Map(stored.map((r) => [r.chartID, r.game]));
    collections.forEach((c, i) =>
      this.dropDangling([c], (chart) => {
        const owner = gameOf.get(chart.chartID);
        return owner !== undefined && owner !== games[i].game ? `duplicate id ${chart.chartID}: the database already holds it as a ${owner} chart` : undefined;
      }),
    );
  }

  /** Song ids per game: those in the database plus those this load accepts. */
  private async existingSongIDs(games: readonly GameSupport[], collections: Collection<SongRecord>[]): Promise<Map<string, Set<number>>> {
    const ids = games.map((g) => g.game);
    const result = new Map(ids.map((g) => [g, new Set<number>()]));
    const rows = ids.length ? await this.database.db.select({ game: songs.game, id: songs.id }).from(songs).where(inArray(songs.game, ids)) : [];
    for (const r of rows) result.get(r.game)!.add(r.id);
    collections.forEach((c, i) => c.accepted.forEach((a) => result.get(ids[i])!.add(a.record.id)));
    return result;
  }

  private async knownIDs(table: PgTable, column: PgColumn, seeded: string[]): Promise<Set<string>> {
    const rows = await this.database.db.select({ id: column }).from(table);
    return new Set([...rows.map((r) => String(r.id)), ...seeded]);
  }

  /** Rejects accepted records whose references do not resolve. */
  private dropDangling<R>(collections: Collection<R>[], problem: (r: R) => string | undefined) {
    for (const c of collections) {
      c.accepted = c.accepted.filter((a) => {
        const message = problem(a.record);
        if (message === undefined) return true;
        c.rejected++;
        this.reject(c.file, a.index, message);
        return false;
      });
    }
  }

  /** Compares accepted records with the stored ones by content hash. */
  private async planFor<R>(
    collection: Collection<R>,
    table: PgTable,
    keyColumn: PgColumn,
    hashColumn: PgColumn,
    keyOf: (r: R) => string,
    scope?: SQL,
  ): Promise<{ write: Accepted<R>[]; updates: ReadonlySet<unknown>; summary: CollectionSummary }> {
    const stored = new Map<string, string>();
    if (collection.accepted.length) {
      const rows = await this.database.db.select({ key: keyColumn, hash: hashColumn }).from(table).where(scope);
      for (const row of rows) stored.set(String(row.key), String(row.hash));
    }
    const updates = new Set<Accepted<R>>();
    const write = collection.accepted.filter((a) => {
      const previous = stored.get(keyOf(a.record));
      if (previous === a.hash) return false;
      if (previous !== undefined) updates.add(a);
      return true;
    });
    const updated = updates.size;
    const inserted = write.length - updated;
    return {
      write,
      updates,
      summary: {
        file: collection.file,
        records: collection.records,
        inserted,
        updated,
        unchanged: collection.accepted.length - write.length,
        rejected: collection.rejected,
      },
    };
  }
}

function songRow(game: string, s: SongRecord, hash: string): typeof songs.$inferInsert {
  const titles = [...new Set([s.title, ...s.altTitles].map((t) => t.toLowerCase()))];
  return {
    game,
    id: s.id,
    title: s.title,
    artist: s.artist,
    altTitles: s.altTitles,
    searchTerms: s.searchTerms,
    data: s.data,
    matchTitles: titles,
    searchText: [s.title, ...s.altTitles, ...s.searchTerms].join(' '),
    seedHash: hash,
  };
}

function chartRow(game: string, c: ChartRecord, hash: string): typeof charts.$inferInsert {
  const d = c.data;
  return {
    chartID: c.chartID,
    game,
    playtype: c.playtype,
    songID: c.songID,
    difficulty: c.difficulty,
    level: c.level,
    levelNum: c.levelNum,
    isPrimary: c.isPrimary,
    versions: c.versions,
    data: d,
    inGameIDs: inGameIDs(d.inGameID),
    chartHashes: [...new Set([...hashValues(d.hashMD5), ...hashValues(d.hashSHA256), ...hashValues(d.hashSHA1), ...hashValues(d.hashGSv3)])],
    seedHash: hash,
  };
}

function folderRow(f: FolderRecord, hash: string): typeof folders.$inferInsert {
  return {
    folderID: f.folderID,
    game: f.game,
    playtype: f.playtype,
    title: f.title,
    type: f.type,
    data: f.data,
    inactive: f.inactive,
    searchTerms: f.searchTerms,
    searchText: [f.title, ...f.searchTerms].join(' '),
    seedHash: hash,
  };
}

function tableRow(t: TableRecord, hash: string): typeof gameTables.$inferInsert {
  return {
    tableID: t.tableID,
    game: t.game,
    playtype: t.playtype,
    title: t.title,
    description: t.description,
    folders: t.folders,
    inactive: t.inactive,
    isDefault: t.default,
    seedHash: hash,
  };
}

function goalRow(g: GoalRecord, hash: string): typeof goals.$inferInsert {
  return { goalID: g.goalID, game: g.game, playtype: g.playtype, name: g.name, charts: g.charts, criteria: g.criteria, seedHash: hash };
}

function questRow(q: QuestRecord, hash: string): typeof quests.$inferInsert {
  return { questID: q.questID, game: q.game, playtype: q.playtype, name: q.name, desc: q.desc, questData: q.questData, seedHash: hash };
}

function questlineRow(q: QuestlineRecord, hash: string): typeof questlines.$inferInsert {
  return { questlineID: q.questlineID, game: q.game, playtype: q.playtype, name: q.name, desc: q.desc, quests: q.quests, seedHash: hash };
}

function courseRow(c: BmsCourseRecord, hash: string): typeof bmsCourses.$inferInsert {
  const set = findGpt('bms', c.playtype)!.classes[c.set];
  const value = typeof c.value === 'number' ? set.values[c.value].id : c.value;
  return { md5sums: c.md5sums, title: c.title, set: c.set, playtype: c.playtype, value, seedHash: hash };
}
