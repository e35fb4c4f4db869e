import type { ClassValue } from '../types.js';

/** Class values from [id, display, hoverText?] tuples, ascending. */
export function classValues(entries: readonly (readonly [string, string, string?])[]): ClassValue[] {
  return entries.map(([id, display, hoverText]) => (hoverText === undefined ? { id, display } : { id, display, hoverText }));
}

/**
 * A derived class from a profile rating: the last [id, lowerBound] whose bound the rating reaches
 * (bounds ascending, inclusive). Null when the rating is null.
 */
export function thresholdClass(rating: string, thresholds: readonly (readonly [string, number])[]) {
  return (ratings: Readonly<Record<string, number | null>>): string | null => {
    const value = ratings[rating];
    if (typeof value !== 'number' || !Number.isFinite(value)) return null;
    let result: string | null = null;
    for (const [id, bound] of thresholds) {
      if (value >= bound) result = id;
    }
    return result ?? thresholds[0][0];
  };
}
