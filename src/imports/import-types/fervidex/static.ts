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

const PLAYTYPE = z.enum(['SP', 'DP']);

/** What the profile route keeps: the headers and which playtype's half of the dump this import takes (one GPT per import). */
const INPUT = z.strictObject({
  userAgent: z.string().nullable(),
  softwareModel: z.string().nullable(),
  playtype: PLAYTYPE,
  body: z.unknown(),
});

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

/**
 * Checks the headers and the dump, and takes the half of one playtype: its dan and its scores.
 * Scores come only from INFINITAS: Tachi imports an arcade dump's scores only when the user's
 * Fervidex settings ask for it once, and this service has no such settings.
 */
export function parseFervidexStatic(input: unknown, maxScores: number): ParsedImport<StaticItem> {
  const wrapper = INPUT.safeParse(input);
  if (!wrapper.success) rejectInvalid('Invalid Fervidex import input:', wrapper.error);
  const { userAgent, softwareModel, playtype, body: raw } = wrapper.data;
  const build = checkHeaders({ userAgent, softwareModel });
  const body = STATIC_BODY.safeParse(raw);
  if (!body.success) rejectInvalid('Invalid Fervidex Request?', body.error);
  checkKeys(body.data);
  const scores = STATIC_SCORES.safeParse(body.data.scores);
  if (!scores.success) rejectInvalid('Invalid Fervidex Request? scores:', scores.error);

  const items: StaticItem[] = [];
  if (build.infinitas) {
    for (const [songID, charts] of Object.entries(scores.data)) {
      for (const [chart, entry] of Object.entries(charts)) {
        if (splitChartCode(chart as ChartCode).playtype === playtype)
          items.push({ songID, chart: chart as ChartCode, ex_score: entry.ex_score, miss_count: entry.miss_count, clear_type: entry.clear_type });
      }
    }
  }
  if (items.length > maxScores)
    throw new ImportRejectedError(`This dump has ${items.length} ${playtype} scores; the limit is ${maxScores} per import.`, HttpStatus.PAYLOAD_TOO_LARGE);
  const dan = playtype === 'SP' ? body.data.sp_dan : body.data.dp_dan;
  const danID = typeof dan === 'number' ? danOfIndex(dan) : undefined;
  return {
    gpt: IIDX.gpts[playtype],
    context: { service: 'Fervidex Static', version: build.version },
    classes: danID ? { dan: danID } : {},
    items,
  };
}

/** One entry of the dump → a score element without a time (a dump says when nothing was played). */
export function convertStaticScore(item: StaticItem): ConvertedItem {
  const { difficulty } = splitChartCode(item.chart);
  if (difficulty === 'BEGINNER') return { kind: 'skip' };
  return {
    kind: 'score',
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

/** `ir/fervidex-static`: a Fervidex profile dump, one import per playtype it carries. The route sets `playtype` and the headers in `fields`. */
export const irFervidexStatic: ImportType<StaticItem> = {
  name: 'ir/fervidex-static',
  read: ({ body, fields }: ImportRequest) => ({
    userAgent: str(fields.userAgent),
    softwareModel: str(fields.softwareModel),
    playtype: fields.playtype,
    body,
  }),
  parse: (input, { maxScores }) => parseFervidexStatic(input, maxScores),
  convert: (item) => convertStaticScore(item),
};
