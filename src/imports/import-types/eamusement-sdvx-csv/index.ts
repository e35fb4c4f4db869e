import { ImportRejectedError } from '../../import-errors.js';
import type { ImportFormat, ImportRequest, ImportType } from '../types.js';
import { checkSdvxCsvLevel, convertSdvxCsvRow } from './sdvx-csv.converter.js';
import { parseSdvxCsv, type SdvxCsvRow } from './sdvx-csv.parser.js';

/** `file/eamusement-sdvx-csv`: the CSV of scores e-amusement exports for SOUND VOLTEX. */
export const eamusementSdvxCsv: ImportType<SdvxCsvRow> = {
  name: 'file/eamusement-sdvx-csv',
  read({ file }: ImportRequest) {
    if (!file) throw new ImportRejectedError("Expected the CSV as a file in the multipart field 'scoreData'.");
    return file.toString('utf8');
  },
  parse: (input, { maxScores }) => parseSdvxCsv(input, maxScores),
  convert: (row) => convertSdvxCsvRow(row),
  checkMatch: (row, chart) => checkSdvxCsvLevel(row, chart),
};

export const eamusementSdvxCsvFormat: ImportFormat = { types: [eamusementSdvxCsv] };
