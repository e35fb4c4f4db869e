import { ImportRejectedError } from '../../import-errors.js';
import { assertAcceptableJson } from '../../../http/json-body.js';
import type { ImportFormat, ImportRequest, ImportType } from '../types.js';
import { parseBatchManual } from './batch-manual.parser.js';

/** Batch-manual's items are already score elements: the shared validation checks each. */
const identity = (item: unknown) => ({ kind: 'score' as const, element: item });

/** `file/batch-manual`: the batch-manual document (spec part 2) as an uploaded JSON file. */
export const fileBatchManual: ImportType = {
  name: 'file/batch-manual',
  read({ file }: ImportRequest) {
    if (!file) throw new ImportRejectedError("Expected the score data as a file in the multipart field 'scoreData'.");
    let document: unknown;
    try {
      // Editors on Windows often save UTF-8 with a byte order mark, which JSON.parse refuses.
      document = JSON.parse(file.toString('utf8').replace(/^\uFEFF/, ''));
    } catch (err) {
      throw new ImportRejectedError(`The scoreData file is not valid JSON: ${(err as Error).message}`);
    }
    assertAcceptableJson(document, 'The scoreData file', { nulIsItsFieldsProblem: true });
    return document;
  },
  parse: (input, { maxScores }) => parseBatchManual(input, maxScores, 'The scoreData file'),
  convert: identity,
};

/** `ir/direct-manual`: the batch-manual document as the JSON body, for score hooks. */
export const directManual: ImportType = {
  name: 'ir/direct-manual',
  read({ body }: ImportRequest) {
    // No body at all (a body in another media type is refused before this, with a 415).
    if (body === undefined)
      throw new ImportRejectedError(
        'The body must be a batch-manual JSON object with meta and scores; received nothing (send the document as the request body, with Content-Type: application/json).',
      );
    return body;
  },
  parse: (input, { maxScores }) => parseBatchManual(input, maxScores, 'The body'),
  convert: identity,
};

/** Batch-manual's two entries: routes are the shared ImportController's (`/import/file` and `/ir/direct-manual/import`). */
export const batchManual: ImportFormat = { types: [fileBatchManual, directManual] };
