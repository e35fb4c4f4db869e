import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { OrphanChartRecords } from '../../../database/schema.js';
import { findGpt } from '../../../game-support/registry.js';
import type { GptSupport } from '../../../game-support/types.js';
import { ImportRejectedError } from '../../import-errors.js';
import type { ConvertedItem, ParsedImport } from '../types.js';

export const BEATORAJA_SERVICE = 'Beatoraja IR';

/** beatoraja's clear types, in its own order (its ClearType ids are these indexes). */
export const CLEARS = ['NoPlay', 'Failed', 'AssistEasy', 'LightAssistEasy', 'Easy', 'Normal', 'Hard', 'ExHard', 'FullCombo', 'Perfect', 'Max'] as const;
export type BeatorajaClear = (typeof CLEARS)[number];

export const LAMP_OF_CLEAR: Readonly<Record<BeatorajaClear, string>> = {
  NoPlay: 'NO PLAY',
  Failed: 'FAILED',
  AssistEasy: 'ASSIST CLEAR',
  LightAssistEasy: 'ASSIST CLEAR',
  Easy: 'EASY CLEAR',
  Normal: 'CLEAR',
  Hard: 'HARD CLEAR',
  ExHard: 'EX HARD CLEAR',
  FullCombo: 'FULL COMBO',
  Perfect: 'FULL COMBO',
  Max: 'FULL COMBO',
};

/** beatoraja's `option` for one side (7K, PMS); 14K options describe both sides unreliably and are not kept. */
export const RANDOM_OF_OPTION: readonly string[] = ['NONRAN', 'MIRROR', 'RANDOM', 'R-RANDOM', 'S-RANDOM'];

const text = z.string().refine((s) => !s.includes('\u0000'), 'must not contain a NUL character');
const count = z.number().int().nonnegative();
const sha256 = z.string().regex(/^[0-9a-fA-F]{64}$/, 'must be a SHA256 hash: 64 hex characters');

const chartSchema = z.looseObject({
  md5: text,
  sha256,
  title: text,
  subtitle: text,
  genre: text,
  artist: text,
  subartist: text,
  total: z.number().positive(),
  judge: z.number().positive(),
  lntype: z.union([z.literal(-1), z.literal(0), z.literal(1), z.literal(2)]),
  mode: z.enum(['BEAT_7K', 'BEAT_14K', 'POPN_9K']),
  notes: count,
  hasUndefinedLN: z.boolean(),
  hasRandom: z.boolean(),
});

const scoreSchema = z.looseObject({
  sha256,
  exscore: count,
  passnotes: count,
  gauge: z.union([z.literal(-1), z.number().min(0).max(100)]),
  deviceType: z.enum(['BM_CONTROLLER', 'KEYBOARD', 'MIDI']),
  minbp: z.union([z.literal(-1), count]),
  option: z.number().int(),
  lntype: z.union([z.literal(0), z.literal(1)]),
  clear: z.enum(CLEARS),
  assist: z.literal(0),
  maxcombo: count,
  epg: count,
  egr: count,
  egd: count,
  ebd: count,
  epr: count,
  lpg: count,
  lgr: count,
  lgd: count,
  lbd: count,
  lpr: count,
  ems: count,
  lms: count,
});

export type BeatorajaChart = z.infer<typeof chartSchema>;
export type BeatorajaScore = z.infer<typeof scoreSchema>;

export interface BeatorajaItem {
  /** scoreMeta.client: which client variant sent it. */
  client: 'lr2oraja' | 'beatoraja';
  chart: BeatorajaChart;
  score: BeatorajaScore;
  /** When the server received the score: beatoraja sends no play time. */
  timeReceived: number;
}

/** A course clear resolved to the class it gives (the controller looks the course up). */
export interface ResolvedCourse {
  playtype: string;
  set: string;
  value: string;
}

