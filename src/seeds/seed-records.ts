import { z } from 'zod';
import type { GameSupport } from '../game-support/types.js';

const id = z.string().min(1).max(200);
/** Song ids are stored in 32-bit integer columns. */
const songID = z.number().int().nonnegative().max(2_147_483_647);
const strings = z.array(z.string());

/** Song record of songs-<game>.json; `data` is checked against the game's songData schema. */
export function songRecord(game: GameSupport) {
  return z.strictObject({
    id: songID,
    title: z.string(),
    artist: z.string(),
    searchTerms: strings,
    altTitles: strings,
    data: game.songData,
  });
}

/** Chart record of charts-<game>.json; `data` and `difficulty` are then checked against the playtype's GPT. The 2022 fields rgcID and tierlistInfo are accepted and ignored. */
export function chartRecord(game: GameSupport) {
  return z.strictObject({
    chartID: id,
    songID,
    level: z.string(),
    levelNum: z.number().finite(),
    isPrimary: z.boolean(),
    difficulty: z.string().min(1),
    playtype: z.enum(game.playtypes as [string, ...string[]]),
    data: z.record(z.string(), z.unknown()),
    versions: strings,
    rgcID: z.null().optional(),
    tierlistInfo: z.unknown().optional(),
  });
}

const gpt = { game: z.string(), playtype: z.string() };

export const folderRecord = z.strictObject({
  folderID: id,
  ...gpt,
  title: z.string(),
  type: z.enum(['charts', 'songs', 'static']),
  data: z.union([z.record(z.string(), z.unknown()), z.array(z.string())]),
  inactive: z.boolean(),
  searchTerms: strings,
});

export const tableRecord = z.strictObject({
  tableID: id,
  ...gpt,
  title: z.string(),
  description: z.string(),
  folders: z.array(z.string()),
  inactive: z.boolean(),
  default: z.boolean(),
});

export const goalRecord = z.strictObject({
  goalID: id,
  ...gpt,
  name: z.string(),
  charts: z.discriminatedUnion('type', [
    z.strictObject({ type: z.literal('single'), data: z.string() }),
    z.strictObject({ type: z.literal('multi'), data: z.array(z.string()).min(1) }),
    z.strictObject({ type: z.literal('folder'), data: z.string() }),
  ]),
  criteria: z.strictObject({
    key: z.string(),
    value: z.number().finite(),
    mode: z.enum(['single', 'absolute', 'proportion']),
    countNum: z.number().finite().optional(),
  }),
});

export const questRecord = z.strictObject({
  questID: id,
  ...gpt,
  name: z.string(),
  desc: z.string(),
  questData: z.array(
    z.strictObject({
      title: z.string(),
      desc: z.string().optional(),
      goals: z.array(z.strictObject({ goalID: z.string(), note: z.string().optional() })),
    }),
  ),
});

export const questlineRecord = z.strictObject({
  questlineID: id,
  ...gpt,
  name: z.string(),
  desc: z.string(),
  quests: z.array(z.string()),
});

export const bmsCourseRecord = z.strictObject({
  title: z.string(),
  md5sums: z.string().regex(/^[0-9a-f]+$/),
  set: z.string(),
  playtype: z.string(),
  value: z.union([z.string(), z.number().int()]),
});

export type SongRecord = z.infer<ReturnType<typeof songRecord>>;
export type ChartRecord = z.infer<ReturnType<typeof chartRecord>>;
export type FolderRecord = z.infer<typeof folderRecord>;
export type TableRecord = z.infer<typeof tableRecord>;
export type GoalRecord = z.infer<typeof goalRecord>;
export type QuestRecord = z.infer<typeof questRecord>;
export type QuestlineRecord = z.infer<typeof questlineRecord>;
export type BmsCourseRecord = z.infer<typeof bmsCourseRecord>;

/** The first problem zod found, as one readable line. */
export function describeZodError(error: z.ZodError): string {
  const issue = error.issues[0];
  const path = issue.path.length ? issue.path.join('.') : '(record)';
  return `${path}: ${issue.message}${error.issues.length > 1 ? ` (and ${error.issues.length - 1} more)` : ''}`;
}

/** A NUL, or half of a surrogate pair: PostgreSQL text and jsonb cannot hold either. */
// eslint-disable-next-line no-control-regex -- matching NUL is the point
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Where a record holds a string (or key) the database cannot store, as a message; undefined when it has none. */
export function findUnstorableText(value: unknown, path = '(record)'): string | undefined {
  if (typeof value === 'string')
    return UNSTORABLE.test(value) ? `${path}: contains a NUL character or a lone surrogate, which the database cannot store` : undefined;
  if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) {
      const found = findUnstorableText(v, path === '(record)' ? String(i) : `${path}.${i}`);
      if (found) return found;
    }
    return undefined;
  }
  if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      const at = path === '(record)' ? k : `${path}.${k}`;
      if (UNSTORABLE.test(k)) return `${at}: the key contains a NUL character or a lone surrogate, which the database cannot store`;
      const found = findUnstorableText(v, at);
      if (found) return found;
    }
  }
  return undefined;
}
