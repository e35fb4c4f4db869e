import { CG_GAMES } from '../../imports/import-types/api-cg/index.js';
import { CG_SERVICES } from '../../imports/import-types/api-cg/cg-common.js';
import type { FromApiSource } from '../from-api/source.js';
import { createCgSource } from './cg-source.js';

export { createCgSource, type CgConfig, type CgCredentials } from './cg-source.js';

/** The fetch step of every `api/cg-{dev,nag,gan}-{sdvx,popn,museca,jubeat,iidx}` type. */
export const cgSources: readonly FromApiSource[] = CG_SERVICES.flatMap((service) => CG_GAMES.map((game) => createCgSource(service, game) as FromApiSource));
