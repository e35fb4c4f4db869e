import type { ImportFormat } from '../types.js';
import { irBarbatos } from './barbatos.type.js';

/** Barbatos (SDVX5 and SDVX6 cabinets); its route is src/ir/barbatos/. */
export const barbatos: ImportFormat = { types: [irBarbatos] };
