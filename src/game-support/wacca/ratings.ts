import { WACCARate } from 'rg-stats';
import { fixedSum, meanOfBest, sumOfBestFixed, topN } from '../common/aggregate.js';
import { safeScoreAlg } from '../common/ratings.js';
import type { AggregateRatingAlg, ScoreRatingAlg } from '../types.js';

/** Rates have 3 decimals: profile sums add thousandths, exactly (colour bounds are compared with >=). */
const THOUSANDTHS = 1000;

/** Rate from rg-stats (REVERSE table): a score band's coefficient (1 to 4) × the internal level, to 3 decimals. */
export const RATE: ScoreRatingAlg = safeScoreAlg("Rating as it's implemented in game.", (scoreData, chart) =>
  WACCARate.calculate(scoreData.score, chart.levelNum),
);

export const RATE_SESSION: AggregateRatingAlg = meanOfBest('rate', 10, 'The average of your best 10 ratings this session.');

export const NAIVE_RATE: AggregateRatingAlg = sumOfBestFixed('rate', 50, THOUSANDTHS, 'A naive rating algorithm that just sums your 50 best scores.');

/**
 * The in-game rate (2.2.0's `rate`): the best 15 on charts whose `data.isHot` is true plus the best 35 on charts
 * whose `data.isHot` is false, summed; null with neither. A chart that does not say (HEAD's seeds carry no isHot)
 * is in neither half, as in Tachi, which looked the two halves up by isHot true and isHot false.
 */
export const HOT_COLD_RATE: AggregateRatingAlg = {
  description: 'Your rate as it is in game: your best 15 scores on HOT (new) charts plus your best 35 on the other charts.',
  calculate(scores) {
    const hot: number[] = [];
    const cold: number[] = [];
    for (const s of scores) {
      const value = s.calculatedData.rate;
      if (typeof value !== 'number' || !Number.isFinite(value)) continue;
      if (s.chart.data.isHot === true) hot.push(value);
      else if (s.chart.data.isHot === false) cold.push(value);
    }
    if (hot.length + cold.length === 0) return null;
    return fixedSum([...topN(hot, 15), ...topN(cold, 35)], THOUSANDTHS);
  },
};
