import type { FromApiSource } from './from-api/source.js';
import { cgSources } from './cg/index.js';
import { kaiSources } from './kai/index.js';
import { mytSources } from './myt/index.js';

/**
 * Every `api/` import type's fetch step: one spread per service family (CG's and MYT's join here).
 * Beside the families' folders rather than in from-api/, which they import: a list there made a folder cycle.
 */
export const FROM_API_SOURCES: readonly FromApiSource[] = [...kaiSources, ...cgSources, ...mytSources];
