import type { FromApiSource } from '../from-api/source.js';
import { MYT_GAMES, mytSource } from './myt-source.js';

/** MYT's sources: `api/myt-{chunithm,maimaidx,ongeki,wacca}`, gRPC over TLS (see myt-client.ts). */
export const mytSources: readonly FromApiSource[] = MYT_GAMES.map((game) => mytSource(game) as FromApiSource);

export type { MytConfig, MytCredentials } from './myt-client.js';
