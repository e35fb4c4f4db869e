import type { AggregateRatingAlg, RatedScore } from '../types.js';

function values(scores: readonly RatedScore[], alg: string): number[] {
  const out: number[] = [];
  for (const s of scores) {
    const v = s.calculatedData[alg];
    if (typeof v === 'number' && Number.isFinite(v)) out.push(v);
  }
  return out.sort((a, b) => b - a);
}

/**
 * An algorithm over the best n values of `alg` (largest first): `calculate` over any scores and
 * `best.of` over the n best values alone are the same function, so they agree exactly.
 */
function ofBest(alg: string, n: number, description: string, of: (best: readonly number[]) => number | null): AggregateRatingAlg {
  return {
    description,
    calculate: (scores) => of(values(scores, alg).slice(0, n)),
    best: { alg, n, of },
  };
}

/** Session: the mean of the best n values of a score algorithm; null when fewer than n scores have one. */
export function meanOfBest(alg: string, n: number, description: string, multiplier = 1): AggregateRatingAlg {
  return ofBest(alg, n, description, (v) => (v.length < n ? null : (v.reduce((a, b) => a + b, 0) / n) * multiplier));
}

/** Profile: the sum of the best n values divided by n, even with fewer than n; null with none (or, if nullIfFewer, with fewer than n). */
export function averageOfBest(alg: string, n: number, description: string, options: { nullIfFewer?: boolean } = {}): AggregateRatingAlg {
  return ofBest(alg, n, description, (v) => (v.length === 0 || (options.nullIfFewer && v.length < n) ? null : v.reduce((a, b) => a + b, 0) / n));
}

/**
 * Profile, in fixed point: each of the best n values rounded to 1/multiplier, summed, the sum over n
 * floored to an integer of 1/multiplier units, then scaled back (CHUNITHM and ONGEKI show ratings this way).
 */
export function averageOfBestFixed(alg: string, n: number, multiplier: number, description: string): AggregateRatingAlg {
  return ofBest(alg, n, description, (v) => {
    if (v.length === 0) return null;
    const sum = v.reduce((a, b) => a + Math.round(b * multiplier), 0);
    return Math.floor(sum / n) / multiplier;
  });
}

/**
 * A sum of values that each have at most `1/multiplier` precision (VF6 0.001, skill 0.01…), added as integers of
 * 1/multiplier: a float sum drifts (0.1 + 0.2 ≠ 0.3) and would miss class boundaries, which are compared with >=.
 */
export function fixedSum(values: readonly number[], multiplier: number): number {
  return values.reduce((a, b) => a + Math.round(b * multiplier), 0) / multiplier;
}

/** Profile: the sum of the best n values, exactly (see fixedSum); null with none. */
export function sumOfBestFixed(alg: string, n: number, multiplier: number, description: string): AggregateRatingAlg {
  return ofBest(alg, n, description, (v) => (v.length === 0 ? null : fixedSum(v, multiplier)));
}

/** Profile: the plain sum of the best n values; null with none. */
export function sumOfBest(alg: string, n: number, description: string): AggregateRatingAlg {
  return ofBest(alg, n, description, (v) => (v.length === 0 ? null : v.reduce((a, b) => a + b, 0)));
}

/** Profile: the single best value; null with none. */
export function highest(alg: string, description: string): AggregateRatingAlg {
  return sumOfBest(alg, 1, description);
}

/**
 * For "one chart per song"-style profiles: each score with a numeric value of alg, keeping only the best one per
 * key (ties: the first).
 */
export function bestPerKey(scores: readonly RatedScore[], alg: string, key: (score: RatedScore) => string): { score: RatedScore; value: number }[] {
  const best = new Map<string, { score: RatedScore; value: number }>();
  for (const score of scores) {
    const value = score.calculatedData[alg];
    if (typeof value !== 'number' || !Number.isFinite(value)) continue;
    const k = key(score);
    const held = best.get(k);
    if (!held || value > held.value) best.set(k, { score, value });
  }
  return [...best.values()];
}

/** The n largest of values, largest first. */
export function topN(values: readonly number[], n: number): number[] {
  return [...values].sort((a, b) => b - a).slice(0, n);
}

/** The numeric values of one algorithm over scores, best first (for game-specific aggregations). */
export function bestValues(scores: readonly RatedScore[], alg: string): number[] {
  return values(scores, alg);
}
