import { classValues, thresholdClass } from '../common/classes.js';
import type { ClassSet } from '../types.js';

/** jubeat colours: [id, display, lower bound of profile jubility], ascending. */
const BANDS: readonly (readonly [string, string, number])[] = [
  ['BLACK', 'Black', 0],
  ['YELLOW_GREEN', 'Yellow-Green', 250],
  ['GREEN', 'Green', 750],
  ['LIGHT_BLUE', 'Light Blue', 1500],
  ['BLUE', 'Blue', 2500],
  ['VIOLET', 'Violet', 4000],
  ['PURPLE', 'Purple', 5500],
  ['PINK', 'Pink', 7000],
  ['ORANGE', 'Orange', 8500],
  ['GOLD', 'Gold', 9500],
];

/** The colour, derived from the profile jubility. */
export const JUBEAT_COLOUR: ClassSet = {
  type: 'DERIVED',
  downgradable: true,
  values: classValues(BANDS.map(([id, display]) => [id, display] as const)),
  derive: thresholdClass(
    'jubility',
    BANDS.map(([id, , bound]) => [id, bound] as const),
  ),
};
