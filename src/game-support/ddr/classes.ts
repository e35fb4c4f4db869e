import { classValues, thresholdClass } from '../common/classes.js';
import type { ClassSet } from '../types.js';

const TIERS: readonly [string, string, number, number][] = [
  // [id, display, lower bound of the plain tier, step between the plain tier and +, ++, +++]
  ['NONE', 'NONE', 0, 500],
  ['MERCURY', '水星 / MERCURY', 2000, 1000],
  ['VENUS', '金星 / VENUS', 6000, 1000],
  ['EARTH', '地球 / EARTH', 10000, 1500],
  ['MARS', '火星 / MARS', 16000, 2000],
  ['JUPITER', '木星 / JUPITER', 24000, 2500],
  ['SATURN', '土星 / SATURN', 34000, 2750],
  ['URANUS', '天王星 / URANUS', 45000, 3750],
  ['NEPTUNE', '海王星 / NEPTUNE', 60000, 3750],
  ['SUN', '太陽 / SUN', 75000, 3750],
];
const SUFFIXES = ['', '+', '++', '+++'];

/** Flare classes: [id, display, lower bound of profile flareSkill], ascending. WORLD has no + steps. */
export const FLARE_CLASS_BANDS: readonly (readonly [string, string, number])[] = [
  ...TIERS.flatMap(([id, display, start, step]) => SUFFIXES.map((s, i) => [`${id}${s}`, `${display}${s}`, start + i * step] as const)),
  ['WORLD', '世界 / WORLD', 90000],
];

/** The flare class, derived from the profile flareSkill. */
export const FLARE_CLASS: ClassSet = {
  type: 'DERIVED',
  downgradable: true,
  values: classValues(FLARE_CLASS_BANDS.map(([id, display]) => [id, display] as const)),
  derive: thresholdClass(
    'flareSkill',
    FLARE_CLASS_BANDS.map(([id, , bound]) => [id, bound] as const),
  ),
};
