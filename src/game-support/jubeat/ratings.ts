import { Jubility } from 'rg-stats';
import { bestPerKey, fixedSum, meanOfBest, sumOfBestFixed, topN } from '../common/aggregate.js';
import { safeScoreAlg } from '../common/ratings.js';
import type { AggregateRatingAlg, ScoreRatingAlg } from '../types.js';

/** The version whose songs are PICK UP (HOT) for profile jubility. */
export const PICK_UP_VERSION = 'ave';

/** Jubility from rg-stats: 0 below 700,000 points, else about level × music rate × 12.5 / 99, floored to 0.1. */
export const JUBILITY: ScoreRatingAlg = safeScoreAlg("Jubility as it's implemented in game.", (scoreData, chart) =>
  Jubility.calculate(scoreData.score, scoreData.percent, chart.levelNum),
);

export const JUBILITY_SESSION: AggregateRatingAlg = meanOfBest('jubility', 10, 'The average of your best 10 jubilities this session.');

/** BSC and HARD BSC (likewise ADV, EXT) are one family: only the better of the two counts. */
function family(difficulty: string): string {
  return difficulty.replace(/^HARD /, '');
}

/** Jubility has 0.1 steps: profile sums add tenths, exactly (class bounds are compared with >=). */
const TENTHS = 10;

/** Best 30 jubilities on PICK UP songs plus best 30 on the others, one per song and difficulty family; 0 with none. */
export const JUBILITY_PROFILE: AggregateRatingAlg = {
  description: 'Your profile jubility. This takes your best 30 scores on PICK UP songs, and your best 30 elsewhere.',
  calculate(scores) {
    const pickUp: number[] = [];
    const other: number[] = [];
    for (const { score, value } of bestPerKey(scores, 'jubility', (s) => `${s.song.id}\u0000${family(s.chart.difficulty)}`)) {
      (score.song.data.displayVersion === PICK_UP_VERSION ? pickUp : other).push(value);
    }
    return fixedSum([...topN(pickUp, 30), ...topN(other, 30)], TENTHS);
  },
};

export const NAIVE_JUBILITY: AggregateRatingAlg = sumOfBestFixed(
  'jubility',
  60,
  TENTHS,
  'A naive version of jubility which just adds together your best 60 scores.',
);
