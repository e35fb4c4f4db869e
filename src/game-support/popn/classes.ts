import { classValues, thresholdClass } from '../common/classes.js';
import type { ClassSet } from '../types.js';

/** pop'n classes: [id, display, hoverText, lower bound of naiveClassPoints], ascending. */
const BANDS: readonly (readonly [string, string, string, number])[] = [
  ['KITTY', 'にゃんこ', 'Kitty', 0],
  ['STUDENT', '小学生', 'Grade School Student', 21],
  ['DELINQUENT', '番長', 'Delinquent', 34],
  ['DETECTIVE', '刑事', 'Detective', 46],
  ['IDOL', 'アイドル', 'Idol', 59],
  ['GENERAL', '将軍', 'General', 68],
  ['HERMIT', '仙人', 'Hermit', 79],
  ['GOD', '神', 'God', 91],
];

/** The class, derived from the profile naiveClassPoints. */
export const POPN_CLASS: ClassSet = {
  type: 'DERIVED',
  downgradable: true,
  values: classValues(BANDS.map(([id, display, hover]) => [id, display, hover] as const)),
  derive: thresholdClass(
    'naiveClassPoints',
    BANDS.map(([id, , , bound]) => [id, bound] as const),
  ),
};
