import type { ImportRequest, ImportType } from '../types.js';
import { convertBeatoraja, parseBeatoraja, type BeatorajaInput, type BeatorajaItem, type ResolvedCourse } from './beatoraja.parser.js';

/**
 * `ir/beatoraja`: one score from the beatoraja/LR2oraja IR, or a course clear resolved to its
 * class. The controller puts the receive time (the score's time) or the resolved course in the
 * request's fields, so that parsing the kept input again gives the same import.
 */
export const beatorajaType: ImportType<BeatorajaItem> = {
  name: 'ir/beatoraja',
  // beatoraja sends no play time: a score's time is when it arrived.
  timesIdentifyPlays: false,
  read({ body, fields }: ImportRequest): BeatorajaInput {
    // parse checks the course as it checks a body.
    if (fields.course !== undefined) return { course: fields.course as ResolvedCourse };
    return { body, timeReceived: typeof fields.timeReceived === 'number' ? fields.timeReceived : Date.now() };
  },
  parse: (input) => parseBeatoraja(input),
  convert: convertBeatoraja,
};
