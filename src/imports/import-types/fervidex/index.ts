import type { ImportFormat } from '../types.js';
import { irFervidex } from './score.js';
import { irFervidexStatic } from './static.js';

/** Fervidex (IIDX): single plays (`ir/fervidex`) and profile dumps (`ir/fervidex-static`); its routes are src/ir/fervidex/. */
export const fervidex: ImportFormat = { types: [irFervidex, irFervidexStatic] };
