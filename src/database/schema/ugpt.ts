import { boolean, doublePrecision, index, integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { charts, folders } from './catalog.js';
import { unixMs } from './columns.js';
import { users } from './users.js';

/** A showcase stat (spec StatDocument). */
export type StatDocument =
  | { mode: 'chart'; property: 'grade' | 'lamp' | 'score' | 'percent' | 'playcount'; chartID: string }
  | { mode: 'folder'; property: 'grade' | 'lamp' | 'score' | 'percent'; folderID: string; gte: number };

/** Per user and GPT: preferred rating algorithms and the stat showcase (spec UGPTSettingsDocument). */
export const ugptSettings = pgTable(
  'ugpt_settings',
  {
    userID: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    game: text('game').notNull(),
    playtype: text('playtype').notNull(),
    preferredScoreAlg: text('preferred_score_alg'),
    preferredSessionAlg: text('preferred_session_alg'),
    preferredProfileAlg: text('preferred_profile_alg'),
    stats: jsonb('stats').$type<StatDocument[]>().notNull(),
    /** The enum metric (grade or lamp) the client shows by default; null: the client's choice. */
    preferredDefaultEnum: text('preferred_default_enum'),
    /** A table of this GPT the client opens by default; null: the GPT's default table. */
    defaultTable: text('default_table'),
    /** Which chart ranking the client shows: 'global', 'rival', or null. */
    preferredRanking: text('preferred_ranking').$type<'global' | 'rival'>(),
    /** The GPT's own preferences (GptSupport.preferences) the user has set; the others are at the GPT's defaults. */
    gameSpecific: jsonb('game_specific')
      .$type<Record<string, unknown>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
  },
  (t) => [primaryKey({ columns: [t.userID, t.game, t.playtype] })],
);

/** One per user, GPT and UTC day: the profile as it stood at that day's midnight. */
export const gameStatsSnapshots = pgTable(
  'game_stats_snapshots',
  {
    userID: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    game: text('game').notNull(),
    playtype: text('playtype').notNull(),
    /** UTC midnight of the day the snapshot stands for. */
    timestamp: unixMs('timestamp').notNull(),
    classes: jsonb('classes').$type<Record<string, string>>().notNull(),
    ratings: jsonb('ratings').$type<Record<string, number | null>>().notNull(),
    playcount: integer('playcount').notNull(),
    /** Rank under the GPT's default profile algorithm: 1 + the players strictly better (a player without a rating: 1 + the rated players). */
    ranking: integer('ranking').notNull(),
    /** Rank and field size under every profile algorithm, by the same rule. */
    rankings: jsonb('rankings').$type<Record<string, { ranking: number; outOf: number }>>().notNull(),
  },
  (t) => [primaryKey({ columns: [t.userID, t.game, t.playtype, t.timestamp] }), index('game_stats_snapshots_time_idx').on(t.timestamp)],
);

/**
 * Each PB's numeric score ratings, one row per algorithm, kept with the PB. It lets "best PBs by
 * algorithm X" (a user's best, or the whole GPT's) read an index instead of sorting every PB.
 */
export const pbRatings = pgTable(
  'pb_ratings',
  {
    userID: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    chartID: text('chart_id')
      .notNull()
      .references(() => charts.chartID, { onDelete: 'cascade' }),
    game: text('game').notNull(),
    playtype: text('playtype').notNull(),
    alg: text('alg').notNull(),
    value: doublePrecision('value').notNull(),
    isPrimary: boolean('is_primary').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.userID, t.chartID, t.alg] }),
    index('pb_ratings_gpt_alg_value_idx').on(t.game, t.playtype, t.alg, t.value.desc()),
    index('pb_ratings_user_alg_value_idx').on(t.userID, t.game, t.playtype, t.alg, t.value.desc()),
  ],
);

/**
 * Each profile's numeric ratings, one row per algorithm, kept with user_game_stats. Leaderboards,
 * ranks and leaderboard-adjacent read its (game, playtype, alg, value) index instead of sorting
 * every profile of a GPT. A profile without a value for an algorithm has no row for it.
 */
export const profileRatings = pgTable(
  'profile_ratings',
  {
    userID: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    game: text('game').notNull(),
    playtype: text('playtype').notNull(),
    alg: text('alg').notNull(),
    value: doublePrecision('value').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.userID, t.game, t.playtype, t.alg] }),
    index('profile_ratings_gpt_alg_value_idx').on(t.game, t.playtype, t.alg, t.value.desc(), t.userID),
  ],
);

export type UgptSettingsRow = typeof ugptSettings.$inferSelect;
export type GameStatsSnapshotRow = typeof gameStatsSnapshots.$inferSelect;

/**
 * The folders a user has viewed on a GPT, one row per folder with the latest view: only the
 * RECENT_FOLDER_VIEWS newest are kept per user and GPT (the repository trims the rest on each view).
 */
export const recentFolderViews = pgTable(
  'recent_folder_views',
  {
    userID: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    folderID: text('folder_id')
      .notNull()
      .references(() => folders.folderID, { onDelete: 'cascade' }),
    game: text('game').notNull(),
    playtype: text('playtype').notNull(),
    lastViewed: unixMs('last_viewed').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userID, t.folderID] }), index('recent_folder_views_user_gpt_idx').on(t.userID, t.game, t.playtype, t.lastViewed)],
);

export type RecentFolderViewRow = typeof recentFolderViews.$inferSelect;
