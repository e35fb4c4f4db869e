import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Tx } from '../../database/database.js';
import { imports, scores, type ScoreRow } from '../../database/schema.js';

import { findGpt } from '../../game-support/registry.js';
import { refreshSessions } from '../sessions/sessions.writer.js';
import { recomputeGameStats } from '../profiles/game-stats.writer.js';
import { loadChartContexts, recomputePersonalBests } from '../pbs/personal-bests.writer.js';
import { groupBy } from '../../common/collections.js';
import { reevaluateTargets } from '../targets/target-progress.writer.js';

/**
 * Deletes one user's scores and repairs everything derived from them, per GPT: PBs (recomputed
 * from the scores left, or removed) and chart ranks, sessions (recomputed or removed), the
 * scoreIDs of their imports (an import left with none is deleted), and the profile ratings (the
 * profile goes with the GPT's last score unless a provided class keeps it). With keepClasses the user's classes stay as
 * they are (an import revert does not undo class changes); otherwise derived classes follow.
 */
export async function removeScores(tx: Tx, userID: number, removed: readonly ScoreRow[], options: { keepClasses: boolean }): Promise<void> {
  if (removed.length === 0) return;
  const ids = removed.map((s) => s.scoreID);
  await tx.delete(scores).where(and(eq(scores.userID, userID), inArray(scores.scoreID, ids)));

  const importIDs = [...new Set(removed.map((s) => s.importID).filter((id): id is string => id !== null))];
  if (importIDs.length) {
    await tx
      .update(imports)
      .set({ scoreIDs: sql`ARRAY(SELECT id FROM unnest(${imports.scoreIDs}) AS id WHERE NOT id = ANY(${sql.param(ids)}::text[]))` })
      .where(inArray(imports.importID, importIDs));
    // An import whose last score went has nothing left to describe (as Tachi).
    await tx.delete(imports).where(and(inArray(imports.importID, importIDs), sql`cardinality(${imports.scoreIDs}) = 0`));
  }

  const byGpt = groupBy(removed, (s) => `${s.game}:${s.playtype}`);
  for (const group of byGpt.values()) {
    const gpt = findGpt(group[0].game, group[0].playtype);
    if (!gpt) continue;
    await recomputePersonalBests(tx, userID, gpt, await loadChartContexts(tx, [...new Set(group.map((s) => s.chartID))]));
    await refreshSessions(tx, gpt, [...new Set(group.map((s) => s.sessionID).filter((id): id is string => id !== null))]);
    await recomputeGameStats(tx, userID, gpt, {}, { keepClasses: options.keepClasses });
    // goals and quests on those charts move back with the PBs
    await reevaluateTargets(tx, userID, gpt.game, gpt.playtype, { chartIDs: [...new Set(group.map((s) => s.chartID))] });
  }
}
