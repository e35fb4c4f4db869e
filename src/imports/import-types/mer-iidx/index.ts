import { assertAcceptableJson } from '../../../http/json-body.js';
import { ImportRejectedError } from '../../import-errors.js';
import type { ImportFormat, ImportRequest, ImportType } from '../types.js';
import { convertMerScore } from './mer.converter.js';
import { parseMer, type MerInput, type MerScore } from './mer.parser.js';

/** `file/mer-iidx`: the JSON score export of MER (IIDX). */
export const merIidx: ImportType<MerScore> = {
  name: 'file/mer-iidx',
  read({ file }: ImportRequest): MerInput {
    if (!file) throw new ImportRejectedError("Expected the JSON export as a file in the multipart field 'scoreData'.");
    let scores: unknown;
    try {
      scores = JSON.parse(file.toString('utf8').replace(/^\uFEFF/, ''));
    } catch (err) {
      throw new ImportRejectedError(`The scoreData file is not valid JSON: ${(err as Error).message}`);
    }
    assertAcceptableJson(scores, 'The scoreData file');
    return { scores };
  },
  parse: (input, { maxScores }) => parseMer(input, maxScores),
  convert: (score) => convertMerScore(score),
};

export const merIidxFormat: ImportFormat = { types: [merIidx] };
