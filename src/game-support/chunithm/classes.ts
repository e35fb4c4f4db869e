import { classValues, thresholdClass } from '../common/classes.js';
import type { ClassSet } from '../types.js';

/** The class (dan) and emblem ladders share their values. */
const CLASS_LADDER = classValues([
  ['DAN_I', 'I', 'Class I'],
  ['DAN_II', 'II', 'Class II'],
  ['DAN_III', 'III', 'Class III'],
  ['DAN_IV', 'IV', 'Class IV'],
  ['DAN_V', 'V', 'Class V'],
  ['DAN_INFINITE', '∞', 'Infinite Class'],
]);

export const CHUNITHM_DAN: ClassSet = { type: 'PROVIDED', downgradable: false, values: CLASS_LADDER };
export const CHUNITHM_EMBLEM: ClassSet = { type: 'PROVIDED', downgradable: false, values: CLASS_LADDER };

/** [id, display, hoverText, lower bound of the profile naiveRating], ascending. */
const COLOURS: readonly (readonly [string, string, string, number])[] = [
  ['BLUE', '青', 'Blue: 0 - 1.99 Rating', 0],
  ['GREEN', '緑', 'Green: 2 - 3.99 Rating', 2],
  ['ORANGE', '橙', 'Orange: 4 - 6.99 Rating', 4],
  ['RED', '赤', 'Red: 7 - 9.99 Rating', 7],
  ['PURPLE', '紫', 'Purple: 10 - 11.99 Rating', 10],
  ['COPPER', '銅', 'Copper: 12 - 13.24 Rating', 12],
  ['SILVER', '銀', 'Silver: 13.25 - 14.49 Rating', 13.25],
  ['GOLD', '金', 'Gold: 14.50 - 15.24 Rating', 14.5],
  ['PLATINUM', '鉑', 'Platinum: 15.25 - 15.99 Rating', 15.25],
  ['RAINBOW', '虹★', 'Rainbow I: >=16 Rating', 16],
  ['RAINBOW_II', '虹★★', 'Rainbow II: >=16.25 Rating', 16.25],
  ['RAINBOW_III', '虹★★★', 'Rainbow III: >=16.5 Rating', 16.5],
  ['RAINBOW_IV', '虹★★★★', 'Rainbow IV: >=16.75 Rating', 16.75],
  ['RAINBOW_EX_I', '虹(極)★', 'Rainbow Extreme I: >=17 Rating', 17],
  ['RAINBOW_EX_II', '虹(極)★★', 'Rainbow Extreme II: >=17.25 Rating', 17.25],
  ['RAINBOW_EX_III', '虹(極)★★★', 'Rainbow Extreme III: >=17.5 Rating', 17.5],
];

/** The rating colour, derived from the profile naiveRating (average of the best 50). */
export const CHUNITHM_COLOUR: ClassSet = {
  type: 'DERIVED',
  downgradable: true,
  values: classValues(COLOURS.map(([id, display, hover]) => [id, display, hover] as const)),
  derive: thresholdClass(
    'naiveRating',
    COLOURS.map(([id, , , bound]) => [id, bound] as const),
  ),
};
