import { eq, sql } from 'drizzle-orm';
import type { Tx } from '../../database/database.js';
import { loginSessions, personalBests, users } from '../../database/schema.js';
import { findGpt } from '../../game-support/registry.js';
import { groupBy } from '../../common/collections.js';
import { rerankCharts } from '../pbs/chart-ranks.writer.js';

/**
 * Deletes the user and everything theirs, then reranks the charts they had PBs on. The users row
 * cascades to scores, PBs, sessions, imports, orphans, stats, ratings, snapshots, settings, class
 * achievements, notifications, credentials, the links to other services (integration_credentials, with their
 * encrypted tokens, cards and PINs) and sync state, email codes, API keys, clients (with the keys and
 * OAuth codes those clients issued) and the import lock; login sessions hold the id only inside
 * their JSON and are deleted here. Returns the storage keys of the user's images (to delete once
 * committed), or null when the user does not exist.
 */
export async function deleteAccountRows(tx: Tx, userID: number): Promise<string[] | null> {
  const [user] = await tx.select().from(users).where(eq(users.id, userID)).for('update');
  if (!user) return null;
  const ranked = await tx
    .selectDistinct({ game: personalBests.game, playtype: personalBests.playtype, chartID: personalBests.chartID })
    .from(personalBests)
    .where(eq(personalBests.userID, userID));
  await tx.delete(loginSessions).where(sql`${loginSessions.sess} ->> 'userID' = ${String(userID)}`);
  await tx.delete(users).where(eq(users.id, userID));
  for (const rows of groupBy(ranked, (r) => `${r.game}|${r.playtype}`).values()) {
    const gpt = findGpt(rows[0].game, rows[0].playtype);
    if (gpt)
      await rerankCharts(
        tx,
        gpt,
        rows.map((r) => r.chartID),
      );
  }
  return [user.customPfpLocation, user.customBannerLocation].filter((key): key is string => key !== null);
}
