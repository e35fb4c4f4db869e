import { BadRequestException, ConflictException, Injectable, NotFoundException } from '@nestjs/common';
import { and, count, eq } from 'drizzle-orm';
import { Database } from '../../database/database.js';
import { goals, goalSubs, questSubs, type GoalSubRow, type QuestSection, type QuestSubRow } from '../../database/schema.js';
import { evaluateGoals, type GoalDefinition, type GoalEvaluation } from './goal-evaluation.js';
import { AppConfig } from '../../config/app-config.js';
import { insertQuestSubscription, newGoalSubRow, pruneOrphanGoalSubs, questGoalIDs, subscribedParentQuests } from './subscriptions.writer.js';
import { lockUserTargets } from './target-progress.writer.js';

export interface QuestForSubscription {
  questID: string;
  name: string;
  game: string;
  playtype: string;
  questData: QuestSection[];
}

/**
 * Subscribing and unsubscribing, each in one transaction under the user's targets lock (which an
 * import's re-evaluation also takes, so a subscription never misses an import's scores).
 */
@Injectable()
export class TargetSubscriptionsService {
  constructor(
    private readonly database: Database,
    private readonly config: AppConfig,
  ) {}

  /**
   * Subscribes the user to a goal directly, creating the goal first when `name` is given and its id
   * is new. Already subscribed directly: 409. Subscribed only through a quest: the sub becomes
   * standalone. Otherwise the cap (MAX_GOAL_SUBSCRIPTIONS goal subs per GPT, 1,000 by default) applies, and a goal the user has already
   * achieved is refused (400).
   */
  addGoal(userID: number, goal: GoalDefinition, name?: string): Promise<{ goalSub: GoalSubRow; evaluation?: GoalEvaluation }> {
    return this.database.transaction(async (tx) => {
      await lockUserTargets(tx, userID);
      if (name !== undefined)
        await tx
          .insert(goals)
          .values({ goalID: goal.goalID, game: goal.game, playtype: goal.playtype, name, charts: goal.charts, criteria: goal.criteria, seedHash: '' })
          .onConflictDoNothing();
      const [existing] = await tx
        .select()
        .from(goalSubs)
        .where(and(eq(goalSubs.userID, userID), eq(goalSubs.goalID, goal.goalID)));
      if (existing?.wasAssignedStandalone) throw new ConflictException(`You are already subscribed to the goal ${goal.goalID}.`);
      if (existing) {
        const [flipped] = await tx
          .update(goalSubs)
          .set({ wasAssignedStandalone: true })
          .where(and(eq(goalSubs.userID, userID), eq(goalSubs.goalID, goal.goalID)))
          .returning();
        return { goalSub: flipped };
      }
      const [{ n }] = await tx
        .select({ n: count() })
        .from(goalSubs)
        .where(and(eq(goalSubs.userID, userID), eq(goalSubs.game, goal.game), eq(goalSubs.playtype, goal.playtype)));
      const cap = this.config.MAX_GOAL_SUBSCRIPTIONS;
      if (n >= cap) throw new BadRequestException(`You already have ${n} goals on ${goal.game} ${goal.playtype}; the limit is ${cap}.`);
      const evaluation = (await evaluateGoals(tx, userID, [goal])).get(goal.goalID);
      if (!evaluation) throw new NotFoundException(`The goal ${goal.goalID} cannot be evaluated on ${goal.game} ${goal.playtype}.`);
      if (evaluation.achieved)
        throw new BadRequestException(
          `You can't directly assign goals that you would immediately achieve: you already have ${evaluation.progressHuman} of ${evaluation.outOfHuman}.`,
        );
      const row = newGoalSubRow(userID, goal, evaluation, true, Date.now());
      await tx.insert(goalSubs).values(row);
      return { goalSub: row, evaluation };
    });
  }

  /**
   * Unsubscribes the user from a goal. Not subscribed: 404. A goal held by a quest they are
   * subscribed to cannot go on its own (400, naming the quests).
   */
  removeGoal(userID: number, game: string, playtype: string, goalID: string): Promise<GoalSubRow> {
    return this.database.transaction(async (tx) => {
      await lockUserTargets(tx, userID);
      const [existing] = await tx
        .select()
        .from(goalSubs)
        .where(and(eq(goalSubs.userID, userID), eq(goalSubs.goalID, goalID), eq(goalSubs.game, game), eq(goalSubs.playtype, playtype)));
      if (!existing) throw new NotFoundException(`You are not subscribed to the goal ${goalID}.`);
      const parents = await subscribedParentQuests(tx, userID, game, playtype, goalID);
      if (parents.length)
        throw new BadRequestException(
          `This goal is part of quests you are subscribed to: ${parents.map((p) => `'${p.name}' (${p.questID})`).join(', ')}. Leave them to remove it.`,
        );
      await tx.delete(goalSubs).where(and(eq(goalSubs.userID, userID), eq(goalSubs.goalID, goalID)));
      return existing;
    });
  }

  /**
   * Subscribes the user to a quest and so to each of its goals (goals already subscribed stay as
   * they are; quest goals do not count against the goal cap). Already subscribed: 409. At the cap
   * (MAX_QUEST_SUBSCRIPTIONS quest subs per GPT, 100 by default): 400. A quest already achieved is allowed.
   */
  subscribeQuest(userID: number, quest: QuestForSubscription): Promise<{ questSub: QuestSubRow; goalSubs: GoalSubRow[] }> {
    return this.database.transaction(async (tx) => {
      await lockUserTargets(tx, userID);
      const [existing] = await tx
        .select()
        .from(questSubs)
        .where(and(eq(questSubs.userID, userID), eq(questSubs.questID, quest.questID)));
      if (existing) throw new ConflictException(`You are already subscribed to the quest ${quest.questID}.`);
      const [{ n }] = await tx
        .select({ n: count() })
        .from(questSubs)
        .where(and(eq(questSubs.userID, userID), eq(questSubs.game, quest.game), eq(questSubs.playtype, quest.playtype)));
      const cap = this.config.MAX_QUEST_SUBSCRIPTIONS;
      if (n >= cap) throw new BadRequestException(`You already have ${n} quests on ${quest.game} ${quest.playtype}; the limit is ${cap}.`);
      return insertQuestSubscription(tx, userID, quest, Date.now());
    });
  }

  /**
   * Unsubscribes the user from a quest: the quest sub goes, and each of its goal subs that nothing
   * else keeps (not standalone, in no other subscribed quest). Not subscribed: 409.
   */
  unsubscribeQuest(userID: number, quest: QuestForSubscription): Promise<{ removedGoalIDs: string[] }> {
    return this.database.transaction(async (tx) => {
      await lockUserTargets(tx, userID);
      const removed = await tx
        .delete(questSubs)
        .where(and(eq(questSubs.userID, userID), eq(questSubs.questID, quest.questID)))
        .returning({ questID: questSubs.questID });
      if (removed.length === 0) throw new ConflictException(`You are not subscribed to the quest ${quest.questID}.`);
      return { removedGoalIDs: await pruneOrphanGoalSubs(tx, userID, quest.game, quest.playtype, questGoalIDs(quest.questData)) };
    });
  }
}
