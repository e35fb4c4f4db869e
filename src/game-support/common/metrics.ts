import { z } from 'zod';

/** Building blocks for optional-metric, scoreMeta and chart-data schemas. Optional metrics are nullable. */
export const nonNegInt = () => z.number().int().nonnegative().nullable().optional();
export const decimalIn = (min: number, max: number) => z.number().min(min).max(max).nullable().optional();
export const graphOf = (min: number, max: number) => z.array(z.number().min(min).max(max).nullable()).nullable().optional();
export const oneOf = <T extends readonly [string, ...string[]]>(values: T) => z.enum(values).nullable().optional();

/** fast / slow / maxCombo, which nearly every game reports. */
export const COMMON_OPTIONAL = { fast: nonNegInt(), slow: nonNegInt(), maxCombo: nonNegInt() };

/** A HEAD-style tier entry in chart data: {value, text, individualDifference?}, or null. */
export const tierEntry = () => z.object({ value: z.number(), text: z.string(), individualDifference: z.boolean().optional() }).nullable().optional();

/** inGameID: an integer, or a list of them where one chart has several ids. */
export const inGameID = () => z.union([z.number().int(), z.array(z.number().int())]);

export const EMPTY_STRICT = z.strictObject({});
