import { MaimaiRate } from 'rg-stats';
import { averageOfBest, meanOfBest } from '../common/aggregate.js';
import { chartNumber } from '../common/checks.js';
import { safeScoreAlg } from '../common/ratings.js';
import type { AggregateRatingAlg, ChartInfo, ScoreRatingAlg } from '../types.js';

/** The chart's highest reachable percent (it depends on its BREAK notes), when the chart data has a valid one. */
export function maxPercentOf(chart: ChartInfo): number | undefined {
  const max = chartNumber(chart, 'maxPercent');
  return max !== undefined && max > 0 && max <= 104 ? max : undefined;
}

/** rg-stats MaimaiRate: a per-level curve between rank anchors, with the chart's max percent at its top. */
export const RATE: ScoreRatingAlg = safeScoreAlg("Rating as it's implemented in game.", (scoreData, chart) => {
  const max = maxPercentOf(chart);
  return max === undefined ? null : MaimaiRate.calculate(scoreData.percent, max, chart.levelNum);
});

export const RATE_SESSION: AggregateRatingAlg = meanOfBest('rate', 10, 'The average of your best 10 ratings this session.');

export const NAIVE_RATE_PROFILE: AggregateRatingAlg = averageOfBest(
  'rate',
  30,
  'An average of your 30 best ratings. This is different from the rating in-game, as that is song-based and takes into account recent scores.',
);
