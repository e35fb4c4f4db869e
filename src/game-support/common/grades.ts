/**
 * The grade of a value: the highest grade whose inclusive lower bound is at or below it.
 * Comparison is exact (no epsilon), in the unit the boundaries are given in.
 */
export function gradeIndexFor(value: number, boundaries: readonly number[]): number {
  for (let i = boundaries.length - 1; i >= 0; i--) {
    if (value >= boundaries[i]) return i;
  }
  return 0;
}

/** IIDX/BMS/PMS boundaries are ninths of 100, computed as (100 * k) / 9 in that order of operations. */
export function ninths(k: number): number {
  return (100 * k) / 9;
}
