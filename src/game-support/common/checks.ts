import type { ChartInfo } from '../types.js';

/** A finite number from chart data, or undefined when the field is absent or not a number. */
export function chartNumber(chart: ChartInfo, key: string): number | undefined {
  const value = chart.data[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** Whether value comes at or after minimum in an ascending enum (lamps, clear lamps). */
export function atLeast(order: readonly string[], value: string, minimum: string): boolean {
  return order.indexOf(value) >= order.indexOf(minimum);
}
