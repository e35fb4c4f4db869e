import type { FromApiSource } from '../from-api/source.js';
import { KAI_SOURCES } from './kai-source.js';

/** The KAI networks' fetch steps (FLO and EAG: IIDX and SDVX; MIN: SDVX). */
export const kaiSources: readonly FromApiSource[] = KAI_SOURCES as readonly FromApiSource[];
