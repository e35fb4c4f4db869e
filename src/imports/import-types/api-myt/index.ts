import type { GptSupport } from '../../../game-support/types.js';
import type { ConvertedItem, ImportFormat, ImportType } from '../types.js';
import { CHUNITHM_SINGLE, convertChunithm } from './chunithm.js';
import { parseMytInput } from './common.js';
import { convertMaimaiDx, MAIMAIDX_SINGLE } from './maimaidx.js';
import { convertOngeki, ONGEKI_SINGLE } from './ongeki.js';
import { convertWacca, WACCA_SINGLE } from './wacca.js';

/**
 * One `api/myt-*` type. Its input is what the sync fetched from MYT ({items, classes?}: the stream items as the
 * .proto reads them, see src/integrations/myt), handed over as the request's body.
 */
function mytType(name: `api/myt-${string}`, gpt: GptSupport, convert: (item: unknown) => ConvertedItem): ImportType {
  return {
    name,
    read: (request) => request.body,
    parse: (input, { maxScores }) => parseMytInput(input, gpt, maxScores),
    convert,
  };
}

export const apiMytChunithm = mytType('api/myt-chunithm', CHUNITHM_SINGLE, convertChunithm);
export const apiMytMaimaiDx = mytType('api/myt-maimaidx', MAIMAIDX_SINGLE, convertMaimaiDx);
export const apiMytOngeki = mytType('api/myt-ongeki', ONGEKI_SINGLE, convertOngeki);
export const apiMytWacca = mytType('api/myt-wacca', WACCA_SINGLE, convertWacca);

/** MYT's four games, synced through `POST /import/from-api` (their fetch step is src/integrations/myt). */
export const apiMytFormat: ImportFormat = { types: [apiMytChunithm, apiMytMaimaiDx, apiMytOngeki, apiMytWacca] };
