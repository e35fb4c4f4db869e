import { IIDX } from '../../../game-support/iidx/index.js';
import { JUBEAT } from '../../../game-support/jubeat/index.js';
import { MUSECA } from '../../../game-support/museca/index.js';
import { POPN } from '../../../game-support/popn/index.js';
import { SDVX } from '../../../game-support/sdvx/index.js';
import type { GptSupport } from '../../../game-support/types.js';
import type { ConvertedItem, ImportFormat, ImportType } from '../types.js';
import { CG_SERVICES, parseCgInput, type CgService } from './cg-common.js';
import { convertCgIidx } from './iidx.js';
import { convertCgJubeat } from './jubeat.js';
import { convertCgMuseca } from './museca.js';
import { convertCgPopn } from './popn.js';
import { convertCgSdvx } from './sdvx.js';

/** The games CG serves, by the name in the import type (`api/cg-nag-<game>`). */
export const CG_GAMES = ['sdvx', 'popn', 'museca', 'jubeat', 'iidx'] as const;
export type CgGame = (typeof CG_GAMES)[number];

const GAMES: Record<CgGame, { gpt: () => GptSupport; convert: (item: unknown) => ConvertedItem }> = {
  sdvx: { gpt: () => SDVX.gpts.Single, convert: convertCgSdvx },
  popn: { gpt: () => POPN.gpts['9B'], convert: convertCgPopn },
  museca: { gpt: () => MUSECA.gpts.Single, convert: convertCgMuseca },
  jubeat: { gpt: () => JUBEAT.gpts.Single, convert: convertCgJubeat },
  // SP; a DP play names its own playtype.
  iidx: { gpt: () => IIDX.gpts.SP, convert: convertCgIidx },
};

export function cgImportTypeName(service: CgService, game: CgGame): `api/${string}` {
  return `api/cg-${service}-${game}`;
}

/**
 * `api/cg-<service>-<game>`: the plays fetched from one CG deployment for one game
 * (src/integrations/cg/ fetches them). Each play is checked on its own: a malformed one is that
 * play's error, never the whole import's (Tachi fails the whole import).
 */
function cgImportType(service: CgService, game: CgGame): ImportType {
  const { gpt, convert } = GAMES[game];
  return {
    name: cgImportTypeName(service, game),
    read: ({ body }) => body,
    parse: (input, { maxScores }) => parseCgInput(input, gpt(), service, maxScores),
    convert: (item) => convert(item),
  };
}

export const API_CG_TYPES: readonly ImportType[] = CG_SERVICES.flatMap((service) => CG_GAMES.map((game) => cgImportType(service, game)));

/** Every `api/cg-*` import type (the fetch step lives in src/integrations/cg/). */
export const apiCgFormat: ImportFormat = { types: API_CG_TYPES };
