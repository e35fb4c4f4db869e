import { MaimaiDXRate } from 'rg-stats';
import { meanOfBest, sumOfBestFixed } from '../common/aggregate.js';
import { safeScoreAlg } from '../common/ratings.js';
import type { AggregateRatingAlg, ScoreRatingAlg } from '../types.js';

/**
 * rg-stats MaimaiDXRate: floor(achievement (capped at 100.5%) × rank coefficient × level). As in HEAD, the lamp
 * is not passed, so there is no ALL PERFECT bonus.
 */
export const RATE: ScoreRatingAlg = safeScoreAlg("Rating as it's implemented in game.", (scoreData, chart) =>
  MaimaiDXRate.calculate(scoreData.percent, chart.levelNum),
);

export const RATE_SESSION: AggregateRatingAlg = meanOfBest('rate', 10, 'The average of your best 10 ratings this session.');

/** Rates are integers: summed as such (a rate that is not one, from a stored score, is rounded first). */
export const NAIVE_RATE_PROFILE: AggregateRatingAlg = sumOfBestFixed('rate', 50, 1, 'A naive rating algorithm that just sums your 50 best scores.');
