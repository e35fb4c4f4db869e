import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from '@jest/globals';

/**
 * Tachi's public seed data, beside the project in ../shared (CI and the team's machines have it; a
 * user's fresh clone does not). Real-data tests run on it when it is there and are skipped otherwise.
 */
export const TACHI_SEEDS = path.resolve(process.cwd(), '../shared/seeds/tachi');

export function haveTachiSeeds(...files: string[]): boolean {
  return files.every((file) => fs.existsSync(path.join(TACHI_SEEDS, file)));
}

export function readTachiSeed<T>(file: string): T[] {
  return JSON.parse(fs.readFileSync(path.join(TACHI_SEEDS, file), 'utf8')) as T[];
}

/**
 * `describe` when every one of `files` is in the seeds, else a skipped block whose body is never
 * run: jest runs the body of `describe.skip` to collect its tests, so a body that reads a seed file
 * at collection time would fail a clone without ../shared.
 */
export function describeWithTachiSeeds(files: readonly string[], name: string, body: () => void): void {
  if (haveTachiSeeds(...files)) describe(name, body);
  else
    describe.skip(`${name} (needs ${files.join(', ')} in ../shared/seeds/tachi)`, () => {
      it.skip('is skipped without the seed files', () => undefined);
    });
}
