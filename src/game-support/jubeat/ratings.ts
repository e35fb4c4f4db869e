import { Jubility } from 'rg-stats';
import { fixedSum, meanOfBest, sumOfBestFixed } from '../common/aggregate.js';
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

/** What the jubility breakdown needs of a rated PB. */
export interface JubilityEntry {
  calculatedData: Readonly<Record<string, number | null>>;
  chart: { difficulty: string };
  song: { id: number; data: Readonly<Record<string, unknown>> };
}

/** How many PBs count on either side of profile jubility. */
export const JUBILITY_COUNTED = 30;

/**
 * The PBs profile jubility counts: the best PB per song and difficulty family (by jubility, the
 * first of equals), then the best 30 on PICK UP songs and the best 30 on the others, best first
 * (equals in the order given). Tachi's client shows these two lists as the jubility breakdown.
 */
export function jubilityBreakdown<S extends JubilityEntry>(scores: readonly S[]): { pickUp: S[]; other: S[] } {
  const best = new Map<string, { score: S; value: number }>();
  for (const score of scores) {
    const value = score.calculatedData.jubility;
    if (typeof value !== 'number' || !Number.isFinite(value)) continue;
    const key = `${score.song.id}\u0000${family(score.chart.difficulty)}`;
    const held = best.get(key);
    if (!held || value > held.value) best.set(key, { score, value });
  }
  const ranked = [...best.values()].sort((a, b) => b.value - a.value);
  const side = (pickUp: boolean) =>
    ranked
      .filter((e) => (e.score.song.data.displayVersion === PICK_UP_VERSION) === pickUp)
      .slice(0, JUBILITY_COUNTED)
      .map((e) => e.score);
  return { pickUp: side(true), other: side(false) };
}

/** Best 30 jubilities on PICK UP songs plus best 30 on the others, one per song and difficulty family; 0 with none. */
export const JUBILITY_PROFILE: AggregateRatingAlg = {
  description: 'Your profile jubility. This takes your best 30 scores on PICK UP songs, and your best 30 elsewhere.',
  calculate(scores) {
    const { pickUp, other } = jubilityBreakdown(scores);
    return fixedSum(
      [...pickUp, ...other].map((s) => s.calculatedData.jubility as number),
      TENTHS,
    );
  },
};

export const NAIVE_JUBILITY: AggregateRatingAlg = sumOfBestFixed(
  'jubility',
  60,
  TENTHS,
  'A naive version of jubility which just adds together your best 60 scores.',
);
