import { and, eq, inArray, sql } from 'drizzle-orm';
import { randomHex } from '../../common/crypto.js';
import { queryRows, type Tx } from '../../database/database.js';
import { notifications, quests, questSubs } from '../../database/schema.js';
import { insertQuestSubscription, pruneOrphanGoalSubs } from './subscriptions.writer.js';
import { lockUserTargets } from './target-progress.writer.js';

/**
 * After a seed load changed these quests: each subscriber is unsubscribed and subscribed again
 * (goal subs that only the old quest kept go, the new goals get subs, progress is recounted) and
 * gets a QUEST_CHANGED notification. Returns how many notifications were sent.
 */
export async function questsChanged(tx: Tx, questIDs: readonly string[], now = Date.now()): Promise<number> {
  if (questIDs.length === 0) return 0;
  const changed = await tx
    .select()
    .from(quests)
    .where(inArray(quests.questID, [...questIDs]));
  let sent = 0;
  for (const quest of changed) {
    const subs = await tx.select().from(questSubs).where(eq(questSubs.questID, quest.questID)).orderBy(questSubs.userID);
    for (const sub of subs) {
      await lockUserTargets(tx, sub.userID);
      await tx.delete(questSubs).where(and(eq(questSubs.userID, sub.userID), eq(questSubs.questID, quest.questID)));
      // the goals the user had through this quest, old and new: orphans among them go
      const candidates = await queryRows<{ goal_id: string }>(
        tx,
        sql`SELECT goal_id FROM goal_subs WHERE user_id = ${sub.userID} AND game = ${quest.game} AND playtype = ${quest.playtype} AND NOT was_assigned_standalone`,
      );
      const goalIDs = candidates.map((r) => r.goal_id);
      await pruneOrphanGoalSubs(tx, sub.userID, quest.game, quest.playtype, goalIDs);
      await insertQuestSubscription(tx, sub.userID, quest, now);
      await tx.insert(notifications).values({
        notifID: `N${randomHex(20)}`,
        sentTo: sub.userID,
        title: `The quest '${quest.name}' has received an update.`,
        body: { type: 'QUEST_CHANGED', content: { questID: quest.questID, game: quest.game, playtype: quest.playtype } },
        sentAt: now,
      });
      sent++;
    }
  }
  return sent;
}
