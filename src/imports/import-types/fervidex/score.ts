import { z } from 'zod';
import { IIDX } from '../../../game-support/iidx/index.js';
import { ImportRejectedError } from '../../import-errors.js';
import type { ConvertedItem, ImportRequest, ImportType, ParsedImport } from '../types.js';
import { checkHeaders } from './headers.js';
import { CHART_CODES, LAMPS, OPTION_SCHEMA, scoreMetaOf, splitChartCode } from './mapping.js';
import { rejectInvalid } from './schema-errors.js';

const count = z.number().int().nonnegative();
/** Gauge samples are bytes; above 200 they carry no gauge value. */
const gaugeSample = z.number().int().min(0).max(255);
const NO_GAUGE_ABOVE = 200;

/** One play as Fervidex posts it. Keys this import does not read are allowed. */
export const SCORE_BODY = z.looseObject({
  chart: z.enum(CHART_CODES),
  entry_id: count,
  chart_sha256: z.string().nullish(),
  custom: z.boolean().nullish(),
  pgreat: count,
  great: count,
  good: count,
  bad: count,
  poor: count,
  fast: count,
  slow: count,
  // Read for its shape only: Fervidex's max combo is not stored.
  max_combo: z.number().int().nullish(),
  combo_break: count,
  ex_score: count,
  clear_type: z.number().int().min(0).max(7),
  gauge: z.array(gaugeSample),
  ghost: z.unknown().optional(),
  dead: z.looseObject({ measure: z.number().int().nullish(), note: z.number().int().nullish() }).nullish(),
  option: OPTION_SCHEMA.nullish(),
  pacemaker: z.unknown().optional(),
  '2dx-gsm': z.looseObject({ EASY: z.array(gaugeSample), NORMAL: z.array(gaugeSample), HARD: z.array(gaugeSample), EX_HARD: z.array(gaugeSample) }).nullish(),
  highlight: z.boolean().nullish(),
  duplicate: z.boolean().nullish(),
});
export type FervidexScoreBody = z.infer<typeof SCORE_BODY>;

/** What the score route keeps: the headers and when the play arrived (its time). */
const INPUT = z.strictObject({
  userAgent: z.string().nullable(),
  softwareModel: z.string().nullable(),
  receivedAt: z.number().int().positive(),
  body: z.unknown(),
});

export interface FervidexItem {
  body: FervidexScoreBody;
  receivedAt: number;
}

const SHA256 = /^[0-9a-f]{64}$/i;

const str = (v: unknown) => (typeof v === 'string' ? v : null);

/** In-game id 21201's ANOTHER is the LEGGENDARIA of 12250 in the catalog. */
const REMAPPED_CHARTS: Readonly<Record<string, { entryID: number; difficulty: string }>> = {
  '21201|ANOTHER': { entryID: 12250, difficulty: 'LEGGENDARIA' },
};

/** A gauge history as the IIDX GPT keeps it: samples above 200 become gaps. */
const gaugeGraph = (samples: readonly number[]) => samples.map((v) => (v > NO_GAUGE_ABOVE ? null : v));

/** Fervidex's ghost is an EX-score graph; one the GPT's graph cannot hold is left out rather than failing the play. */
function scoreHistoryOf(ghost: unknown): number[] | undefined {
  if (!Array.isArray(ghost) || ghost.length === 0) return undefined;
  return ghost.every((v) => typeof v === 'number' && v >= 0 && v <= 100) ? (ghost as number[]) : undefined;
}

