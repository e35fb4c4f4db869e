import { PoyashiBPI } from 'rg-stats';
import { averageOfBest, meanOfBest } from '../common/aggregate.js';
import { exLampAtLeast } from '../common/ex-score.js';
import { safeScoreAlg } from '../common/ratings.js';
import type { AggregateRatingAlg, ChartInfo, ScoreRatingAlg } from '../types.js';

const KT_LAMP_RATING_DESCRIPTION = 'A rating system that values your clear lamps on charts. Tierlist information is taken into account.';

/** The value of a chart-data tier entry ({value, text, ...}), or undefined when there is none. */
function tierValue(chart: ChartInfo, key: string): number | undefined {
  const entry = chart.data[key];
  if (typeof entry !== 'object' || entry === null || !('value' in entry)) return undefined;
  return typeof entry.value === 'number' && Number.isFinite(entry.value) ? entry.value : undefined;
}

/**
 * SP: nc = NC tier (else the level), hc = max(HC tier, nc), exhc = max(EXHC tier, hc).
 * FULL COMBO and EX HARD CLEAR earn exhc, HARD CLEAR hc, CLEAR nc, anything lower 0.
 */
export const KT_LAMP_RATING_SP: ScoreRatingAlg = safeScoreAlg(KT_LAMP_RATING_DESCRIPTION, (scoreData, chart) => {
  const nc = tierValue(chart, 'ncTier') ?? chart.levelNum;
  const hc = Math.max(tierValue(chart, 'hcTier') ?? 0, nc);
  const exhc = Math.max(tierValue(chart, 'exhcTier') ?? 0, hc);
  if (exLampAtLeast(scoreData.lamp, 'EX HARD CLEAR')) return exhc;
  if (scoreData.lamp === 'HARD CLEAR') return hc;
  if (scoreData.lamp === 'CLEAR') return nc;
  return 0;
});

/** DP: the DP tier (else the level) for EASY CLEAR or better, otherwise 0. */
export const KT_LAMP_RATING_DP: ScoreRatingAlg = safeScoreAlg(KT_LAMP_RATING_DESCRIPTION, (scoreData, chart) =>
  exLampAtLeast(scoreData.lamp, 'EASY CLEAR') ? (tierValue(chart, 'dpTier') ?? chart.levelNum) : 0,
);

/** Poyashi BPI from rg-stats against the chart's kaiden average and world record; null without either. */
export const BPI: ScoreRatingAlg = safeScoreAlg(
  'A rating system for Kaiden level play. Only applies to 11s and 12s. A BPI of 0 states the score is equal to the Kaiden Average for that chart. A BPI of 100 is equal to the world record.',
  (scoreData, chart) => {
    const { kaidenAverage, worldRecord, notecount, bpiCoefficient } = chart.data;
    if (typeof kaidenAverage !== 'number' || typeof worldRecord !== 'number' || typeof notecount !== 'number') return null;
    return PoyashiBPI.calculate(scoreData.score, kaidenAverage, worldRecord, notecount * 2, typeof bpiCoefficient === 'number' ? bpiCoefficient : null);
  },
);

export const KT_LAMP_RATING_SESSION: AggregateRatingAlg = meanOfBest('ktLampRating', 10, 'An average of the best 10 ktLampRatings this session.');
export const BPI_SESSION: AggregateRatingAlg = meanOfBest('BPI', 10, 'An average of the best 10 BPIs this session.');

export const KT_LAMP_RATING_PROFILE: AggregateRatingAlg = averageOfBest('ktLampRating', 20, 'An average of your best 20 ktLampRatings.');
/** BPI is only meaningful over a full 20 charts, so fewer give no profile BPI. */
export const BPI_PROFILE: AggregateRatingAlg = averageOfBest('BPI', 20, 'An average of your best 20 BPIs.', { nullIfFewer: true });
