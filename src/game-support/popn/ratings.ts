import { PopnClassPoints } from 'rg-stats';
import { averageOfBest, meanOfBest } from '../common/aggregate.js';
import { safeScoreAlg } from '../common/ratings.js';
import type { AggregateRatingAlg, ScoreRatingAlg } from '../types.js';

/** Class points from rg-stats: 0 up to 50,000 points, else (10000 × level + score − 50000 + clear bonus) / 5440. */
export const CLASS_POINTS: ScoreRatingAlg = safeScoreAlg("Class Points as they're implemented in game.", (scoreData, chart) =>
  PopnClassPoints.calculate(scoreData.score, scoreData.lamp as Parameters<typeof PopnClassPoints.calculate>[1], chart.levelNum),
);

export const CLASS_POINTS_SESSION: AggregateRatingAlg = meanOfBest('classPoints', 10, 'The average of your best 10 class points this session.');

export const NAIVE_CLASS_POINTS: AggregateRatingAlg = averageOfBest(
  'classPoints',
  20,
  'A naive average of your best 20 scores. This is different to in game class points, as that is affected by recent scores, and not just your best scores.',
);
