import { sql } from 'drizzle-orm';
import type { Database, Tx } from '../../database/database.js';
import { bmsCourses, charts, folderCharts, folders, gameTables, goals, questlines, quests, songs } from '../../database/schema.js';
import { questsChanged } from '../../scoring/targets/quest-changes.js';
import { reevaluateFolderGoals } from '../../scoring/targets/target-progress.writer.js';

/** What follows the writes of a load: subscriptions in its transaction, caches and statistics once committed. */

/** Subscriptions follow the load: folder goals on the re-resolved folders, and the subscribers of changed quests. */
export async function updateSubscriptions(tx: Tx, gpts: readonly { game: string; playtype: string }[], changedQuestIDs: readonly string[]) {
  await reevaluateFolderGoals(tx, gpts);
  await questsChanged(tx, changedQuestIDs);
}

/** Once committed: the catalog caches are cleared, and the planner gets fresh statistics for what was just written (the embedded engine has no autovacuum). */
export async function afterCommit(database: Database) {
  database.catalogChanged();
  await database.db.execute(sql`ANALYZE ${songs}, ${charts}, ${folders}, ${folderCharts}, ${gameTables}, ${goals}, ${quests}, ${questlines}, ${bmsCourses}`);
}
