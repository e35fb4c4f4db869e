import { HttpStatus } from '@nestjs/common';
import { z } from 'zod';
import { SDVX } from '../../../game-support/sdvx/index.js';
import { ImportRejectedError } from '../../import-errors.js';
import { KSHOOK_VERSION, kshookElement, kshookScoreFields, zodMessage } from '../kshook-common/kshook.js';
import type { ConvertedItem, ParsedImport } from '../types.js';

/** One best score of the player's Konaste profile; `timestamp` is in Unix seconds. */
const entry = z.looseObject({ ...kshookScoreFields, timestamp: z.number().int().nonnegative() });

const document = z.looseObject({ scores: z.array(z.unknown()) });

export type KshookExportItem = z.infer<typeof entry>;

/** The whole export is checked up front: one malformed entry rejects it (nothing is half-imported). */
export function parseKshookExport(input: unknown, maxScores: number): ParsedImport<KshookExportItem> {
  const outer = document.safeParse(input);
  if (!outer.success) throw new ImportRejectedError(`Invalid kshook export: ${zodMessage(outer.error)}.`);
  const { scores } = outer.data;
  if (scores.length > maxScores) {
    throw new ImportRejectedError(
      `This export has ${scores.length} scores; the limit is ${maxScores} per import. Split it into several requests.`,
      HttpStatus.PAYLOAD_TOO_LARGE,
    );
  }
  const items = scores.map((raw, i) => {
    const parsed = entry.safeParse(raw);
    if (!parsed.success) throw new ImportRejectedError(`Invalid kshook export: scores[${i}]: ${zodMessage(parsed.error)}.`);
    return parsed.data;
  });
  return { gpt: SDVX.gpts.Single, context: { service: 'kshook SV6C Static', version: KSHOOK_VERSION }, classes: {}, items };
}

export function convertKshookExport(s: KshookExportItem): ConvertedItem {
  return kshookElement(s, s.timestamp * 1000);
}
