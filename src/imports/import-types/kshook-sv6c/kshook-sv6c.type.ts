import type { ImportType } from '../types.js';
import { convertKshookSave, parseKshookSave, type KshookSaveInput, type KshookSaveItem } from './kshook-sv6c.parser.js';

/** `ir/kshook-sv6c`: one SDVX Konaste score from kshook, stamped with the time it arrived. */
export const irKshookSv6c: ImportType<KshookSaveItem> = {
  name: 'ir/kshook-sv6c',
  // The time is when the score arrived, so a re-sent score would otherwise be a new play.
  timesIdentifyPlays: false,
  read: ({ body }): KshookSaveInput => ({ timeReceived: Date.now(), body }),
  parse: (input) => parseKshookSave(input as KshookSaveInput),
  convert: (item) => convertKshookSave(item),
};
