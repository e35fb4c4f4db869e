import { classValues, thresholdClass } from '../common/classes.js';
import type { ClassSet } from '../types.js';

/** GITADORA skill colours: [id, display, hoverText, lower bound of naiveSkill], ascending. */
const BANDS: readonly (readonly [string, string, string, number])[] = [
  ['WHITE', '白', 'White', 0],
  ['ORANGE', '橙', 'Orange', 1000],
  ['ORANGE_GRD', '橙グラ', 'Orange Gradient', 1500],
  ['YELLOW', '黄', 'Yellow', 2000],
  ['YELLOW_GRD', '黄グラ', 'Yellow Gradient', 2500],
  ['GREEN', '緑', 'Green', 3000],
  ['GREEN_GRD', '緑グラ', 'Green Gradient', 3500],
  ['BLUE', '青', 'Blue', 4000],
  ['BLUE_GRD', '青グラ', 'Blue Gradient', 4500],
  ['PURPLE', '紫', 'Purple', 5000],
  ['PURPLE_GRD', '紫グラ', 'Purple Gradient', 5500],
  ['RED', '赤', 'Red', 6000],
  ['RED_GRD', '赤グラ', 'Red Gradient', 6500],
  ['BRONZE', '銅', 'Bronze', 7000],
  ['SILVER', '銀', 'Silver', 7500],
  ['GOLD', '金', 'Gold', 8000],
  ['RAINBOW', '虹', 'Rainbow', 8500],
];

/** The skill colour, derived from the profile naiveSkill. */
export const GITADORA_COLOUR: ClassSet = {
  type: 'DERIVED',
  downgradable: true,
  values: classValues(BANDS.map(([id, display, hover]) => [id, display, hover] as const)),
  derive: thresholdClass(
    'naiveSkill',
    BANDS.map(([id, , , bound]) => [id, bound] as const),
  ),
};
