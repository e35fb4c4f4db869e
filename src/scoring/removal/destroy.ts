import { and, eq, or, sql } from 'drizzle-orm';
import { queryRows, type Tx } from '../../database/database.js';
import {
  catalogState,
  charts,
  classAchievements,
  gameStatsSnapshots,
  goalSubs,
  pbRatings,
  questSubs,
  personalBests,
  rivals,
  profileRatings,
  recentFolderViews,
  scores,
  sessions,
  ugptSettings,
  userGameStats,
} from '../../database/schema.js';
import type { GptSupport } from '../../game-support/types.js';
import { removeScores } from './score-removal.js';

/** Scores removed per transaction by the destroy operations. */
export const DESTROY_BATCH = 1000;

/** Whether the user has a profile or any score on the GPT. */
export async function hasProfile(tx: Tx, userID: number, gpt: GptSupport): Promise<boolean> {
  const [row] = await queryRows<{ found: boolean }>(
    tx,
    sql`SELECT
    EXISTS (SELECT 1 FROM ${userGameStats} WHERE user_id = ${userID} AND game = ${gpt.game} AND playtype = ${gpt.playtype})
    OR EXISTS (SELECT 1 FROM ${scores} WHERE user_id = ${userID} AND game = ${gpt.game} AND playtype = ${gpt.playtype}) AS found`,
  );
  return row.found;
}

/** Removes up to one batch of the user's scores on the GPT (or on one chart), repairing what derives from them; returns how many went. */
export async function removeScoreBatch(tx: Tx, userID: number, gpt: GptSupport, chartID?: string): Promise<number> {
  const batch = await tx
    .select()
    .from(scores)
    .where(
      and(
        eq(scores.userID, userID),
        eq(scores.game, gpt.game),
        eq(scores.playtype, gpt.playtype),
        chartID === undefined ? undefined : eq(scores.chartID, chartID),
      ),
    )
    .limit(DESTROY_BATCH)
    .for('update');
  await removeScores(tx, userID, batch, { keepClasses: false });
  return batch.length;
}

/** Once the user's scores on the GPT are gone: the rest of the profile (provided classes, settings, snapshots, achievements, goal and quest subscriptions, rivals both ways, recently viewed folders). */
export async function deleteProfileRows(tx: Tx, userID: number, gpt: GptSupport): Promise<void> {
  for (const table of [
    userGameStats,
    profileRatings,
    gameStatsSnapshots,
    ugptSettings,
    classAchievements,
    sessions,
    personalBests,
    pbRatings,
    questSubs,
    goalSubs,
    recentFolderViews,
  ]) {
    await tx.delete(table).where(and(eq(table.userID, userID), eq(table.game, gpt.game), eq(table.playtype, gpt.playtype)));
  }
  // Whom the user rivalled on the GPT, and who rivalled the user there (a rival must have played it).
  await tx.delete(rivals).where(and(eq(rivals.game, gpt.game), eq(rivals.playtype, gpt.playtype), or(eq(rivals.userID, userID), eq(rivals.rivalID, userID))));
}

/** Deletes a chart whose scores are gone (its PBs and folder links follow by cascade) and marks the catalog changed. */
export async function deleteChartRow(tx: Tx, chartID: string): Promise<void> {
  await tx.delete(charts).where(eq(charts.chartID, chartID));
  await tx.update(catalogState).set({ version: sql`${catalogState.version} + 1` });
}
