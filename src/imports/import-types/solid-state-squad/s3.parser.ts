import { HttpStatus } from '@nestjs/common';
import { z } from 'zod';
import { IIDX } from '../../../game-support/iidx/index.js';
import { ImportRejectedError } from '../../import-errors.js';
import type { ParsedImport } from '../types.js';
import { DIFFS, FIVE_KEY, S3_VERSIONS, versionOfStyles } from './s3.tables.js';

/** What the import keeps: the document read from the XML, and the form fields that pick a playtype and version. */
export interface S3Input {
  document: unknown;
  playtype: unknown;
  version: unknown;
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
 * Checks an S3 document as a whole (any violation rejects it, as the format's reference does) and
 * picks the import's playtype and version. An import has one of each, and S3 files can mix
 * them, so the form fields `playtype` and `version` choose when the file holds more than one.
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
  const { playtype, version } = chooseGroup(items, input.playtype, input.version);
  return { gpt: IIDX.gpts[playtype], context: { service: 'Solid State Squad', version }, classes: {}, items };
}

function chooseGroup(items: S3Song[], wantPlaytype: unknown, wantVersion: unknown): { playtype: 'SP' | 'DP'; version: string | null } {
  if (wantPlaytype !== undefined && wantPlaytype !== null && wantPlaytype !== 'SP' && wantPlaytype !== 'DP')
    throw new ImportRejectedError(`Invalid playtype '${String(wantPlaytype)}': expected SP or DP.`);
  if (wantVersion !== undefined && wantVersion !== null && (typeof wantVersion !== 'string' || !S3_VERSIONS.includes(wantVersion)))
    throw new ImportRejectedError(`Invalid version '${String(wantVersion)}': expected one of ${S3_VERSIONS.join(', ')}.`);
  const groups = new Map<string, { playtype: 'SP' | 'DP'; version: string; scores: number }>();
  for (const item of items) {
    const version = versionOfStyles(item.styles).version;
    if (item.diff === FIVE_KEY || !version) continue;
    const { playtype } = DIFFS[item.diff];
    const key = `${playtype} ${version}`;
    const group = groups.get(key) ?? { playtype, version, scores: 0 };
    group.scores += 1;
    groups.set(key, group);
  }
  const all = [...groups.values()];
  const wanted = all.filter((g) => (wantPlaytype ?? g.playtype) === g.playtype && (wantVersion ?? g.version) === g.version);
  const describe = (list: typeof all) => list.map((g) => `${g.playtype} ${g.version} (${g.scores})`).join(', ');
  if (wanted.length > 1) {
    throw new ImportRejectedError(
      `This file holds scores of more than one playtype or version: ${describe(wanted)}. An import has one playtype and one version, so send the file once for each, with the form fields playtype and version (e.g. playtype=${wanted[0].playtype} and version=${wanted[0].version}).`,
    );
  }
  if (wanted.length === 0 && all.length > 0)
    throw new ImportRejectedError(`No score of this file is of the playtype and version asked for. It holds: ${describe(all)}.`);
  return wanted[0] ?? { playtype: (wantPlaytype as 'SP' | 'DP' | null | undefined) ?? 'SP', version: (wantVersion as string | null | undefined) ?? null };
}
