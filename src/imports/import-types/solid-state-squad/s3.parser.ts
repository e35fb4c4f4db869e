import { HttpStatus } from '@nestjs/common';
import { z } from 'zod';
import { IIDX } from '../../../game-support/iidx/index.js';
import { ImportRejectedError } from '../../import-errors.js';
import type { ParsedImport } from '../types.js';
import { DIFFS, FIVE_KEY, versionOfStyles } from './s3.tables.js';

/** What the import keeps: the document read from the XML. */
export interface S3Input {
  document: unknown;
}

const count = z
  .string()
  .regex(/^\d{1,15}$/, 'expected a non-negative whole number')
  .transform(Number);
const text = z.string({ error: (issue) => (issue.input === undefined ? 'required' : 'expected text') });

const song = z.looseObject({
  id: count,
  diff: z.enum(Object.keys(DIFFS).concat(FIVE_KEY) as [string, ...string[]]),
  songname: text,
  styles: text,
  exscore: count,
  scorebreakdown: z.looseObject({ justgreats: count, greats: count, good: count, bad: count, poor: count }).optional(),
  // An empty <mods/> reads as ''.
  mods: z.union([z.literal(''), z.looseObject({ hardeasy: z.enum(['H', 'E']).optional() })], {
    error: 'expected <mods/>, or <mods> with an optional <hardeasy> of H or E',
  }),
  cleartype: z.enum(['played', 'cleared', 'combo', 'comboed', 'perfect', 'perfected']),
  date: text,
  comment: text.optional(),
});
export type S3Song = z.infer<typeof song>;

const document = z.looseObject({
  s3data: z.looseObject({
    userdata: z.looseObject({ id: count, login: text, djname: text }),
    scoredata: z.looseObject({ song: z.array(song) }),
  }),
});

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Checks an S3 document as a whole (any violation rejects it, as the format's reference does). S3
 * files mix playtypes and styles: each score names its own playtype and version (see the
 * converter), and the import's are those of the first score that has them.
 */
export function parseS3(input: unknown, maxScores: number): ParsedImport<S3Song> {
  if (!isObject(input)) throw new ImportRejectedError('A Solid State Squad import is kept as its document and form fields.');
  const root = isObject(input.document) ? input.document.s3data : undefined;
  if (!isObject(root)) throw new ImportRejectedError('Invalid S3 XML: the root element must be <s3data>.');
  const scoredata = isObject(root.scoredata) ? root.scoredata : {};
  const songs = scoredata.song;
  if (songs === undefined) throw new ImportRejectedError('Invalid S3 XML: there is no <song> inside <s3data><scoredata>.');
  const list = Array.isArray(songs) ? songs : [songs];
  if (list.length > maxScores)
    throw new ImportRejectedError(
      `This file has ${list.length} scores; the limit is ${maxScores} per import. Split it into several files.`,
      HttpStatus.PAYLOAD_TOO_LARGE,
    );
  const checked = document.safeParse({ s3data: { ...root, scoredata: { ...scoredata, song: list } } });
  if (!checked.success) {
    const issue = checked.error.issues[0];
    const path = issue.path.map((k) => (typeof k === 'number' ? `[${k}]` : `.${String(k)}`)).join('');
    throw new ImportRejectedError(`Invalid S3 XML. ${path.replace(/^\./, '')}: ${issue.message}.`);
  }
  const items = checked.data.s3data.scoredata.song;
  const { playtype, version } = groupOfFirst(items);
  return { gpt: IIDX.gpts[playtype], context: { service: 'Solid State Squad', version }, classes: {}, items };
}

/** The playtype and version of the first score that imports (not 5KEY, of a known style); SP and none for a file without one. */
function groupOfFirst(items: readonly S3Song[]): { playtype: 'SP' | 'DP'; version: string | null } {
  for (const item of items) {
    const { version } = versionOfStyles(item.styles);
    if (item.diff !== FIVE_KEY && version) return { playtype: DIFFS[item.diff].playtype, version };
  }
  return { playtype: 'SP', version: null };
}
