import { HttpStatus } from '@nestjs/common';
import { z } from 'zod';
import { IIDX } from '../../../game-support/iidx/index.js';
import { ImportRejectedError } from '../../import-errors.js';
import type { ConvertedItem, ImportRequest, ImportType, ParsedImport } from '../types.js';
import { checkHeaders } from './headers.js';
import { CHART_CODES, danOfIndex, LAMPS, splitChartCode, type ChartCode } from './mapping.js';
import { rejectInvalid } from './schema-errors.js';

const count = z.number().int().nonnegative();

const STATIC_SCORE = z.looseObject({
  ex_score: count,
  // -1: the game has no miss count for the play.
  miss_count: z.union([count, z.literal(-1)]).nullish(),
  clear_type: z.number().int().min(0).max(7),
});

/** A profile dump: best scores by song id and chart code, and the dans. A dan that is no index 0–18 is ignored, not refused. */
export const STATIC_BODY = z.looseObject({
  sp_dan: z.unknown().optional(),
  dp_dan: z.unknown().optional(),
  scores: z.record(z.string(), z.record(z.string(), z.unknown())),
});
export type StaticBody = z.infer<typeof STATIC_BODY>;

/** The entries, once their keys (song ids and chart codes) are known good. */
const STATIC_SCORES = z.record(z.string(), z.record(z.string(), STATIC_SCORE));

/**
 * What the profile route keeps: the headers, whether the user's Fervidex settings asked for this
 * arcade dump's scores (forceStaticImport, used up by the route), and the dump. A course clear
 * (the class route) keeps `course`: the playtype and dan index it raises, and nothing else.
 */
const INPUT = z.union([
  z.strictObject({
    userAgent: z.string().nullable(),
    softwareModel: z.string().nullable(),
    forceStaticImport: z.boolean(),
    body: z.unknown(),
  }),
  z.strictObject({
    userAgent: z.string().nullable(),
    softwareModel: z.string().nullable(),
    course: z.strictObject({ playtype: z.enum(['SP', 'DP']), index: z.number().int() }),
  }),
]);

export interface StaticItem {
  songID: string;
  chart: ChartCode;
  ex_score: number;
  miss_count?: number | null;
  clear_type: number;
}

const str = (v: unknown) => (typeof v === 'string' ? v : null);

/** Every song id must be an integer and every chart a known code: a dump with one bad key is refused whole. */
function checkKeys(body: StaticBody): void {
  for (const [songID, charts] of Object.entries(body.scores)) {
    if (!/^\d+$/.test(songID))
      throw new ImportRejectedError(`Invalid Fervidex Request? scores: '${songID.slice(0, 40)}' is not a song id (a non-negative integer).`);
    for (const chart of Object.keys(charts))
      if (!(CHART_CODES as readonly string[]).includes(chart)) throw new ImportRejectedError(`Invalid chart ${chart.slice(0, 40)}.`);
  }
}

const danClasses = (dan: unknown): Record<string, string> => {
  const danID = typeof dan === 'number' ? danOfIndex(dan) : undefined;
  return danID ? { dan: danID } : {};
};

/**
 * Checks the headers and the dump: one import of both playtypes, their scores and dans. Scores
 * come from INFINITAS dumps, and from an arcade dump only when the user's Fervidex settings asked
 * for it (forceStaticImport); otherwise only the dans are taken.
 */
export function parseFervidexStatic(input: unknown, maxScores: number): ParsedImport<StaticItem> {
  const wrapper = INPUT.safeParse(input);
  if (!wrapper.success) rejectInvalid('Invalid Fervidex import input:', wrapper.error);
  const { userAgent, softwareModel } = wrapper.data;
  const build = checkHeaders({ userAgent, softwareModel });
  if ('course' in wrapper.data) {
    // A cleared course raises the dan directly, creating the profile of a playtype never played.
    const { playtype, index } = wrapper.data.course;
    const dan = danOfIndex(index);
    if (!dan) throw new ImportRejectedError(`Invalid Fervidex Request? course_id ${index} is no dan (0 to 18).`);
    return { gpt: IIDX.gpts[playtype], context: { service: 'Fervidex', version: build.version }, classes: { dan }, items: [], classesCreateProfile: true };
  }
  const { forceStaticImport, body: raw } = wrapper.data;
  const body = STATIC_BODY.safeParse(raw);
  if (!body.success) rejectInvalid('Invalid Fervidex Request?', body.error);
  checkKeys(body.data);
  const scores = STATIC_SCORES.safeParse(body.data.scores);
  if (!scores.success) rejectInvalid('Invalid Fervidex Request? scores:', scores.error);

  const items: StaticItem[] = [];
  if (build.infinitas || forceStaticImport) {
    for (const [songID, charts] of Object.entries(scores.data)) {
      for (const [chart, entry] of Object.entries(charts))
        items.push({ songID, chart: chart as ChartCode, ex_score: entry.ex_score, miss_count: entry.miss_count, clear_type: entry.clear_type });
    }
  }
  if (items.length > maxScores)
    throw new ImportRejectedError(`This dump has ${items.length} scores; the limit is ${maxScores} per import.`, HttpStatus.PAYLOAD_TOO_LARGE);
  return {
    gpt: IIDX.gpts.SP,
    context: { service: 'Fervidex Static', version: build.version },
    classes: danClasses(body.data.sp_dan),
    playtypeClasses: { DP: danClasses(body.data.dp_dan) },
    items,
  };
}

/** One entry of the dump → a score element of its playtype, without a time (a dump says when nothing was played). */
export function convertStaticScore(item: StaticItem): ConvertedItem {
  const { playtype, difficulty } = splitChartCode(item.chart);
  if (difficulty === 'BEGINNER') return { kind: 'skip' };
  return {
    kind: 'score',
    playtype,
    element: {
      matchType: 'inGameID',
      identifier: item.songID,
      difficulty,
      score: item.ex_score,
      lamp: LAMPS[item.clear_type],
      judgements: {},
      optional: item.miss_count === undefined ? {} : { bp: item.miss_count === -1 ? null : item.miss_count },
      timeAchieved: null,
    },
  };
}

/**
 * `ir/fervidex-static`: a Fervidex profile dump, SP and DP in one import; also a cleared dan course
 * (the class route). The route sets the headers and `forceStaticImport` (or `course`) in `fields`.
 */
export const irFervidexStatic: ImportType<StaticItem> = {
  name: 'ir/fervidex-static',
  read: ({ body, fields }: ImportRequest) => {
    const headers = { userAgent: str(fields.userAgent), softwareModel: str(fields.softwareModel) };
    return fields.course !== undefined ? { ...headers, course: fields.course } : { ...headers, forceStaticImport: fields.forceStaticImport === true, body };
  },
  parse: (input, { maxScores }) => parseFervidexStatic(input, maxScores),
  convert: (item) => convertStaticScore(item),
};
