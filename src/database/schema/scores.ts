import { sql } from 'drizzle-orm';
import { boolean, doublePrecision, index, integer, jsonb, pgTable, primaryKey, smallint, text } from 'drizzle-orm/pg-core';
import type { ScoreData } from '../../game-support/types.js';
import { charts } from './catalog.js';
import { unixMs } from './columns.js';
import { sessions } from './imports.js';
import { users } from './users.js';

/**
 * Every score a user has imported. The values queries filter and sort on (score, percent, lamp and
 * grade indexes, time) are real columns; the full game-specific scoreData stays in jsonb.
 */
export const scores = pgTable(
  'scores',
  {
    scoreID: text('score_id').primaryKey(),
    userID: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    game: text('game').notNull(),
    playtype: text('playtype').notNull(),
    chartID: text('chart_id')
      .notNull()
      .references(() => charts.chartID, { onDelete: 'cascade' }),
    songID: integer('song_id').notNull(),
    isPrimary: boolean('is_primary').notNull(),
    score: doublePrecision('score').notNull(),
    percent: doublePrecision('percent').notNull(),
    lampIndex: smallint('lamp_index').notNull(),
    gradeIndex: smallint('grade_index').notNull(),
    scoreData: jsonb('score_data').$type<ScoreData>().notNull(),
    calculatedData: jsonb('calculated_data').$type<Record<string, number | null>>().notNull(),
    scoreMeta: jsonb('score_meta')
      .$type<Record<string, unknown>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    timeAchieved: unixMs('time_achieved'),
    timeAdded: unixMs('time_added').notNull(),
    service: text('service').notNull(),
    importType: text('import_type').notNull(),
    importID: text('import_id'),
    comment: text('comment'),
    highlighted: boolean('highlighted').notNull().default(false),
    /** The session the score belongs to; null for a score without a timestamp. */
    sessionID: text('session_id').references(() => sessions.sessionID, { onDelete: 'set null' }),
  },
  (t) => [
    index('scores_user_gpt_time_idx').on(t.userID, t.game, t.playtype, t.timeAchieved),
    index('scores_session_idx').on(t.sessionID),
    // A user's scores on given charts (PB merging); an import's scores are found by the ids its ImportDocument lists.
    index('scores_user_chart_idx').on(t.userID, t.chartID),
    // A user's scores without a time, latest import first (they follow the timed ones in scores/recent).
    index('scores_user_gpt_untimed_idx')
      .on(t.userID, t.game, t.playtype, t.timeAdded, t.scoreID)
      .where(sql`${t.timeAchieved} IS NULL`),
    // The GPT's most recent highlighted scores.
    index('scores_gpt_highlighted_time_idx')
      .on(t.game, t.playtype, t.timeAchieved.desc().nullsLast(), t.timeAdded.desc())
      .where(sql`${t.highlighted}`),
  ],
);

/** A user's personal best on a chart: best score merged with best lamp and the game's extras. */
export const personalBests = pgTable(
  'personal_bests',
  {
    userID: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    chartID: text('chart_id')
      .notNull()
      .references(() => charts.chartID, { onDelete: 'cascade' }),
    game: text('game').notNull(),
    playtype: text('playtype').notNull(),
    songID: integer('song_id').notNull(),
    isPrimary: boolean('is_primary').notNull(),
    score: doublePrecision('score').notNull(),
    percent: doublePrecision('percent').notNull(),
    lampIndex: smallint('lamp_index').notNull(),
    gradeIndex: smallint('grade_index').notNull(),
    scoreData: jsonb('score_data').$type<ScoreData>().notNull(),
    calculatedData: jsonb('calculated_data').$type<Record<string, number | null>>().notNull(),
    composedFrom: jsonb('composed_from').$type<{ name: string; scoreID: string }[]>().notNull(),
    timeAchieved: unixMs('time_achieved'),
    /** Time of the play that set the PB's score: ties in rank go to the earlier one. */
    rankTime: unixMs('rank_time'),
    highlighted: boolean('highlighted').notNull().default(false),
    /**
     * The PB's place on its chart, from 1. Exact while the chart's chart_rankings row is clean;
     * while it is dirty (an import or deletion moved PBs and the refresher has not run yet) readers
     * count it live from the ranking key (see pb-rank.ts).
     */
    rank: integer('rank').notNull().default(0),
    /** The ranking key's first value: the GPT's pbOrder value (pbOrderValue), else percent. */
    rankOrder: doublePrecision('rank_order').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.userID, t.chartID] }),
    // Chart leaderboards of a clean chart (by stored rank).
    index('pbs_chart_rank_idx').on(t.chartID, t.rank),
    // The ranking key, best first: live ranks (1 + PBs before), a dirty chart's pages, the refresher.
    index('pbs_chart_order_idx').on(t.chartID, t.rankOrder.desc(), t.score.desc(), t.rankTime.asc().nullsLast(), t.userID),
  ],
);

/**
 * One row per chart that has (or had) PBs: its player count (outOf of every PB there) and whether
 * stored ranks are stale. Imports write only their own PBs: they bump `players` and set
 * `dirtySince`; the rank refresher (scoring/pbs/rank-refresher.ts) re-ranks dirty charts off the
 * request path and clears it.
 */
export const chartRankings = pgTable(
  'chart_rankings',
  {
    chartID: text('chart_id')
      .primaryKey()
      .references(() => charts.chartID, { onDelete: 'cascade' }),
    game: text('game').notNull(),
    playtype: text('playtype').notNull(),
    players: integer('players').notNull().default(0),
    /** Unix ms of the first change since the chart's ranks were last refreshed; null: stored ranks are exact. */
    dirtySince: unixMs('dirty_since'),
  },
  (t) => [
    // The most played charts of a GPT.
    index('chart_rankings_popular_idx').on(t.game, t.playtype, t.players.desc(), t.chartID),
    index('chart_rankings_dirty_idx')
      .on(t.dirtySince)
      .where(sql`${t.dirtySince} IS NOT NULL`),
  ],
);

export type ScoreRow = typeof scores.$inferSelect;
export type NewScoreRow = typeof scores.$inferInsert;
export type PersonalBestRow = typeof personalBests.$inferSelect;
/** A PB as reads serve it: its rank (counted live while its chart is dirty) and the chart's PB count (see pb-rank.ts). */
/** A PB as readers serve it: with its chart's player count and its place among its owner's rivals (null: no rivals). */
export type PbReadRow = PersonalBestRow & { outOf: number; rivalRank: number | null };
