import type { ImportType } from '../types.js';
import { convertBarbatos, parseBarbatos, type BarbatosInput, type BarbatosItem } from './barbatos.parser.js';

/** `ir/barbatos`: one SDVX score from the Barbatos hook, stamped with the time it arrived. */
export const irBarbatos: ImportType<BarbatosItem> = {
  name: 'ir/barbatos',
  read: ({ body }): BarbatosInput => ({ timeReceived: Date.now(), body }),
  parse: (input) => parseBarbatos(input as BarbatosInput),
  convert: (item) => convertBarbatos(item),
};
