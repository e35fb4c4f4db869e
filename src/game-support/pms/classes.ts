import { classValues } from '../common/classes.js';

const ORDINALS = ['1st', '2nd', '3rd', '4th', '5th', '6th', '7th', '8th', '9th', '10th'];

export const PMS_DANS = classValues([
  ...ORDINALS.map((ordinal, i) => [`INSANE_${i + 1}`, `●${i + 1}`, `Insane ${ordinal} Dan`] as const),
  ['INSANE_KAIDEN', '●●', 'Insane Kaiden'],
  ['OVERJOY', '●OJ', 'Overjoy'],
  ['UNDEFINED', '●UNDF', 'Undefined (Post-Overjoy)'],
]);
