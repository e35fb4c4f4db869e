import { batchManual } from './batch-manual/index.js';
import { beatoraja } from './beatoraja/index.js';
import type { ImportFormat, ImportType } from './types.js';

/** Every import format the service accepts. A new format: its own folder here and one line in this list. */
export const IMPORT_FORMATS: readonly ImportFormat[] = [batchManual, beatoraja];

export const IMPORT_TYPES: readonly ImportType[] = IMPORT_FORMATS.flatMap((f) => f.types);

const BY_NAME = new Map<string, ImportType>(IMPORT_TYPES.map((t) => [t.name, t]));

export function findImportType(name: string): ImportType | undefined {
  return BY_NAME.get(name);
}

/** The types `POST /import/file` accepts. */
export const FILE_IMPORT_TYPES: readonly string[] = IMPORT_TYPES.filter((t) => t.name.startsWith('file/')).map((t) => t.name);
