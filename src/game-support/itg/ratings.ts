import { ITGHighestUnbroken } from 'rg-stats';
import { highest, meanOfBest } from '../common/aggregate.js';
import { chartNumber } from '../common/checks.js';
import { safeScoreAlg } from '../common/ratings.js';
import type { AggregateRatingAlg, ChartInfo, ScoreRatingAlg } from '../types.js';

function numbers(chart: ChartInfo, key: string): number[] | undefined {
  const value = chart.data[key];
  return Array.isArray(value) && value.every((v) => typeof v === 'number') ? (value as number[]) : undefined;
}

/** A clear is worth the chart's ranked (block) level; fails and unranked charts are worth nothing (null). */
export const BLOCK_RATING: ScoreRatingAlg = safeScoreAlg('How much this clear is worth.', (scoreData, chart) =>
  scoreData.lamp === 'FAILED' ? null : (chartNumber(chart, 'rankedLevel') ?? null),
);

/**
 * The fastest 32 unbroken measures of stream played, from rg-stats, in BPM. A fail only counts the measures before
 * it died (survivedPercent of the chart), and is null when that is unknown. Below 100 BPM is null.
 */
export const FASTEST_32: ScoreRatingAlg = safeScoreAlg('The fastest BPM this score streamed 32 measures straight for.', (scoreData, chart) => {
  const nps = numbers(chart, 'npsPerMeasure');
  const notes = numbers(chart, 'notesPerMeasure');
  if (!nps || !notes) return null;
  let diedAt: number | null = null;
  if (scoreData.lamp === 'FAILED') {
    const survived = scoreData.optional.survivedPercent;
    if (typeof survived !== 'number') return null;
    diedAt = (survived / 100) * nps.length;
  }
  const bpm = ITGHighestUnbroken.calculateFromNPSPerMeasure(nps, notes, diedAt, 32);
  return bpm !== null && bpm >= 100 ? bpm : null;
});

export const BLOCK_RATING_SESSION: AggregateRatingAlg = meanOfBest('blockRating', 5, 'An average of your best 5 block levels cleared this session.');

export const HIGHEST_BLOCK: AggregateRatingAlg = highest('blockRating', 'The highest block level this player has cleared.');

export const FASTEST_32_PROFILE: AggregateRatingAlg = highest('fastest32', 'The fastest BPM this user has streamed 32 unbroken measures at.');
