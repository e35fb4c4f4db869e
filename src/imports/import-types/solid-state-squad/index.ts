import { ImportRejectedError } from '../../import-errors.js';
import type { ImportFormat, ImportRequest, ImportType } from '../types.js';
import { convertS3Song } from './s3.converter.js';
import { parseS3, type S3Input, type S3Song } from './s3.parser.js';
import { readXmlSubset, XmlSubsetError } from './s3-xml.js';

/** `file/solid-state-squad`: the XML export of Solid State Squad (IIDX CS and old arcade styles). */
export const solidStateSquad: ImportType<S3Song> = {
  name: 'file/solid-state-squad',
  read({ file }: ImportRequest): S3Input {
    if (!file) throw new ImportRejectedError("Expected the XML as a file in the multipart field 'scoreData'.");
    let root: ReturnType<typeof readXmlSubset>;
    try {
      root = readXmlSubset(file.toString('utf8'));
    } catch (err) {
      if (err instanceof XmlSubsetError) throw new ImportRejectedError(`Could not parse XML: ${err.message}`);
      throw err;
    }
    return { document: { [root.root]: root.value } };
  },
  parse: (input, { maxScores }) => parseS3(input, maxScores),
  convert: (song) => convertS3Song(song),
};

export const solidStateSquadFormat: ImportFormat = { types: [solidStateSquad] };
