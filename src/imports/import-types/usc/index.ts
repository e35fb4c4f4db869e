import type { ImportFormat } from '../types.js';
import { uscIr } from './usc-ir.js';

/** USC's IR score submission; its routes (`/ir/usc/:playtype/…`) are src/ir/usc/. */
export const usc: ImportFormat = { types: [uscIr] };
