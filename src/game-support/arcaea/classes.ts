import { classValues, thresholdClass } from '../common/classes.js';
import type { ClassSet } from '../types.js';

export const ARCAEA_COURSE_BANNER: ClassSet = {
  type: 'PROVIDED',
  downgradable: false,
  values: classValues([
    ['PHASE_1', 'Phase 1', 'First Step in a New World'],
    ['PHASE_2', 'Phase 2', 'Swept up in a Heartbeat'],
    ['PHASE_3', 'Phase 3', 'Unceasing Spirit'],
    ['PHASE_4', 'Phase 4', 'The Eternal Realm of Light'],
    ['PHASE_5', 'Phase 5', 'The Brutality of Glass'],
    ['PHASE_6', 'Phase 6', 'In Grief and Great Delight'],
    ['PHASE_7', 'Phase 7', "On Fate's Approach"],
    ['PHASE_8', 'Phase 8', 'The Disfigured Flow of Time'],
    ['PHASE_9', 'Phase 9', "Ego's Demise"],
    ['PHASE_10', 'Phase 10', 'A Torrent of Light and Conflict'],
    ['PHASE_11', 'Phase 11', 'Radiant Genesis'],
  ]),
};

/** [id, display, hoverText, lower bound of the profile naivePotential], ascending. */
const BADGES: readonly (readonly [string, string, string, number])[] = [
  ['BLUE', 'Blue', '0.00 - 3.49 Potential', 0],
  ['GREEN', 'Green', '3.50 - 6.99 Potential', 3.5],
  ['ASH_PURPLE', 'Ash Purple', '7.00 - 9.99 Potential', 7],
  ['PURPLE', 'Purple', '10.00 - 10.99 Potential', 10],
  ['RED', 'Red', '11.00 - 11.99 Potential', 11],
  ['ONE_STAR', '☆', '12.00 - 12.49 Potential', 12],
  ['TWO_STARS', '☆☆', '12.50 - 12.99 Potential', 12.5],
  ['THREE_STARS', '☆☆☆', '>=13.00 Potential', 13],
];

/** The potential badge, derived from the profile naivePotential (average of the best 30). */
export const ARCAEA_BADGE: ClassSet = {
  type: 'DERIVED',
  downgradable: true,
  values: classValues(BADGES.map(([id, display, hover]) => [id, display, hover] as const)),
  derive: thresholdClass(
    'naivePotential',
    BADGES.map(([id, , , bound]) => [id, bound] as const),
  ),
};
