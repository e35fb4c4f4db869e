import { classValues, thresholdClass } from '../common/classes.js';
import type { ClassSet } from '../types.js';

export const STAGE_UP: ClassSet = {
  type: 'PROVIDED',
  downgradable: false,
  values: classValues(['I', 'II', 'III', 'IV', 'V', 'VI', 'VII', 'VIII', 'IX', 'X', 'XI', 'XII', 'XIII', 'XIV'].map((id) => [id, id] as const)),
};

/** WACCA colours: [id, display, lower bound of naiveRate], ascending. */
const BANDS: readonly (readonly [string, string, number])[] = [
  ['ASH', 'Ash', 0],
  ['NAVY', 'Navy', 300],
  ['YELLOW', 'Yellow', 600],
  ['RED', 'Red', 1000],
  ['PURPLE', 'Purple', 1300],
  ['BLUE', 'Blue', 1600],
  ['SILVER', 'Silver', 1900],
  ['GOLD', 'Gold', 2200],
  ['RAINBOW', 'Rainbow', 2500],
];

/** The colour, derived from the profile naiveRate. */
export const WACCA_COLOUR: ClassSet = {
  type: 'DERIVED',
  downgradable: true,
  values: classValues(BANDS.map(([id, display]) => [id, display] as const)),
  derive: thresholdClass(
    'naiveRate',
    BANDS.map(([id, , bound]) => [id, bound] as const),
  ),
};
