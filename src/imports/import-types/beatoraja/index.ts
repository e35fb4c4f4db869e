import type { ImportFormat } from '../types.js';
import { beatorajaType } from './beatoraja.type.js';

/** `ir/beatoraja`: the beatoraja/LR2oraja IR (BMS 7K/14K, PMS Controller/Keyboard); its routes are src/ir/beatoraja/. */
export const beatoraja: ImportFormat = { types: [beatorajaType] };
