import type { ScoreData } from '../../game-support/types.js';

/** beatoraja's ClearType id of each EX lamp (NO PLAY … FULL COMBO); ASSIST CLEAR is its LightAssistEasy. */
export const CLEAR_ID_OF_LAMP_INDEX: readonly number[] = [0, 1, 3, 4, 5, 6, 7, 8];

const TIMING_COUNTS = ['epg', 'lpg', 'egr', 'lgr', 'egd', 'lgd', 'ebd', 'lbd', 'epr', 'lpr'] as const;

/** One entry of a chart's ranking, in the shape beatoraja's IR reads (its score data fields). */
export interface BeatorajaRankingScore extends Record<(typeof TIMING_COUNTS)[number], number> {
  sha256: string;
  /** The player's name; "" marks the requester's own score. */
  player: string;
  playcount: number;
  clear: number;
  /** Unix ms of the PB, 0 when unknown. */
  date: number;
  deviceType: null;
  random: null;
  gauge: number;
  passnotes: number;
  minbp: number;
  notes: number;
  maxcombo: number;
  ems: number;
  lms: number;
}

const countOf = (optional: ScoreData['optional'], key: string) => {
  const v = optional[key];
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : 0;
};

/**
 * A PB as a ranking entry. beatoraja computes the EX score from the PGREAT and GREAT counts, so
 * when the stored timing counts do not add up to the PB's score (a PB merged from several plays,
 * or one from another source) they are replaced by counts that do. Misses are kept in the poors.
 */
export function toBeatorajaRankingScore(
  pb: { scoreData: ScoreData; timeAchieved: number | null },
  sha256: string,
  player: string,
  notecount: number,
): BeatorajaRankingScore {
  const { optional, score, lampIndex } = pb.scoreData;
  const counts = Object.fromEntries(TIMING_COUNTS.map((k) => [k, countOf(optional, k)])) as Record<(typeof TIMING_COUNTS)[number], number>;
  if ((counts.epg + counts.lpg) * 2 + counts.egr + counts.lgr !== score) {
    counts.epg = Math.floor(score / 2);
    counts.egr = score % 2;
    counts.lpg = 0;
    counts.lgr = 0;
  }
  return {
    sha256,
    player,
    playcount: 0,
    clear: CLEAR_ID_OF_LAMP_INDEX[lampIndex] ?? 0,
    date: pb.timeAchieved ?? 0,
    deviceType: null,
    random: null,
    gauge: typeof optional.gauge === 'number' ? optional.gauge : 0,
    passnotes: 0,
    minbp: countOf(optional, 'bp'),
    notes: notecount,
    maxcombo: countOf(optional, 'maxCombo'),
    ...counts,
    ems: 0,
    lms: 0,
  };
}
