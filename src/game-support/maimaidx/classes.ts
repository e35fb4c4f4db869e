import { classValues, thresholdClass } from '../common/classes.js';
import type { ClassSet } from '../types.js';

export const MAIMAIDX_DAN: ClassSet = {
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
    ['URAKAIDEN', '裏皆伝', 'Urakaiden'],
  ]),
};

/** B5 … B1, A5 … A1, …, SSS1: each id once (HEAD lists A5 twice, which would give one class two indexes). */
const MATCHING_CLASSES = ['B', 'A', 'S', 'SS', 'SSS'].flatMap((tier) => [5, 4, 3, 2, 1].map((n) => `${tier}${n}`));

export const MAIMAIDX_MATCHING_CLASS: ClassSet = {
  type: 'PROVIDED',
  downgradable: false,
  values: classValues([...MATCHING_CLASSES.map((id) => [id, id] as const), ['LEGEND', 'Legend']]),
};

/** [id, display, hoverText, lower bound of the profile naiveRate], ascending. */
const COLOURS: readonly (readonly [string, string, string, number])[] = [
  ['WHITE', 'White', '0 - 999 Rating', 0],
  ['BLUE', 'Blue', '1000 - 1999 Rating', 1000],
  ['GREEN', 'Green', '2000 - 3999 Rating', 2000],
  ['YELLOW', 'Yellow', '4000 - 6999 Rating', 4000],
  ['RED', 'Red', '7000 - 9999 Rating', 7000],
  ['PURPLE', 'Purple', '10000 - 11999 Rating', 10000],
  ['BRONZE', 'Bronze', '12000 - 12999 Rating', 12000],
  ['SILVER', 'Silver', '13000 - 13999 Rating', 13000],
  ['GOLD', 'Gold', '14000 - 14499 Rating', 14000],
  ['PLATINUM', 'Platinum', '14500 - 14999 Rating', 14500],
  ['RAINBOW', 'Rainbow', '>=15000 Rating', 15000],
];

/** The rating colour, derived from the profile naiveRate (sum of the best 50). */
export const MAIMAIDX_COLOUR: ClassSet = {
  type: 'DERIVED',
  downgradable: true,
  values: classValues(COLOURS.map(([id, display, hover]) => [id, display, hover] as const)),
  derive: thresholdClass(
    'naiveRate',
    COLOURS.map(([id, , , bound]) => [id, bound] as const),
  ),
};
