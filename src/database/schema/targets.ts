import { sql } from 'drizzle-orm';
import { boolean, doublePrecision, index, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { goals, quests } from './catalog.js';
import { unixMs } from './columns.js';
import { users } from './users.js';

/**
 * A user's subscription to a goal (spec GoalSubDocument), with the goal's last evaluation for them.
 * game and playtype are the goal's, copied so that per-GPT lists and caps need no join.
 */
export const goalSubs = pgTable(
  'goal_subs',
  {
    userID: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    goalID: text('goal_id')
      .notNull()
      .references(() => goals.goalID, { onDelete: 'cascade' }),
    game: text('game').notNull(),
    playtype: text('playtype').notNull(),
    achieved: boolean('achieved').notNull(),
    /** When the goal was (last) achieved; null while it is not. */
    timeAchieved: unixMs('time_achieved'),
    /** When an import, deletion or seed change last moved progress or outOf; null since subscribing. */
    lastInteraction: unixMs('last_interaction'),
    progress: doublePrecision('progress'),
    progressHuman: text('progress_human').notNull(),
    outOf: doublePrecision('out_of').notNull(),
    outOfHuman: text('out_of_human').notNull(),
    wasInstantlyAchieved: boolean('was_instantly_achieved').notNull(),
    /** Subscribed directly by the user (not only through a quest). */
    wasAssignedStandalone: boolean('was_assigned_standalone').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.userID, t.goalID] }),
    index('goal_subs_user_gpt_idx').on(t.userID, t.game, t.playtype),
    index('goal_subs_goal_idx').on(t.goalID),
    index('goal_subs_gpt_achieved_idx')
      .on(t.game, t.playtype, t.timeAchieved.desc())
      .where(sql`${t.achieved} AND NOT ${t.wasInstantlyAchieved}`),
    index('goal_subs_gpt_raised_idx')
      .on(t.game, t.playtype, t.lastInteraction.desc())
      .where(sql`NOT ${t.achieved} AND ${t.lastInteraction} IS NOT NULL`),
  ],
);

/** A user's subscription to a quest (spec QuestSubDocument); progress is the number of its goals achieved. */
export const questSubs = pgTable(
  'quest_subs',
  {
    userID: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    questID: text('quest_id')
      .notNull()
      .references(() => quests.questID, { onDelete: 'cascade' }),
    game: text('game').notNull(),
    playtype: text('playtype').notNull(),
    achieved: boolean('achieved').notNull(),
    timeAchieved: unixMs('time_achieved'),
    lastInteraction: unixMs('last_interaction'),
    progress: integer('progress').notNull(),
    wasInstantlyAchieved: boolean('was_instantly_achieved').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.userID, t.questID] }),
    index('quest_subs_user_gpt_idx').on(t.userID, t.game, t.playtype),
    index('quest_subs_quest_idx').on(t.questID),
    index('quest_subs_gpt_achieved_idx')
      .on(t.game, t.playtype, t.timeAchieved.desc())
      .where(sql`${t.achieved} AND NOT ${t.wasInstantlyAchieved}`),
    index('quest_subs_gpt_raised_idx')
      .on(t.game, t.playtype, t.lastInteraction.desc())
      .where(sql`NOT ${t.achieved} AND ${t.lastInteraction} IS NOT NULL`),
  ],
);

export type GoalSubRow = typeof goalSubs.$inferSelect;
export type QuestSubRow = typeof questSubs.$inferSelect;
