import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, serial, text } from 'drizzle-orm/pg-core';
import { unixMs } from './columns.js';
import { users } from './users.js';

export type ImportStatus = 'queued' | 'ongoing' | 'completed' | 'failed';

export interface ImportError {
  type: string;
  message: string;
}

export interface CreatedSession {
  sessionID: string;
  type: 'Created' | 'Appended';
}

export interface ClassDelta {
  game: string;
  playtype: string;
  set: string;
  old: string | null;
  new: string;
}

/** Imports: the spec's ImportDocument once completed, and the tracker while queued or running. */
export const imports = pgTable(
  'imports',
  {
    importID: text('import_id').primaryKey(),
    userID: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    importType: text('import_type').notNull(),
    userIntent: boolean('user_intent').notNull(),
    status: text('status').$type<ImportStatus>().notNull(),
    progress: text('progress'),
    /** The raw input, kept until the import completes so that a retry after a crash can run it again. */
    input: text('input'),
    game: text('game'),
    idStrings: text('id_strings')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    scoreIDs: text('score_ids')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    errors: jsonb('errors')
      .$type<ImportError[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    createdSessions: jsonb('created_sessions')
      .$type<CreatedSession[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    classDeltas: jsonb('class_deltas')
      .$type<ClassDelta[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    goalInfo: jsonb('goal_info')
      .$type<unknown[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    questInfo: jsonb('quest_info')
      .$type<unknown[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    /** Why a completed import brought no scores (a from-api sync with nothing new, an empty profile, every item skipped); null otherwise. */
    emptyReason: text('empty_reason'),
    /** Why a failed import failed: {statusCode, message}. */
    failure: jsonb('failure').$type<{ statusCode: number; message: string }>(),
    timeQueued: unixMs('time_queued').notNull(),
    timeStarted: unixMs('time_started'),
    timeFinished: unixMs('time_finished'),
  },
  (t) => [
    index('imports_user_finished_idx').on(t.userID, t.timeFinished),
    // The worker's sweep for queued imports whose job Redis lost (ImportsService.requeueStranded).
    index('imports_unfinished_idx')
      .on(t.timeQueued)
      .where(sql`${t.status} in ('queued', 'ongoing')`),
  ],
);

/**
 * One row per user while something writes their scores (an import, an orphan retry, a revert).
 * The holder refreshes the heartbeat; a lock whose heartbeat has gone stale (its process died)
 * may be taken over.
 */
export const importLocks = pgTable('import_locks', {
  userID: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  owner: text('owner').notNull(),
  heartbeat: unixMs('heartbeat').notNull(),
});

/** Scores whose song or chart was unknown; retried by POST /import/orphans and after seed loads. */
export const orphanScores = pgTable(
  'orphan_scores',
  {
    orphanID: text('orphan_id').primaryKey(),
    userID: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    game: text('game').notNull(),
    playtype: text('playtype').notNull(),
    importType: text('import_type').notNull(),
    /** The score element as it was sent. */
    data: jsonb('data').notNull(),
    /** What the converter needs besides the element: service, version. */
    context: jsonb('context').$type<{ service: string; version: string | null }>().notNull(),
    errMsg: text('err_msg').notNull(),
    timeInserted: unixMs('time_inserted').notNull(),
  },
  (t) => [index('orphan_scores_user_idx').on(t.userID), index('orphan_scores_game_idx').on(t.game)],
);

export const sessions = pgTable(
  'sessions',
  {
    sessionID: text('session_id').primaryKey(),
    userID: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    game: text('game').notNull(),
    playtype: text('playtype').notNull(),
    name: text('name').notNull(),
    desc: text('desc'),
    calculatedData: jsonb('calculated_data').$type<Record<string, number | null>>().notNull(),
    highlighted: boolean('highlighted').notNull().default(false),
    timeInserted: unixMs('time_inserted').notNull(),
    timeStarted: unixMs('time_started').notNull(),
    timeEnded: unixMs('time_ended').notNull(),
  },
  (t) => [
    index('sessions_user_gpt_time_idx').on(t.userID, t.game, t.playtype, t.timeEnded),
    // The activity feeds: newest sessions started, site-wide, on a GPT, of a user.
    index('sessions_started_idx').on(t.timeStarted),
    index('sessions_gpt_started_idx').on(t.game, t.playtype, t.timeStarted),
    index('sessions_user_started_idx').on(t.userID, t.timeStarted),
  ],
);

/** A record of each class raise (a first value counts as a raise). */
export const classAchievements = pgTable(
  'class_achievements',
  {
    id: serial('id').primaryKey(),
    userID: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    game: text('game').notNull(),
    playtype: text('playtype').notNull(),
    classSet: text('class_set').notNull(),
    classOldValue: text('class_old_value'),
    classValue: text('class_value').notNull(),
    timeAchieved: unixMs('time_achieved').notNull(),
  },
  (t) => [
    index('class_achievements_gpt_time_idx').on(t.game, t.playtype, t.timeAchieved),
    index('class_achievements_user_idx').on(t.userID),
    index('class_achievements_time_idx').on(t.timeAchieved),
  ],
);

/**
 * What a completed import read (its import type's `read`, as JSON text), for Tachi's web client
 * (GET /cdn/score-import-input/:importID). Written in the import's own transaction; kept
 * IMPORT_INPUT_RETENTION_DAYS; goes with its import (revert, account deletion) by the cascade.
 */
export const importInputs = pgTable(
  'import_inputs',
  {
    importID: text('import_id')
      .primaryKey()
      .references(() => imports.importID, { onDelete: 'cascade' }),
    userID: integer('user_id').notNull(),
    input: text('input').notNull(),
    storedAt: unixMs('stored_at').notNull(),
  },
  (t) => [index('import_inputs_stored_at_idx').on(t.storedAt)],
);

export type ImportRow = typeof imports.$inferSelect;
export type NewImportRow = typeof imports.$inferInsert;
export type OrphanRow = typeof orphanScores.$inferSelect;
export type SessionRow = typeof sessions.$inferSelect;
export type ClassAchievementRow = typeof classAchievements.$inferSelect;
