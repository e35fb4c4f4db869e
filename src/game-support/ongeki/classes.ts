import { classValues, thresholdClass } from '../common/classes.js';
import type { ClassSet } from '../types.js';

/** [id, display, hoverText, lower bound of the profile naiveRatingRefresh], ascending. */
const COLOURS: readonly (readonly [string, string, string, number])[] = [
  ['BLUE', '水', 'Blue: 0.000~3.999 Rating', 0],
  ['GREEN', '緑', 'Green: 4.000~6.999 Rating', 4],
  ['ORANGE', '橙', 'Orange: 7.000~8.999 Rating', 7],
  ['RED', '赤', 'Red: 9.000~10.999 Rating', 9],
  ['PURPLE', '紫', 'Purple: 11.000~12.999 Rating', 11],
  ['COPPER', '銅', 'Copper: 13.000~14.999 Rating', 13],
  ['SILVER', '銀', 'Silver: 15.000~16.999 Rating', 15],
  ['GOLD', '金', 'Gold: 17.000~17.999 Rating', 17],
  ['PLATINUM', '鉑', 'Platinum: 18.000~18.999 Rating', 18],
  ['RAINBOW', '虹', 'Rainbow: 19.000~19.999 Rating', 19],
  ['RAINBOW_SHINY', '虹(光)', 'Rainbow Shiny: 20.000~20.999 Rating', 20],
  ['RAINBOW_EX', '虹(極)', 'Rainbow Extreme: 21.000~ Rating', 21],
];

/** The rating colour, derived from the Re:Fresh-style profile rating. */
export const ONGEKI_COLOUR: ClassSet = {
  type: 'DERIVED',
  downgradable: true,
  values: classValues(COLOURS.map(([id, display, hover]) => [id, display, hover] as const)),
  derive: thresholdClass(
    'naiveRatingRefresh',
    COLOURS.map(([id, , , bound]) => [id, bound] as const),
  ),
};
