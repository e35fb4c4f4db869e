import { apiCgFormat } from './api-cg/index.js';
import { apiMytFormat } from './api-myt/index.js';
import { apiKaiFormat } from './api-kai/index.js';
import { barbatos } from './barbatos/index.js';
import { batchManual } from './batch-manual/index.js';
import { eamusementIidxCsv } from './eamusement-iidx-csv/index.js';
import { lr2hookFormat } from './lr2hook/index.js';
import { mypageScraper } from './mypagescraper/index.js';
import { fervidex } from './fervidex/index.js';
import { eamusementSdvxCsvFormat } from './eamusement-sdvx-csv/index.js';
import { merIidxFormat } from './mer-iidx/index.js';
import { solidStateSquadFormat } from './solid-state-squad/index.js';
import { kshookSv6cStatic } from './kshook-sv6c-static/index.js';
import { kshookSv6c } from './kshook-sv6c/index.js';
import { beatoraja } from './beatoraja/index.js';
import type { ImportFormat, ImportType } from './types.js';
import { usc } from './usc/index.js';

/** Every import format the service accepts. A new format: its own folder here and one line in this list. */
export const IMPORT_FORMATS: readonly ImportFormat[] = [
  batchManual,
  usc,
  eamusementIidxCsv,
  mypageScraper,
  lr2hookFormat,
  fervidex,
  eamusementSdvxCsvFormat,
  solidStateSquadFormat,
  merIidxFormat,
  barbatos,
  kshookSv6c,
  kshookSv6cStatic,
  beatoraja,
  apiCgFormat,
  apiMytFormat,
  apiKaiFormat,
];

export const IMPORT_TYPES: readonly ImportType[] = IMPORT_FORMATS.flatMap((f) => f.types);

const BY_NAME = new Map<string, ImportType>(IMPORT_TYPES.map((t) => [t.name, t]));

export function findImportType(name: string): ImportType | undefined {
  return BY_NAME.get(name);
}

/** The types `POST /import/file` accepts. */
export const FILE_IMPORT_TYPES: readonly string[] = IMPORT_TYPES.filter((t) => t.name.startsWith('file/')).map((t) => t.name);

/** The `api/` types (POST /import/from-api), each enabled only where its service is configured. */
export const API_IMPORT_TYPES: readonly string[] = IMPORT_TYPES.filter((t) => t.name.startsWith('api/')).map((t) => t.name);