/** One Fervidex play → a score element on the IIDX GPT; the chart is found by in-game id in the header's version. */
export function convertFervidexScore(item: FervidexItem, playtype: 'SP' | 'DP'): ConvertedItem {
  const { body } = item;
  const code = splitChartCode(body.chart);
  if (code.difficulty === 'BEGINNER') return { kind: 'skip' };

  let chartRef: { matchType: string; identifier: string; difficulty: string | null };
  if (body.custom) {
    // A custom (2dxtra) chart is found by its SHA256, in any version (the shared matcher's iidxChartHash).
    if (!body.chart_sha256) return { kind: 'error', message: 'custom is true but chart_sha256 is missing: a custom chart is found by its SHA256.' };
    if (!SHA256.test(body.chart_sha256))
      return { kind: 'error', message: `chart_sha256 '${body.chart_sha256.slice(0, 80)}' is not a SHA256 (64 hexadecimal characters).` };
    chartRef = { matchType: 'iidxChartHash', identifier: body.chart_sha256.toLowerCase(), difficulty: null };
  } else {
    const remap = REMAPPED_CHARTS[`${body.entry_id}|${code.difficulty}`];
    chartRef = {
      matchType: 'inGameID',
      identifier: String(remap?.entryID ?? body.entry_id),
      difficulty: remap?.difficulty ?? code.difficulty,
    };
  }

  const finalGauge = body.gauge.at(-1) ?? null;
  if (finalGauge !== null && finalGauge > 100) return { kind: 'error', message: `The final gauge value ${finalGauge} is above 100.` };

  const optional: Record<string, unknown> = {
    fast: body.fast,
    slow: body.slow,
    comboBreak: body.combo_break,
    // A play that died has no meaningful miss count.
    bp: body.dead ? null : body.bad + body.poor,
    gauge: finalGauge,
    gaugeHistory: gaugeGraph(body.gauge),
  };
  const scoreHistory = scoreHistoryOf(body.ghost);
  if (scoreHistory) optional.scoreHistory = scoreHistory;
  const gsm = body['2dx-gsm'];
  if (gsm) {
    optional.gsmEasy = gaugeGraph(gsm.EASY);
    optional.gsmNormal = gaugeGraph(gsm.NORMAL);
    optional.gsmHard = gaugeGraph(gsm.HARD);
    optional.gsmEXHard = gaugeGraph(gsm.EX_HARD);
  }

  return {
    kind: 'score',
    element: {
      ...chartRef,
      score: body.ex_score,
      lamp: LAMPS[body.clear_type],
      judgements: { pgreat: body.pgreat, great: body.great, good: body.good, bad: body.bad, poor: body.poor },
      optional,
      scoreMeta: scoreMetaOf(body.option ?? undefined, playtype),
      timeAchieved: item.receivedAt,
    },
    ...(body.highlight ? { highlight: true } : {}),
  };
}

/** Checks the headers (User-Agent, then X-Software-Model) and the play: any problem rejects it with a 400. */
export function parseFervidexScore(input: unknown): ParsedImport<FervidexItem> {
  const wrapper = INPUT.safeParse(input);
  if (!wrapper.success) rejectInvalid('Invalid Fervidex import input:', wrapper.error);
  const { userAgent, softwareModel, receivedAt, body: raw } = wrapper.data;
  const build = checkHeaders({ userAgent, softwareModel });
  const body = SCORE_BODY.safeParse(raw);
  if (!body.success) rejectInvalid('Invalid Fervidex Request?', body.error);
  const gpt = IIDX.gpts[splitChartCode(body.data.chart).playtype];
  if (!Object.hasOwn(gpt.versions, build.version)) throw new ImportRejectedError(`IIDX has no version ${build.version}.`);
  return {
    gpt,
    context: { service: 'Fervidex', version: build.version },
    classes: {},
    items: [{ body: body.data, receivedAt }],
  };
}

/**
 * `ir/fervidex`: one play from the Fervidex hook. The route puts the headers and the arrival time
 * into `fields`. A play sent with `highlight` highlights its score, the stored one when it is a re-send.
 */
export const irFervidex: ImportType<FervidexItem> = {
  name: 'ir/fervidex',
  // A play's time is when it arrived, and Fervidex sends a play again (a retry, or to highlight it).
  timesIdentifyPlays: false,
  read: ({ body, fields }: ImportRequest) => ({
    userAgent: str(fields.userAgent),
    softwareModel: str(fields.softwareModel),
    receivedAt: fields.receivedAt,
    body,
  }),
  parse: (input) => parseFervidexScore(input),
  convert: (item, parsed) => convertFervidexScore(item, parsed.gpt.playtype as 'SP' | 'DP'),
};
