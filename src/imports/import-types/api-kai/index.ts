import type { ImportFormat } from '../types.js';
import { KAI_IMPORT_TYPES } from './convert.js';

/** The KAI networks' plays (FLO and EAG: IIDX and SDVX; MIN: SDVX), fetched by src/integrations/kai/ for POST /import/from-api. */
export const apiKaiFormat: ImportFormat = { types: KAI_IMPORT_TYPES };
