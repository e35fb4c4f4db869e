import { sql, type SQL } from 'drizzle-orm';
import { boolean, check, doublePrecision, foreignKey, index, integer, jsonb, pgTable, primaryKey, text, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { CHART_DATA_MATCH_FIELDS, SONG_DATA_MATCH_FIELDS } from '../../game-support/match-types.js';

/**
 * `(data ->> 'field')`, the field written as a literal: an expression index on it serves only queries that write the
 * same expression (a parameter in its place would not match it).
 */
export function jsonDataField(data: AnyPgColumn, field: string): SQL {
  if (!/^[A-Za-z][A-Za-z0-9_]*$/.test(field)) throw new Error(`'${field}' is not a plain data field name.`);
  return sql`(${data} ->> ${sql.raw(`'${field}'`)})`;
}

/** songs_ddr_song_hash_idx for ddrSongHash. */
const songDataIndexName = (field: string) => `songs_${field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)}_idx`;

/** charts_in_game_str_id_idx for inGameStrID. */
const chartDataIndexName = (field: string) => `charts_${field.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase()}_idx`;

/**
 * Songs, per game. `match_titles` (lowercased title and alternate titles) serves batch-manual's
 * exact songTitle match; `search_text` serves trigram title search. Each song data field a
 * songData match type reads (SONG_DATA_MATCH_FIELDS, from the match-type registry: DDR's
 * ddrSongHash) has an expression index on (game, data ->> field), named songs_<field>_idx: a new
 * one is a registry line and the migration `npm run db:generate` writes for it.
 */
export const songs = pgTable(
  'songs',
  {
    game: text('game').notNull(),
    id: integer('id').notNull(),
    title: text('title').notNull(),
    artist: text('artist').notNull(),
    altTitles: text('alt_titles').array().notNull(),
    searchTerms: text('search_terms').array().notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    matchTitles: text('match_titles').array().notNull(),
    searchText: text('search_text').notNull(),
    /** Hash of the seed record, so an unchanged reload writes nothing. */
    seedHash: text('seed_hash').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.game, t.id] }),
    index('songs_match_titles_idx').using('gin', t.matchTitles),
    // GiST rather than GIN: the planner prices GIN trigram scans above a sequential scan that
    // computes word_similarity for every song of a game (tens of ms), and so never used it
    index('songs_search_trgm_idx').using('gist', sql`${t.searchText} gist_trgm_ops`),
    ...SONG_DATA_MATCH_FIELDS.map((field) => index(songDataIndexName(field)).on(t.game, jsonDataField(t.data, field))),
  ],
);

/**
 * Charts. `in_game_ids` and `chart_hashes` are the batch-manual chart match keys, each behind a GIN
 * index: derived from data by the match-type registry (`chartMatchKeys`: the integers of every
 * chartInGameID field, the lowercased strings of every chartHash field), so a match type of either
 * kind on a new data field needs no migration. Each chart data field a chartData match type reads
 * (CHART_DATA_MATCH_FIELDS: HEAD's inGameStrID) has an expression index on (game, data ->> field).
 */
export const charts = pgTable(
  'charts',
  {
    chartID: text('chart_id').primaryKey(),
    game: text('game').notNull(),
    playtype: text('playtype').notNull(),
    songID: integer('song_id').notNull(),
    difficulty: text('difficulty').notNull(),
    level: text('level').notNull(),
    levelNum: doublePrecision('level_num').notNull(),
    isPrimary: boolean('is_primary').notNull(),
    versions: text('versions').array().notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    inGameIDs: integer('in_game_ids').array().notNull(),
    chartHashes: text('chart_hashes').array().notNull(),
    seedHash: text('seed_hash').notNull(),
  },
  (t) => [
    foreignKey({ columns: [t.game, t.songID], foreignColumns: [songs.game, songs.id], name: 'charts_song_fk' }),
    index('charts_gpt_song_idx').on(t.game, t.playtype, t.songID, t.difficulty),
    index('charts_in_game_ids_idx').using('gin', t.inGameIDs),
    index('charts_hashes_idx').using('gin', t.chartHashes),
    ...CHART_DATA_MATCH_FIELDS.map((field) => index(chartDataIndexName(field)).on(t.game, jsonDataField(t.data, field))),
  ],
);

/**
 * One row whose version the seed loader bumps in the transaction that changes songs or charts;
 * servers poll it to drop their in-memory catalog caches.
 */
