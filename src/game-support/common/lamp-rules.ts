import type { ChartInfo, ScoreInput } from '../types.js';

/** A deriveWith `validate` check: a message refuses the score. */
export type ScoreCheck = (input: ScoreInput, chart: ChartInfo) => string | undefined;

/** Several checks run in order; the first message wins. */
export function allChecks(...checks: readonly ScoreCheck[]): ScoreCheck {
  return (input, chart) => {
    for (const check of checks) {
      const error = check(input, chart);
      if (error) return error;
    }
    return undefined;
  };
}

/**
 * Lamps that allow none of some judgements (e.g. a FULL COMBO has no miss): lamp → judgement names.
 * A judgement that was not reported passes.
 */
export function forbiddenJudgements(rules: Readonly<Record<string, readonly string[]>>): ScoreCheck {
  return (input) => {
    const found = (rules[input.lamp] ?? []).filter((name) => (input.judgements[name] ?? 0) > 0);
    return found.length > 0 ? `A ${input.lamp} cannot have ${found.join(' or ')} judgements.` : undefined;
  };
}

/** A lamp that goes with exactly one score, both ways (e.g. ALL MARVELOUS and 1,000,000). */
export function lampIffScore(lamp: string, score: number): ScoreCheck {
  const shown = score.toLocaleString('en-US');
  return (input) => {
    if (input.lamp === lamp && input.score !== score) return `A ${lamp} must have a score of ${shown}.`;
    if (input.lamp !== lamp && input.score === score) return `A score of ${shown} must have the lamp ${lamp}.`;
    return undefined;
  };
}

/** Games whose clear is a score threshold: below it the lamp must be FAILED, at or above it it must not be. */
export function failedIffBelow(threshold: number): ScoreCheck {
  const shown = threshold.toLocaleString('en-US');
  return (input) => {
    if (input.lamp === 'FAILED' && input.score >= threshold) return `A score of ${shown} or more is a clear, so it cannot be FAILED.`;
    if (input.lamp !== 'FAILED' && input.score < threshold) return `A score below ${shown} is a fail, so its lamp must be FAILED.`;
    return undefined;
  };
}

/** The counts of these judgements, in the order named, or undefined when any of them was not reported. */
export function judgementCounts(input: ScoreInput, names: readonly string[]): number[] | undefined {
  const counts: number[] = [];
  for (const name of names) {
    const n = input.judgements[name];
    if (typeof n !== 'number') return undefined;
    counts.push(n);
  }
  return counts;
}
