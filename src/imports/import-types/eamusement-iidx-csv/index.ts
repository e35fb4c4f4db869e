import type { ImportFormat, ImportType } from '../types.js';
import { convertIidxCsvItem } from './convert.js';
import { parseIidxCsv, type IidxCsvItem } from './parse.js';
import { readIidxCsv } from './read.js';

/** The official e-amusement IIDX CSV (SP or DP, by the `playtype` form field), credited to this service. */
function iidxCsv(name: `file/${string}`, service: string): ImportType<IidxCsvItem> {
  return {
    name,
    // A row's time is the song's last play, shared by its difficulties and re-stamped by later exports.
    timesIdentifyPlays: false,
    read: readIidxCsv,
    parse: (input, { maxScores }) => parseIidxCsv(input, service, maxScores),
    convert: convertIidxCsvItem,
  };
}

/** `file/eamusement-iidx-csv` and `file/pli-iidx-csv`: one format, told apart only by the scores' service. */
export const eamusementIidxCsv: ImportFormat = {
  types: [iidxCsv('file/eamusement-iidx-csv', 'e-amusement'), iidxCsv('file/pli-iidx-csv', 'PLI')],
};