export const catalogState = pgTable(
  'catalog_state',
  {
    id: integer('id').primaryKey().default(1),
    version: integer('version').notNull().default(0),
  },
  (t) => [check('catalog_state_single_row', sql`${t.id} = 1`)],
);

export const folders = pgTable(
  'folders',
  {
    folderID: text('folder_id').primaryKey(),
    game: text('game').notNull(),
    playtype: text('playtype').notNull(),
    title: text('title').notNull(),
    type: text('type').$type<'charts' | 'songs' | 'static'>().notNull(),
    data: jsonb('data').notNull(),
    inactive: boolean('inactive').notNull(),
    searchTerms: text('search_terms').array().notNull(),
    searchText: text('search_text').notNull(),
    seedHash: text('seed_hash').notNull(),
  },
  (t) => [index('folders_gpt_idx').on(t.game, t.playtype), index('folders_search_trgm_idx').using('gist', sql`${t.searchText} gist_trgm_ops`)],
);

/** Each folder's filter resolved to its charts; rebuilt for a GPT whenever its charts or folders change. */
export const folderCharts = pgTable(
  'folder_charts',
  {
    folderID: text('folder_id')
      .notNull()
      .references(() => folders.folderID, { onDelete: 'cascade' }),
    chartID: text('chart_id')
      .notNull()
      .references(() => charts.chartID, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.folderID, t.chartID] }), index('folder_charts_chart_idx').on(t.chartID)],
);

export const gameTables = pgTable(
  'game_tables',
  {
    tableID: text('table_id').primaryKey(),
    game: text('game').notNull(),
    playtype: text('playtype').notNull(),
    title: text('title').notNull(),
    description: text('description').notNull(),
    folders: text('folders').array().notNull(),
    inactive: boolean('inactive').notNull(),
    isDefault: boolean('is_default').notNull(),
    seedHash: text('seed_hash').notNull(),
  },
  (t) => [index('game_tables_gpt_idx').on(t.game, t.playtype)],
);

export const goals = pgTable(
  'goals',
  {
    goalID: text('goal_id').primaryKey(),
    game: text('game').notNull(),
    playtype: text('playtype').notNull(),
    name: text('name').notNull(),
    charts: jsonb('charts').$type<{ type: 'single' | 'multi' | 'folder'; data: string | string[] }>().notNull(),
    criteria: jsonb('criteria').$type<{ key: string; value: number; mode: 'single' | 'absolute' | 'proportion'; countNum?: number }>().notNull(),
    seedHash: text('seed_hash').notNull(),
  },
  (t) => [index('goals_gpt_idx').on(t.game, t.playtype)],
);

export interface QuestSection {
  title: string;
  desc?: string;
  goals: { goalID: string; note?: string }[];
}

export const quests = pgTable(
  'quests',
  {
    questID: text('quest_id').primaryKey(),
    game: text('game').notNull(),
    playtype: text('playtype').notNull(),
    name: text('name').notNull(),
    desc: text('desc').notNull(),
    questData: jsonb('quest_data').$type<QuestSection[]>().notNull(),
    seedHash: text('seed_hash').notNull(),
  },
  (t) => [index('quests_gpt_idx').on(t.game, t.playtype)],
);

export const questlines = pgTable(
  'questlines',
  {
    questlineID: text('questline_id').primaryKey(),
    game: text('game').notNull(),
    playtype: text('playtype').notNull(),
    name: text('name').notNull(),
    desc: text('desc').notNull(),
    quests: text('quests').array().notNull(),
    seedHash: text('seed_hash').notNull(),
  },
  (t) => [index('questlines_gpt_idx').on(t.game, t.playtype)],
);

/** BMS course (dan) lookup: the concatenated MD5s of a course's charts identify it. */
export const bmsCourses = pgTable('bms_courses', {
  md5sums: text('md5sums').primaryKey(),
  title: text('title').notNull(),
  set: text('set').notNull(),
  playtype: text('playtype').notNull(),
  value: text('value').notNull(),
  seedHash: text('seed_hash').notNull(),
});

export type SongRow = typeof songs.$inferSelect;
export type ChartRow = typeof charts.$inferSelect;
export type FolderRow = typeof folders.$inferSelect;
export type TableRow = typeof gameTables.$inferSelect;
export type GoalRow = typeof goals.$inferSelect;
export type QuestRow = typeof quests.$inferSelect;
export type QuestlineRow = typeof questlines.$inferSelect;
export type BmsCourseRow = typeof bmsCourses.$inferSelect;
