import { Volforce } from 'rg-stats';
import { meanOfBest, sumOfBestFixed } from '../common/aggregate.js';
import { safeScoreAlg } from '../common/ratings.js';
import type { AggregateRatingAlg, ScoreRatingAlg } from '../types.js';

/** VF6 from rg-stats: level × 2 × score/1e7 × grade coefficient × lamp coefficient, floored to 0.001. */
export const VF6: ScoreRatingAlg = safeScoreAlg('VOLFORCE as it is implemented in SDVX6.', (scoreData, chart) =>
  Volforce.calculateVF6(scoreData.score, scoreData.lamp as Parameters<typeof Volforce.calculateVF6>[1], chart.levelNum),
);

/** The session's best 10 VF6, averaged and scaled ×50 to read like profile VOLFORCE. */
export const PROFILE_VF6_SESSION: AggregateRatingAlg = meanOfBest(
  'VF6',
  10,
  'The average of your best 10 VF6s this session, multiplied to be on the same scale as profile VOLFORCE.',
  50,
);

/** VF6 has 0.001 steps: the sum adds thousandths, exactly, so a VOLFORCE of exactly 20 is Imperial I. */
export const VF6_PROFILE: AggregateRatingAlg = sumOfBestFixed('VF6', 50, 1000, 'Your best 50 VF6 values added together.');
