import { Potential } from 'rg-stats';
import { averageOfBest, meanOfBest } from '../common/aggregate.js';
import { safeScoreAlg } from '../common/ratings.js';
import type { AggregateRatingAlg, ScoreRatingAlg } from '../types.js';

/** rg-stats Potential: L + 2 from 10M, L + 1 + per 20,000 from 9.8M, L + per 30,000 around 9.5M, at least 0. */
export const POTENTIAL: ScoreRatingAlg = safeScoreAlg('Potential as it is implemented in Arcaea.', (scoreData, chart) =>
  Potential.calculate(scoreData.score, chart.levelNum),
);

export const NAIVE_POTENTIAL_SESSION: AggregateRatingAlg = meanOfBest('potential', 10, 'The average of your best 10 potentials this session.');

export const NAIVE_POTENTIAL_PROFILE: AggregateRatingAlg = averageOfBest(
  'potential',
  30,
  'The average of your best 30 potential values. This is different to in-game, as it does not take into account your recent scores in any way.',
);
