import { HttpStatus } from '@nestjs/common';
import { z } from 'zod';
import { IIDX } from '../../../game-support/iidx/index.js';
import { ImportRejectedError } from '../../import-errors.js';
import type { ParsedImport } from '../types.js';

/** What the import keeps: the JSON array. */
export interface MerInput {
  scores: unknown;
}

const whole = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);

const score = z.looseObject({
  music_id: whole,
  play_type: z.enum(['SINGLE', 'DOUBLE']),
  diff_type: z.enum(['BEGINNER', 'NORMAL', 'HYPER', 'ANOTHER', 'LEGGENDARIA']),
  score: whole,
  miss_count: z.number().int().min(-1, 'expected a whole number ≥ 0, or -1 for none').max(Number.MAX_SAFE_INTEGER),
  clear_type: z.enum(['NO PLAY', 'FAILED', 'ASSIST CLEAR', 'EASY CLEAR', 'CLEAR', 'HARD CLEAR', 'EX HARD CLEAR', 'FULLCOMBO CLEAR']),
  update_time: z.string().regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/, 'expected YYYY-MM-DD HH:MM:SS'),
});
export type MerScore = z.infer<typeof score>;

export const PLAYTYPES = { SINGLE: 'SP', DOUBLE: 'DP' } as const;

/**
 * Checks a MER export as a whole: a JSON array whose every entry is a valid score (the first bad
 * one rejects the file, naming its index). MER exports mix SP and DP: each score names its own
 * playtype (see the converter), and the import's is that of the first score.
 */
export function parseMer(input: unknown, maxScores: number): ParsedImport<MerScore> {
  const { scores } = (input ?? {}) as Partial<MerInput>;
  if (!Array.isArray(scores)) throw new ImportRejectedError('A MER export must be a JSON array of scores.');
  if (scores.length > maxScores)
    throw new ImportRejectedError(
      `This file has ${scores.length} scores; the limit is ${maxScores} per import. Split it into several files.`,
      HttpStatus.PAYLOAD_TOO_LARGE,
    );
  const items = scores.map((entry, index) => {
    const checked = score.safeParse(entry);
    if (checked.success) return checked.data;
    const issue = checked.error.issues[0];
    throw new ImportRejectedError(`${issue.path.length ? `${issue.path.join('.')}: ` : ''}${issue.message} [Index ${index}]`);
  });
  const playtype = items.length ? PLAYTYPES[items[0].play_type] : 'SP';
  return { gpt: IIDX.gpts[playtype], context: { service: 'MER', version: null }, classes: {}, items };
}
