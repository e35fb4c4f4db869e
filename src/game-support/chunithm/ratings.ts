import { CHUNITHMRating } from 'rg-stats';
import { averageOfBestFixed, meanOfBest } from '../common/aggregate.js';
import { safeScoreAlg } from '../common/ratings.js';
import type { AggregateRatingAlg, ScoreRatingAlg } from '../types.js';

/** The in-game rating from rg-stats: piecewise in the score around the internal constant, floored to 0.01. */
export const RATING: ScoreRatingAlg = safeScoreAlg('The rating value of this score. This is identical to the system used in game.', (scoreData, chart) =>
  CHUNITHMRating.calculate(scoreData.score, chart.levelNum),
);

export const NAIVE_RATING_SESSION: AggregateRatingAlg = meanOfBest('rating', 10, 'The average of your best 10 ratings this session.');

/** Computed in hundredths, as the game shows it. */
export const NAIVE_RATING_PROFILE: AggregateRatingAlg = averageOfBestFixed('rating', 50, 100, 'The average of your best 50 ratings.');
