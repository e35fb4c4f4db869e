import { averageOfBest, meanOfBest } from '../common/aggregate.js';
import { exLampAtLeast } from '../common/ex-score.js';
import { safeScoreAlg } from '../common/ratings.js';
import type { AggregateRatingAlg, ScoreRatingAlg } from '../types.js';

const valueOr0 = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

/**
 * Sieglinde, from the chart's sglEC / sglHC (0 when absent): HARD CLEAR or better earns max(hc, ec),
 * EASY CLEAR or CLEAR earns ec, anything lower 0. Shared by BMS and PMS.
 */
export const SIEGLINDE: ScoreRatingAlg = safeScoreAlg(
  'A clearing algorithm that rewards you points based on how difficult an easy clear or hard clear was.',
  (scoreData, chart) => {
    const ec = valueOr0(chart.data.sglEC);
    if (exLampAtLeast(scoreData.lamp, 'HARD CLEAR')) return Math.max(valueOr0(chart.data.sglHC), ec);
    if (exLampAtLeast(scoreData.lamp, 'EASY CLEAR')) return ec;
    return 0;
  },
);

export const SIEGLINDE_SESSION: AggregateRatingAlg = meanOfBest('sieglinde', 10, 'The average of your best 10 sieglinde ratings this session.');

export const SIEGLINDE_PROFILE: AggregateRatingAlg = averageOfBest('sieglinde', 20, 'The average of your best 20 sieglinde ratings.');
