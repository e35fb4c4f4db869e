import type { ImportType } from '../types.js';
import { convertBarbatos, parseBarbatos, type BarbatosInput, type BarbatosItem } from './barbatos.parser.js';

/** `ir/barbatos`: one SDVX score from the Barbatos hook, stamped with the time it arrived. */
export const irBarbatos: ImportType<BarbatosItem> = {
  name: 'ir/barbatos',
  // The time is when the score arrived, so a re-sent score would otherwise be a new play.
  timesIdentifyPlays: false,
  read: ({ body }): BarbatosInput => ({ timeReceived: Date.now(), body }),
  parse: (input) => parseBarbatos(input as BarbatosInput),
  convert: (item) => convertBarbatos(item),
};
