import { classValues, thresholdClass } from '../common/classes.js';
import type { ClassSet } from '../types.js';

export const MAIMAI_DAN: ClassSet = {
  type: 'PROVIDED',
  downgradable: false,
  values: classValues([
    ['DAN_1', '初段', '1st Dan'],
    ['DAN_2', '二段', '2nd Dan'],
    ['DAN_3', '三段', '3rd Dan'],
    ['DAN_4', '四段', '4th Dan'],
    ['DAN_5', '五段', '5th Dan'],
    ['DAN_6', '六段', '6th Dan'],
    ['DAN_7', '七段', '7th Dan'],
    ['DAN_8', '八段', '8th Dan'],
    ['DAN_9', '九段', '9th Dan'],
    ['DAN_10', '十段', '10th Dan'],
    ['KAIDEN', '皆伝', 'Kaiden'],
    ['SHINDAN_1', '真初段', '1st Shindan'],
    ['SHINDAN_2', '真二段', '2nd Shindan'],
    ['SHINDAN_3', '真三段', '3rd Shindan'],
    ['SHINDAN_4', '真四段', '4th Shindan'],
    ['SHINDAN_5', '真五段', '5th Shindan'],
    ['SHINDAN_6', '真六段', '6th Shindan'],
    ['SHINDAN_7', '真七段', '7th Shindan'],
    ['SHINDAN_8', '真八段', '8th Shindan'],
    ['SHINDAN_9', '真九段', '9th Shindan'],
    ['SHINDAN_10', '真十段', '10th Shindan'],
    ['SHINKAIDEN', '真皆伝', 'Shinkaiden'],
  ]),
};

/** [id, display, hoverText, lower bound of the profile naiveRate], ascending. */
const COLOURS: readonly (readonly [string, string, string, number])[] = [
  ['WHITE', 'White', '0 - 1.99 Rating', 0],
  ['BLUE', 'Blue', '2 - 3.99 Rating', 2],
  ['GREEN', 'Green', '4 - 6.99 Rating', 4],
  ['YELLOW', 'Yellow', '7 - 9.99 Rating', 7],
  ['RED', 'Red', '10 - 11.99 Rating', 10],
  ['PURPLE', 'Purple', '12 - 12.99 Rating', 12],
  ['BRONZE', 'Bronze', '13 - 13.99 Rating', 13],
  ['SILVER', 'Silver', '14 - 14.49 Rating', 14],
  ['GOLD', 'Gold', '14.5 - 14.99 Rating', 14.5],
  ['RAINBOW', 'Rainbow', '>=15 Rating', 15],
];

/** The rating colour, derived from the profile naiveRate (average of the best 30). */
export const MAIMAI_COLOUR: ClassSet = {
  type: 'DERIVED',
  downgradable: true,
  values: classValues(COLOURS.map(([id, display, hover]) => [id, display, hover] as const)),
  derive: thresholdClass(
    'naiveRate',
    COLOURS.map(([id, , , bound]) => [id, bound] as const),
  ),
};
