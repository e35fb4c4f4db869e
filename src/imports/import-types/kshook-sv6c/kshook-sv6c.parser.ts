import { z } from 'zod';
import { SDVX } from '../../../game-support/sdvx/index.js';
import { ImportRejectedError } from '../../import-errors.js';
import { KSHOOK_VERSION, kshookElement, kshookScoreFields, zodMessage } from '../kshook-common/kshook.js';
import type { ConvertedItem, ParsedImport } from '../types.js';

const count = () => z.number().int().nonnegative();

/** One play, sent when its result screen shows. Keys beyond these are allowed (newer hook versions add some). */
const body = z.looseObject({
  ...kshookScoreFields,
  gauge: z.number().int().min(0).max(10_000),
  critical: count(),
  near: count(),
  error: count(),
  rate: z.enum(['RATE_EFFECTIVE', 'RATE_PERMISSIVE', 'RATE_EXCESSIVE', 'RATE_BLASTIVE', 'RATE_MAXXIVE']),
  track_no: z.number().int(),
  retry_count: z.unknown(),
});

export type KshookSaveItem = { score: z.infer<typeof body>; timeReceived: number };

/** What read() keeps: the body and when it arrived, which is when the song was played. */
export interface KshookSaveInput {
  timeReceived: number;
  body: unknown;
}

export function parseKshookSave(input: KshookSaveInput): ParsedImport<KshookSaveItem> {
  const parsed = body.safeParse(input.body);
  if (!parsed.success) throw new ImportRejectedError(`Invalid kshook score: ${zodMessage(parsed.error)}.`);
  return {
    gpt: SDVX.gpts.Single,
    context: { service: 'kshook SV6C', version: KSHOOK_VERSION },
    classes: {},
    items: [{ score: parsed.data, timeReceived: input.timeReceived }],
  };
}

export function convertKshookSave({ score: s, timeReceived }: KshookSaveItem): ConvertedItem {
  return kshookElement(s, timeReceived, {
    judgements: { critical: s.critical, near: s.near, miss: s.error },
    optional: { gauge: s.gauge / 100 },
  });
}
