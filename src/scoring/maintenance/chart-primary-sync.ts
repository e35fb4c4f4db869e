import { sql } from 'drizzle-orm';
import { queryRows, type Tx } from '../../database/database.js';
import { charts, pbRatings, personalBests, scores } from '../../database/schema.js';
import { findGpt } from '../../game-support/registry.js';
import { recomputeGameStats } from '../profiles/game-stats.writer.js';

export interface PrimarySyncResult {
  /** PBs whose is_primary flipped. */
  pbs: number;
  /** Profiles (user, game, playtype) whose ratings were recomputed. */
  profiles: number;
}

/**
 * After charts were written (a seed load): scores, personal_bests and pb_ratings keep a copy of
 * their chart's is_primary, taken when the score or PB was written. This brings the copies of
 * the given charts in line with the charts, and recomputes the ratings and derived classes of
 * every profile with a PB on a chart whose flag flipped (profile ratings read primary PBs only;
 * pbs/best reads pb_ratings.is_primary). Charts whose flag did not change cost one index lookup
 * each. Runs in the caller's transaction.
 */
export async function syncChartPrimaryFlags(tx: Tx, chartIDs: readonly string[]): Promise<PrimarySyncResult> {
  if (chartIDs.length === 0) return { pbs: 0, profiles: 0 };
  // The PBs lead (pbs_chart_rank_idx); scores and pb_ratings follow through their (user_id, chart_id) keys.
  const flipped = await queryRows<{ user_id: number; game: string; playtype: string }>(
    tx,
    sql`
    WITH flipped AS (
      UPDATE ${personalBests} pb SET is_primary = c.is_primary
      FROM ${charts} c
      WHERE pb.chart_id = ANY(${sql.param([...chartIDs])}::text[]) AND c.chart_id = pb.chart_id AND pb.is_primary <> c.is_primary
      RETURNING pb.user_id, pb.chart_id, pb.game, pb.playtype, pb.is_primary
    ),
    ratings AS (
      UPDATE ${pbRatings} r SET is_primary = f.is_primary
      FROM flipped f
      WHERE r.user_id = f.user_id AND r.chart_id = f.chart_id AND r.is_primary <> f.is_primary
    ),
    plays AS (
      UPDATE ${scores} s SET is_primary = f.is_primary
      FROM flipped f
      WHERE s.user_id = f.user_id AND s.chart_id = f.chart_id AND s.is_primary <> f.is_primary
    )
    SELECT user_id, game, playtype FROM flipped`,
  );
  const profiles = new Map<string, { userID: number; game: string; playtype: string }>();
  for (const f of flipped) profiles.set(`${f.user_id}:${f.game}:${f.playtype}`, { userID: Number(f.user_id), game: f.game, playtype: f.playtype });
  for (const p of profiles.values()) {
    const gpt = findGpt(p.game, p.playtype);
    if (gpt) await recomputeGameStats(tx, p.userID, gpt);
  }
  return { pbs: flipped.length, profiles: profiles.size };
}
