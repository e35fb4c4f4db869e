import { z } from 'zod';
import { BMS } from '../../../game-support/bms/index.js';
import { ImportRejectedError } from '../../import-errors.js';
import type { ImportRequest, ImportType, ParsedImport } from '../types.js';
import type { Lr2hookBody } from './lr2hook.js';
import { SERVICE } from './lr2hook.js';

/** The course a clear was found to be (by the controller, from the course lookup): the class it gives. */
export const clearedCourse = z.object({ title: z.string(), playtype: z.string(), set: z.string(), value: z.string() });
export type ClearedCourse = z.infer<typeof clearedCourse>;

/** A course is cleared when every note of its four charts was played and the lamp is a clear. */
export function courseCleared(score: Lr2hookBody['scoreData']): boolean {
  return score.notesPlayed === score.notesTotal && score.lamp !== 'FAIL' && score.lamp !== 'NO PLAY';
}

/** The course's four chart MD5s, concatenated in order: 128 hex characters. */
export const COURSE_MD5S = /^[0-9a-f]{128}$/;

export function readCourse({ fields }: ImportRequest): ClearedCourse {
  return clearedCourse.parse(fields.course);
}

/**
 * A cleared course: no score, only its class (raised, never lowered, by the shared class rules). As
 * a class the game reports directly, it creates the profile of a playtype the user never played.
 */
export function parseCourse(input: unknown): ParsedImport<never> {
  const course = clearedCourse.safeParse(input);
  if (!course.success) throw new ImportRejectedError('The stored course is malformed.');
  const { playtype, set, value } = course.data;
  const gpt = BMS.playtypes.includes(playtype) ? BMS.gpts[playtype] : undefined;
  const classSet = gpt && Object.hasOwn(gpt.classes, set) ? gpt.classes[set] : undefined;
  if (!gpt || classSet?.type !== 'PROVIDED' || !classSet.values.some((v) => v.id === value)) {
    throw new ImportRejectedError(`The course gives ${set} ${value} on BMS ${playtype}, which is no class of that game.`);
  }
  return { gpt, context: { service: SERVICE, version: null }, classes: { [set]: value }, items: [], classesCreateProfile: true };
}

/** `ir/lr2hook-course`: the class of a cleared course (`POST /ir/lr2hook/import/course`); it imports no score. */
export const lr2hookCourse: ImportType<never> = {
  name: 'ir/lr2hook-course',
  read: readCourse,
  parse: (input) => parseCourse(input),
  // A course clear has no items to convert.
  convert: () => ({ kind: 'skip' }),
};
