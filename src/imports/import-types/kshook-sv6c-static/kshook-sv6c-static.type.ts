import type { ImportType } from '../types.js';
import { convertKshookExport, parseKshookExport, type KshookExportItem } from './kshook-sv6c-static.parser.js';

/** `ir/kshook-sv6c-static`: the best scores of a Konaste profile, each with its own time. */
export const irKshookSv6cStatic: ImportType<KshookExportItem> = {
  name: 'ir/kshook-sv6c-static',
  read: ({ body }) => body,
  parse: (input, { maxScores }) => parseKshookExport(input, maxScores),
  convert: (item) => convertKshookExport(item),
};