/** What the import keeps: a submitted score with its receive time, or a resolved course clear. */
export type BeatorajaInput = { body: unknown; timeReceived: number } | { course: ResolvedCourse };

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function zodMessage(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.length ? i.path.join('.') : 'value'}: ${i.message}`).join('; ');
}

/** The GPT a chart's mode and the score's device name. A MIDI PMS score is refused by the converter, so any PMS playtype does for it. */
function gptOf(chart: BeatorajaChart, score: BeatorajaScore): GptSupport {
  if (chart.mode === 'BEAT_7K') return findGpt('bms', '7K')!;
  if (chart.mode === 'BEAT_14K') return findGpt('bms', '14K')!;
  return findGpt('pms', score.deviceType === 'KEYBOARD' ? 'Keyboard' : 'Controller')!;
}

/** Checks a submit-score body as a whole (Tachi's FATAL rules): its shape, the client and the chart hash. */
export function parseBeatorajaScore(body: unknown, timeReceived: number): ParsedImport<BeatorajaItem> {
  if (!isObject(body)) throw new ImportRejectedError('Invalid Beatoraja Import - the body must be a JSON object with client, chart and score.');
  const score = scoreSchema.safeParse(body.score);
  if (!score.success) throw new ImportRejectedError(`Invalid Beatoraja Import - Score: ${zodMessage(score.error)}`);
  const chart = chartSchema.safeParse(body.chart);
  if (!chart.success) throw new ImportRejectedError(`Invalid Beatoraja Import - Chart: ${zodMessage(chart.error)}`);
  if (score.data.sha256.toLowerCase() !== chart.data.sha256.toLowerCase())
    throw new ImportRejectedError('Invalid Beatoraja Import - score.sha256 and chart.sha256 name different charts.');

  const gpt = gptOf(chart.data, score.data);
  const expected = gpt.game === 'bms' ? 'LR2oraja' : 'beatoraja';
  const client = String(body.client);
  if (!client.startsWith(expected)) throw new ImportRejectedError(`Unsupported client ${client.slice(0, 100)} -- Expected a variant of ${expected}.`);

  return {
    gpt,
    context: { service: BEATORAJA_SERVICE, version: null },
    classes: {},
    items: [{ client: gpt.game === 'bms' ? 'lr2oraja' : 'beatoraja', chart: chart.data, score: score.data, timeReceived }],
  };
}

/** A course clear: no score, the class it gives as a provided class of its BMS playtype (creating the profile of a playtype never played). */
function parseCourse(course: unknown): ParsedImport<BeatorajaItem> {
  const c = isObject(course) ? course : {};
  const gpt = typeof c.playtype === 'string' ? findGpt('bms', c.playtype) : undefined;
  const set = gpt && typeof c.set === 'string' && Object.hasOwn(gpt.classes, c.set) ? gpt.classes[c.set] : undefined;
  if (!gpt || !set || set.type !== 'PROVIDED' || !set.values.some((v) => v.id === c.value))
    throw new ImportRejectedError('This course gives no class this server knows.');
  return {
    gpt,
    context: { service: BEATORAJA_SERVICE, version: null },
    classes: { [c.set as string]: c.value as string },
    items: [],
    classesCreateProfile: true,
  };
}

export function parseBeatoraja(input: unknown): ParsedImport<BeatorajaItem> {
  if (isObject(input) && 'course' in input) return parseCourse(input.course);
  if (!isObject(input) || typeof input.timeReceived !== 'number') throw new ImportRejectedError('Invalid Beatoraja Import.');
  return parseBeatorajaScore(input.body, input.timeReceived);
}

/** One score: Tachi's INVALID rules, then the batch-manual element (matched on the chart's SHA256). */
export function convertBeatoraja(item: BeatorajaItem, parsed: ParsedImport<BeatorajaItem>): ConvertedItem {
  const { chart, score } = item;
  const { gpt } = parsed;
  // beatoraja always reports the score's lntype as 0, so only the chart's is trusted.
  if (chart.lntype !== 0) return { kind: 'error', message: 'CN or HCN mode is not supported by this IR.' };
  if (chart.hasRandom) return { kind: 'error', message: 'Charts with #RANDOM declarations are not supported by this IR.' };
  if (gpt.game === 'pms' && score.deviceType === 'MIDI') return { kind: 'error', message: 'MIDI input is not supported for PMS.' };

  const perfect = gpt.game === 'pms' ? 'cool' : 'pgreat';
  const random = gpt.playtype === '14K' ? undefined : RANDOM_OF_OPTION[score.option];
  return {
    kind: 'score',
    element: {
      score: score.exscore,
      lamp: LAMP_OF_CLEAR[score.clear],
      matchType: 'bmsChartHash',
      identifier: score.sha256.toLowerCase(),
      timeAchieved: item.timeReceived,
      judgements: {
        [perfect]: score.epg + score.lpg,
        great: score.egr + score.lgr,
        good: score.egd + score.lgd,
        bad: score.ebd + score.lbd,
        poor: score.epr + score.lpr + score.ems + score.lms,
      },
      optional: {
        fast: score.egr + score.egd + score.ebd + score.epr + score.ems,
        slow: score.lgr + score.lgd + score.lbd + score.lpr + score.lms,
        maxCombo: score.maxcombo,
        ...(score.minbp === -1 ? {} : { bp: score.minbp }),
        ...(score.gauge === -1 ? {} : { gauge: score.gauge }),
        epg: score.epg,
        egr: score.egr,
        egd: score.egd,
        ebd: score.ebd,
        epr: score.epr + score.ems,
        lpg: score.lpg,
        lgr: score.lgr,
        lgd: score.lgd,
        lbd: score.lbd,
        lpr: score.lpr + score.lms,
      },
      scoreMeta: {
        client: item.client,
        ...(random === undefined ? {} : { random }),
        // PMS's scoreMeta has no inputDevice: its playtype already says it.
        ...(gpt.game === 'bms' ? { inputDevice: score.deviceType } : {}),
      },
    },
  };
}

/** Whether an unknown chart may wait in the orphan-chart queue: a real MD5 and notes to score against. */
export function isQueueable(chart: BeatorajaChart): boolean {
  return /^[0-9a-fA-F]{32}$/.test(chart.md5) && chart.notes > 0;
}

/** The song and chart the catalog gets when the queue completes, as this submission describes them. */
export function orphanChartRecords(gpt: GptSupport, chart: BeatorajaChart): OrphanChartRecords {
  const hash = chart.sha256.toLowerCase();
  return {
    song: {
      title: chart.title,
      artist: chart.artist,
      altTitles: [],
      searchTerms: [],
      data: { genre: chart.genre, subtitle: chart.subtitle, subartist: chart.subartist },
    },
    chart: {
      chartID: createHash('sha1').update(`${gpt.game}:${gpt.playtype}:${hash}`).digest('hex'),
      level: '?',
      levelNum: 0,
      isPrimary: true,
      difficulty: 'CHART',
      versions: [],
      data: { notecount: chart.notes, hashMD5: chart.md5.toLowerCase(), hashSHA256: hash, tableFolders: [] },
    },
  };
}
