import { Injectable } from '@nestjs/common';
import { Database } from '../database/database.js';
import { findGame, GAMES } from '../game-support/registry.js';
import type { GameSupport } from '../game-support/types.js';
import { SILENT_PROGRESS, type SeedProgress } from './progress.js';
import { seedReport, type SeedReport } from './seed-report.js';
import type { SeedSource } from './seed-source.js';
import { afterCommit, updateSubscriptions } from './steps/after-load.js';
import { diffCourses, readCourses, writeCourses } from './steps/bms-courses.js';
import { ChangedGpts, SeedLoad } from './steps/collections.js';
import { diffFolders, readFolders, resolveChangedFolders, touchFolderGpts, writeFolders } from './steps/folders.js';
import {
  diffCharts,
  diffSongs,
  dropChartsOfOtherGames,
  dropChartsWithoutSong,
  readCharts,
  readSongs,
  touchSongAndChartGpts,
  writeSongsAndCharts,
} from './steps/songs-charts.js';
import { diffTables, dropTablesWithoutFolders, readTables, writeTables } from './steps/tables.js';
import {
  diffGoals,
  diffQuestlines,
  diffQuests,
  dropDanglingTargets,
  readGoals,
  readQuestlines,
  readQuests,
  updatedQuestIDs,
  writeTargets,
} from './steps/targets.js';

export type { CollectionSummary, SeedIssue, SeedReport } from './seed-report.js';

export class SeedLoadError extends Error {}

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
 * the same seeds changes nothing and says so. Each step lives in `steps/`, one module per kind of
 * record; `run` is their order.
 */
@Injectable()
export class SeedLoader {
  constructor(private readonly database: Database) {}

  load(source: SeedSource, options: SeedLoadOptions = {}): Promise<SeedReport> {
    return run(new SeedLoad(this.database, options.progress ?? SILENT_PROGRESS), source, options);
  }
}

/** The games a load covers; throws SeedLoadError for a game the registry lacks. */
function selectGames(options: SeedLoadOptions): GameSupport[] {
  const unknown = (options.games ?? []).filter((g) => !findGame(g));
  if (unknown.length)
    throw new SeedLoadError(`Unknown game${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}. Supported: ${GAMES.map((g) => g.game).join(', ')}.`);
  return options.games?.length ? GAMES.filter((g) => options.games!.includes(g.game)) : [...GAMES];
}

async function run(load: SeedLoad, source: SeedSource, options: SeedLoadOptions): Promise<SeedReport> {
  const games = selectGames(options);
  await source.assertReachable();
  // With --games, other games' records are out of scope; without it, a record of a game the registry lacks is reported.
  const selected = new Set(options.games?.length ? games.map((g) => g.game) : []);

  // 1. Read and validate every file.
  const songCollections = await Promise.all(games.map((g) => readSongs(load, source, g)));
  const chartCollections = await Promise.all(games.map((g) => readCharts(load, source, g)));
  const folderCollection = await readFolders(load, source, selected);
  const goalCollection = await readGoals(load, source, selected);
  const tableCollection = await readTables(load, source, selected);
  const questCollection = await readQuests(load, source, selected);
  const questlineCollection = await readQuestlines(load, source, selected);
  const courseCollection = await readCourses(load, source, selected);

  // 2. Reject the records whose references resolve neither in the files nor in the database.
  await dropChartsOfOtherGames(load, games, chartCollections);
  await dropChartsWithoutSong(load, games, songCollections, chartCollections);
  await dropTablesWithoutFolders(load, tableCollection, folderCollection);
  await dropDanglingTargets(load, goalCollection, questCollection, questlineCollection);

  // 3. Compare with the stored records: only new and changed ones are written.
  const [songDiffs, chartDiffs, folderDiff, tableDiff, goalDiff, questDiff, questlineDiff, courseDiff] = await Promise.all([
    Promise.all(diffSongs(load, games, songCollections)),
    Promise.all(diffCharts(load, games, chartCollections)),
    diffFolders(load, folderCollection),
    diffTables(load, tableCollection),
    diffGoals(load, goalCollection),
    diffQuests(load, questCollection),
    diffQuestlines(load, questlineCollection),
    diffCourses(load, courseCollection),
  ]);
  const diffs = [...songDiffs, ...chartDiffs, folderDiff, tableDiff, goalDiff, questDiff, questlineDiff, courseDiff];
  const changedGpts = new ChangedGpts();
  touchSongAndChartGpts(changedGpts, games, songDiffs, chartDiffs);
  touchFolderGpts(changedGpts, folderDiff);

  // 4. Write them in one transaction, re-resolve the changed GPTs' folders and update subscriptions; then the post-load actions.
  const totalWrites = diffs.reduce((n, d) => n + d.write.length, 0);
  let folderLinks = 0;
  if (totalWrites > 0) {
    load.progress.phase('Writing records', totalWrites);
    const tick = (n: number) => load.progress.advance(n);
    folderLinks = await load.database.transaction(async (tx) => {
      await writeSongsAndCharts(tx, games, songDiffs, chartDiffs, tick);
      await writeFolders(tx, folderDiff, tick);
      await writeTables(tx, tableDiff, tick);
      await writeTargets(tx, { goals: goalDiff, quests: questDiff, questlines: questlineDiff }, tick);
      await writeCourses(tx, courseDiff, tick);
      load.progress.done();
      const links = await resolveChangedFolders(load, tx, changedGpts.list());
      await updateSubscriptions(tx, changedGpts.list(), updatedQuestIDs(questDiff));
      return links;
    });
    await afterCommit(load.database);
  }

  // 5. The report.
  return seedReport(
    source.location,
    games.map((g) => g.game),
    {
      issues: load,
      collections: diffs.map((d) => d.summary),
      resolvedGpts: changedGpts.keys(),
      folderLinks,
      changed: totalWrites > 0,
    },
  );
}
