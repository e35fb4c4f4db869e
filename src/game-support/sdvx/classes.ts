import { classValues, thresholdClass } from '../common/classes.js';
import type { ClassSet } from '../types.js';

export const SDVX_DANS = classValues([
  ['DAN_1', 'LV.01', '1st Dan'],
  ['DAN_2', 'LV.02', '2nd Dan'],
  ['DAN_3', 'LV.03', '3rd Dan'],
  ['DAN_4', 'LV.04', '4th Dan'],
  ['DAN_5', 'LV.05', '5th Dan'],
  ['DAN_6', 'LV.06', '6th Dan'],
  ['DAN_7', 'LV.07', '7th Dan'],
  ['DAN_8', 'LV.08', '8th Dan'],
  ['DAN_9', 'LV.09', '9th Dan'],
  ['DAN_10', 'LV.10', '10th Dan'],
  ['DAN_11', 'LV.11', '11th Dan'],
  ['INF', 'LV.INF', 'Inf. Dan'],
]);

/**
 * VOLFORCE classes: [id, display, HEAD's hover text, lower bound of profile VF6], ascending. Shared by SDVX and USC.
 * The hover texts are HEAD's strings as they stand (Sienna III "5.0 - …", Imperial IV ">23VF"), so they are listed,
 * not computed.
 */
export const VF_CLASS_BANDS: readonly (readonly [string, string, string, number])[] = [
  ['SIENNA_I', 'Sienna I', '0 - 2.499VF', 0],
  ['SIENNA_II', 'Sienna II', '2.5 - 4.999VF', 2.5],
  ['SIENNA_III', 'Sienna III', '5.0 - 7.499VF', 5],
  ['SIENNA_IV', 'Sienna IV', '7.5 - 9.999VF', 7.5],
  ['COBALT_I', 'Cobalt I', '10 - 10.499VF', 10],
  ['COBALT_II', 'Cobalt II', '10.5 - 10.999VF', 10.5],
  ['COBALT_III', 'Cobalt III', '11 - 11.499VF', 11],
  ['COBALT_IV', 'Cobalt IV', '11.5 - 11.999VF', 11.5],
  ['DANDELION_I', 'Dandelion I', '12 - 12.499VF', 12],
  ['DANDELION_II', 'Dandelion II', '12.5 - 12.999VF', 12.5],
  ['DANDELION_III', 'Dandelion III', '13 - 13.499VF', 13],
  ['DANDELION_IV', 'Dandelion IV', '13.5 - 13.999VF', 13.5],
  ['CYAN_I', 'Cyan I', '14 - 14.249VF', 14],
  ['CYAN_II', 'Cyan II', '14.25 - 14.499VF', 14.25],
  ['CYAN_III', 'Cyan III', '14.5 - 14.749VF', 14.5],
  ['CYAN_IV', 'Cyan IV', '14.75 - 14.999VF', 14.75],
  ['SCARLET_I', 'Scarlet I', '15 - 15.249VF', 15],
  ['SCARLET_II', 'Scarlet II', '15.25 - 15.499VF', 15.25],
  ['SCARLET_III', 'Scarlet III', '15.5 - 15.749VF', 15.5],
  ['SCARLET_IV', 'Scarlet IV', '15.75 - 15.999VF', 15.75],
  ['CORAL_I', 'Coral I', '16 - 16.249VF', 16],
  ['CORAL_II', 'Coral II', '16.25 - 16.499VF', 16.25],
  ['CORAL_III', 'Coral III', '16.5 - 16.749VF', 16.5],
  ['CORAL_IV', 'Coral IV', '16.75 - 16.999VF', 16.75],
  ['ARGENTO_I', 'Argento I', '17 - 17.249VF', 17],
  ['ARGENTO_II', 'Argento II', '17.25 - 17.499VF', 17.25],
  ['ARGENTO_III', 'Argento III', '17.5 - 17.749VF', 17.5],
  ['ARGENTO_IV', 'Argento IV', '17.75 - 17.999VF', 17.75],
  ['ELDORA_I', 'Eldora I', '18 - 18.249VF', 18],
  ['ELDORA_II', 'Eldora II', '18.25 - 18.499VF', 18.25],
  ['ELDORA_III', 'Eldora III', '18.5 - 18.749VF', 18.5],
  ['ELDORA_IV', 'Eldora IV', '18.75 - 18.999VF', 18.75],
  ['CRIMSON_I', 'Crimson I', '19 - 19.249VF', 19],
  ['CRIMSON_II', 'Crimson II', '19.25 - 19.499VF', 19.25],
  ['CRIMSON_III', 'Crimson III', '19.5 - 19.749VF', 19.5],
  ['CRIMSON_IV', 'Crimson IV', '19.75 - 19.999VF', 19.75],
  ['IMPERIAL_I', 'Imperial I', '20 - 20.999VF', 20],
  ['IMPERIAL_II', 'Imperial II', '21 - 21.999VF', 21],
  ['IMPERIAL_III', 'Imperial III', '22 - 22.999VF', 22],
  ['IMPERIAL_IV', 'Imperial IV', '>23VF', 23],
];

/** The vfClass set, derived from the profile VF6 (sum of the best 50 VF6). */
export const VF_CLASS: ClassSet = {
  type: 'DERIVED',
  downgradable: true,
  values: classValues(VF_CLASS_BANDS.map(([id, display, hover]) => [id, display, hover] as const)),
  derive: thresholdClass(
    'VF6',
    VF_CLASS_BANDS.map(([id, , , bound]) => [id, bound] as const),
  ),
};
