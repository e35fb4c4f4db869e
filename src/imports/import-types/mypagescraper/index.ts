import type { ImportFormat, ImportType } from '../types.js';
import { readCsvFile } from './csv-file.js';
import { parsePlayer } from './player.js';
import { checkRecordLevel, convertRecord, parseRecords, type RecordItem } from './records.js';

/** `file/mypagescraper-records-csv`: WaccaMyPageScraper's records export, one row per song with its best per difficulty. */
export const mypageScraperRecords: ImportType<RecordItem> = {
  name: 'file/mypagescraper-records-csv',
  read: readCsvFile,
  parse: (input, { maxScores }) => parseRecords(input, maxScores),
  convert: convertRecord,
  checkMatch: checkRecordLevel,
};

/** `file/mypagescraper-player-csv`: WaccaMyPageScraper's player export; it sets the stage-up class and imports no scores. */
export const mypageScraperPlayer: ImportType<never> = {
  name: 'file/mypagescraper-player-csv',
  read: readCsvFile,
  parse: (input) => parsePlayer(input),
  // A player file has no items to convert.
  convert: () => ({ kind: 'skip' }),
};

/** WaccaMyPageScraper's two CSV exports (WACCA); both go to `POST /import/file`. */
export const mypageScraper: ImportFormat = { types: [mypageScraperRecords, mypageScraperPlayer] };
