import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ModuleMetadata } from '@nestjs/common';
import { ScheduleModule } from '@nestjs/schedule';
import { Test, type TestingModule } from '@nestjs/testing';
import { sql } from 'drizzle-orm';
import { DatabaseModule } from '../../src/database/database.module.js';
import { ConfigModule } from '../../src/config/config.module.js';
import { loadConfig } from '../../src/config/app-config.js';
import type { Db } from '../../src/database/database.js';
import { charts, EMPTY_SOCIALS, profileRatings, songs, userGameStats, users, type GameStatsRow, type UserRow } from '../../src/database/schema.js';
import type { GptSupport } from '../../src/game-support/types.js';
import { openTestDatabase } from '../support/app.js';

export interface ServiceTestModule {
  module: TestingModule;
  db: Db;
  /** Deletes every user, and with them everything they own (profiles, ratings, PBs, settings, snapshots). */
  clearUsers: () => Promise<void>;
  close: () => Promise<void>;
}

/** The given modules (real services and repositories, no HTTP) on a fresh copy of the migrated database, with the scheduler the processes' CoreModule provides. */
export async function openServiceModule(imports: NonNullable<ModuleMetadata['imports']>): Promise<ServiceTestModule> {
  const { database, drop } = await openTestDatabase();
  const module = await Test.createTestingModule({
    imports: [ScheduleModule.forRoot(), serviceTestConfig(), DatabaseModule.forDatabase(database, { closeOnShutdown: false }), ...imports],
  }).compile();
  await module.init();
  return {
    module,
    db: database.db,
    clearUsers: async () => {
      await database.db.execute(sql`TRUNCATE ${users} CASCADE`);
    },
    close: async () => {
      await module.close();
      await drop();
    },
  };
}

/** The configuration services read (storage under a fresh temporary DATA_DIR), as the processes' CoreModule provides it. */
export function serviceTestConfig() {
  return ConfigModule.forConfig(loadConfig({ DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'st-service-')), LOG_LEVEL: 'silent' }));
}

/** A chart of insertSongWithCharts: level is its number, and an in-game id goes to data.inGameID and inGameIDs. */
export interface TestChart {
  chartID: string;
  difficulty: string;
  levelNum?: number;
  inGameID?: number;
}

/** A song of the game and its primary charts on the playtype: the catalog rows that PBs and chart rankings point at. */
export async function insertSongWithCharts(db: Db, game: string, playtype: string, song: { id: number; title: string }, list: TestChart[]): Promise<void> {
  const title = song.title.toLowerCase();
  await db.insert(songs).values({
    game,
    id: song.id,
    title: song.title,
    artist: 'Tester',
    altTitles: [],
    searchTerms: [],
    data: {},
    matchTitles: [title],
    searchText: title,
    seedHash: 'service-test',
  });
  await db.insert(charts).values(
    list.map((c) => ({
      chartID: c.chartID,
      game,
      playtype,
      songID: song.id,
      difficulty: c.difficulty,
      level: String(c.levelNum ?? 1),
      levelNum: c.levelNum ?? 1,
      isPrimary: true,
      versions: [],
      data: c.inGameID === undefined ? {} : { inGameID: c.inGameID },
      inGameIDs: c.inGameID === undefined ? [] : [c.inGameID],
      chartHashes: [],
      seedHash: 'service-test',
    })),
  );
}

export async function insertUser(db: Db, username: string): Promise<UserRow> {
  const [row] = await db
    .insert(users)
    .values({ username, usernameLowercase: username.toLowerCase(), about: '', socialMedia: EMPTY_SOCIALS, joinDate: 0, lastSeen: 0 })
    .returning();
  return row;
}

/** A profile on the GPT with these ratings (null: no value, so no profile_ratings row) and classes. */
export async function insertProfile(
  db: Db,
  userID: number,
  gpt: GptSupport,
  ratings: Record<string, number | null>,
  classes: Record<string, string> = {},
): Promise<GameStatsRow> {
  const [row] = await db.insert(userGameStats).values({ userID, game: gpt.game, playtype: gpt.playtype, ratings, classes, lastUpdated: 0 }).returning();
  const rated = Object.entries(ratings).filter((e): e is [string, number] => e[1] !== null);
  if (rated.length) await db.insert(profileRatings).values(rated.map(([alg, value]) => ({ userID, game: gpt.game, playtype: gpt.playtype, alg, value })));
  return row;
}
