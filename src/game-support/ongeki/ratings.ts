import { ONGEKIRating } from 'rg-stats';
import { averageOfBestFixed, bestValues, meanOfBest } from '../common/aggregate.js';
import { chartNumber } from '../common/checks.js';
import { safeScoreAlg } from '../common/ratings.js';
import type { AggregateRatingAlg, ChartInfo, RatedScore, ScoreRatingAlg } from '../types.js';

type NoteLamp = Parameters<typeof ONGEKIRating.calculateRefresh>[2];

/** Unranked charts (in-game ids 7000–7999, or level 0) give no rating. */
function isUnranked(chart: ChartInfo): boolean {
  const id = chartNumber(chart, 'inGameID');
  return chart.levelNum === 0 || (id !== undefined && id >= 7000 && id <= 7999);
}

/** Platinum stars, 0..6 (6 is rainbow): one per whole percent of the maximum platinum score above 93, capped at 99%. */
export function platinumStars(platinumScore: number, maxPlatScore: number): number {
  const p = Math.floor((100 * platinumScore) / maxPlatScore);
  return Math.max(0, Math.min(p, 99) - 93);
}

/** Technical-score rating, bright MEMORY: rg-stats ONGEKIRating.calculate. */
export const RATING: ScoreRatingAlg = safeScoreAlg("Technical Score-based rating as it's implemented in bright MEMORY.", (scoreData, chart) =>
  isUnranked(chart) ? 0 : ONGEKIRating.calculate(scoreData.score, chart.levelNum),
);

/**
 * Technical-score rating, Re:Fresh: rg-stats ONGEKIRating.calculateRefresh. A missing bellLamp counts as no
 * FULL BELL, except at 1,010,000, which collects every bell.
 */
export const SCORE_RATING: ScoreRatingAlg = safeScoreAlg("Technical Score-based rating as it's implemented in Re:Fresh.", (scoreData, chart) => {
  if (isUnranked(chart)) return 0;
  const fullBell = scoreData.optional.bellLamp === 'FULL BELL' || scoreData.score === 1_010_000;
  return ONGEKIRating.calculateRefresh(chart.levelNum, scoreData.score, scoreData.lamp as NoteLamp, fullBell);
});

/** Platinum-star rating, Re:Fresh: rg-stats ONGEKIRating.calculatePlatinum; null without a platinumScore. */
export const STAR_RATING: ScoreRatingAlg = safeScoreAlg("Platinum Stars-based rating as it's implemented in Re:Fresh.", (scoreData, chart) => {
  if (isUnranked(chart)) return 0;
  const platinumScore = scoreData.optional.platinumScore;
  const maxPlatScore = chartNumber(chart, 'maxPlatScore');
  if (typeof platinumScore !== 'number' || maxPlatScore === undefined || maxPlatScore <= 0) return null;
  return ONGEKIRating.calculatePlatinum(chart.levelNum, platinumStars(platinumScore, maxPlatScore));
});

export const NAIVE_RATING_SESSION = meanOfBest('rating', 10, 'The average of your best 10 classic ratings this session.');
export const NAIVE_SCORE_RATING_SESSION = meanOfBest('scoreRating', 10, 'The average of your best 10 score ratings this session.');
export const STAR_RATING_SESSION = meanOfBest('starRating', 10, 'The average of your best 10 star ratings this session.');

/** Computed in hundredths, as the game shows it. */
export const NAIVE_RATING_PROFILE = averageOfBestFixed(
  'rating',
  45,
  100,
  'The average of your best 45 ClassicRatings. This is a simpler variant of the rating algorithm used in bright MEMORY and earlier versions, without distinguishing between new and old charts, and without taking recent scores into account.',
);

/** The best n values in thousandths, summed and divided by n (even with fewer), floored; undefined with none. */
function thousandthsAverage(scores: readonly RatedScore[], alg: string, n: number): number | undefined {
  const values = bestValues(scores, alg);
  if (values.length === 0) return undefined;
  return Math.floor(values.slice(0, n).reduce((a, b) => a + Math.round(b * 1000), 0) / n);
}

/**
 * 1.2 × (average of the best 60 scoreRatings) + (average of the best 50 starRatings), in thousandths.
 * A part with no values counts as 0 (plays imported without platinumScore have no starRating).
 */
export const NAIVE_RATING_REFRESH_PROFILE: AggregateRatingAlg = {
  description:
    'A weighted sum of the average of your best 60 ScoreRatings, and your best 50 StarRatings. This is a simpler variant of the rating algorithm used in Re:Fresh, without distinguishing between new and old charts.',
  calculate(scores) {
    const score = thousandthsAverage(scores, 'scoreRating', 60);
    const star = thousandthsAverage(scores, 'starRating', 50);
    if (score === undefined && star === undefined) return null;
    // × 12 / 10 rather than × 1.2 keeps the floor exact on integers.
    return (Math.floor(((score ?? 0) * 12) / 10) + (star ?? 0)) / 1000;
  },
};
