import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ModuleMetadata } from '@nestjs/common';
import { Test, type TestingModule } from '@nestjs/testing';
import { sql } from 'drizzle-orm';
import { DatabaseModule } from '../../src/database/database.module.js';
import { ConfigModule } from '../../src/config/config.module.js';
import { loadConfig } from '../../src/config/app-config.js';
import type { Db } from '../../src/database/database.js';
import { EMPTY_SOCIALS, profileRatings, userGameStats, users, type UserRow } from '../../src/database/schema.js';
import type { GptSupport } from '../../src/game-support/types.js';
import type { GameStatsRecord } from '../../src/presenters/game-stats.presenter.js';
import { openTestDatabase } from '../support/app.js';

export interface ServiceTestModule {
  module: TestingModule;
  db: Db;
  /** Deletes every user, and with them everything they own (profiles, ratings, PBs, settings, snapshots). */
  clearUsers: () => Promise<void>;
  close: () => Promise<void>;
}

/** The given modules (real services and repositories, no HTTP) on a fresh copy of the migrated database. */
export async function openServiceModule(imports: NonNullable<ModuleMetadata['imports']>): Promise<ServiceTestModule> {
  const { database, drop } = await openTestDatabase();
  const module = await Test.createTestingModule({
    imports: [serviceTestConfig(), DatabaseModule.forDatabase(database, { closeOnShutdown: false }), ...imports],
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
): Promise<GameStatsRecord> {
  const [row] = await db.insert(userGameStats).values({ userID, game: gpt.game, playtype: gpt.playtype, ratings, classes, lastUpdated: 0 }).returning();
  const rated = Object.entries(ratings).filter((e): e is [string, number] => e[1] !== null);
  if (rated.length) await db.insert(profileRatings).values(rated.map(([alg, value]) => ({ userID, game: gpt.game, playtype: gpt.playtype, alg, value })));
  return row;
}
