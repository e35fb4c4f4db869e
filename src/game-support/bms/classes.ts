import { classValues } from '../common/classes.js';

const ORDINALS = ['1st', '2nd', '3rd', '4th', '5th', '6th', '7th', '8th', '9th', '10th'];
/** [id, display, hoverText] for dans 1..10 of one kind, e.g. NORMAL_3 / ☆3 / Normal 3rd Dan. */
const tenDans = (id: string, symbol: string, name: string) =>
  ORDINALS.map((ordinal, i) => [`${id}_${i + 1}`, `${symbol}${i + 1}`, `${name} ${ordinal} Dan`] as const);

export const GENOCIDE_DANS = classValues([
  ...tenDans('NORMAL', '☆', 'Normal'),
  ...tenDans('INSANE', '★', 'Insane'),
  ['INSANE_KAIDEN', '★★', 'Insane Kaiden'],
  ['OVERJOY', '(^^)', 'Overjoy'],
]);

const SATELLITE = Array.from({ length: 13 }, (_, i) => [`SL${i}`, `sl${i}`, `Satellite ${i}`] as const);
const STELLA = Array.from({ length: 13 }, (_, i) => [`ST${i}`, `st${i}`, `Stella ${i}`] as const);

/** 7K: Satellite 0-12 then Stella 0-12. */
export const STSL_DANS_7K = classValues([...SATELLITE, ...STELLA]);
/** 14K: the DP Satellite list only. */
export const STSL_DANS_14K = classValues(SATELLITE);

export const NEW_GENERATION_DANS = classValues([
  ...tenDans('NORMAL', '▽', 'Normal'),
  ['INSANE_0', '▼0', 'Insane 0th Dan'],
  ...tenDans('INSANE', '▼', 'Insane'),
  ['INSANE_KAIDEN', '▼皆伝', 'Insane Kaiden'],
]);

export const LN_DANS = classValues([
  ...ORDINALS.map((ordinal, i) => [`DAN_${i + 1}`, `◆${i + 1}`, `LN ${ordinal} Dan`] as const),
  ['KAIDEN', '◆◆', 'LN Kaiden'],
  ['OVERJOY', '◆(^^)', 'LN Overjoy'],
  ['UDON', '◆うどん', 'LN Udon'],
]);

const KANJI_NUMBERS = ['一', '二', '三', '四', '五', '六', '七', '八', '九', '十'];
export const SCRATCH_DANS = classValues([
  ...[7, 6, 5, 4, 3, 2, 1].map((n) => [`KYU_${n}`, `${KANJI_NUMBERS[n - 1]}級`, `Scratch ${ORDINALS[n - 1]} Kyu`] as const),
  ...ORDINALS.map((ordinal, i) => [`DAN_${i + 1}`, `${i === 0 ? '初' : KANJI_NUMBERS[i]}段`, `Scratch ${ordinal} Dan`] as const),
  ['KAIDEN', '皆伝', 'Scratch Kaiden'],
]);
