import { z } from 'zod';
import { findGame } from '../../../game-support/registry.js';
import type { GptSupport } from '../../../game-support/types.js';
import { ImportRejectedError } from '../../import-errors.js';
import type { ConvertedItem, ImportRequest, ImportType, ParsedImport } from '../types.js';

export const USC_PLAYTYPES = ['Controller', 'Keyboard'] as const;
export type UscPlaytype = (typeof USC_PLAYTYPES)[number];

/** The GPT of a route's :playtype, or undefined when it is not one of USC's. */
export function uscGpt(playtype: string): GptSupport | undefined {
  return (USC_PLAYTYPES as readonly string[]).includes(playtype) ? findGame('usc')?.gpts[playtype] : undefined;
}

/** The hit windows (ms) of an unmodified client; a score played with others is not kept. */
export const DEFAULT_WINDOWS = { perfect: 46, good: 150, hold: 150, miss: 300, slam: 84 } as const;

export const GAUGE_MODS = ['NORMAL', 'HARD', 'PERMISSIVE'] as const;

const count = z.number().int().nonnegative();
const windowMs = z.number().finite();

/** USC-IR 0.4.0-a's score submission. Extra keys are allowed: clients add fields between versions. */
const submissionSchema = z.looseObject({
  chart: z.looseObject({
    chartHash: z.string().regex(/^[0-9a-fA-F]{40}$/, 'must be the chart file SHA1 (40 hex characters)'),
    artist: z.string(),
    title: z.string(),
    effector: z.string(),
    illustrator: z.string(),
    bpm: z.string(),
    level: z.number().int().min(1).max(20),
    difficulty: z.number().int().min(0).max(3),
  }),
  score: z.looseObject({
    score: z.number().int().min(0).max(10_000_000),
    gauge: z.number().min(0).max(1),
    timestamp: count,
    crit: count,
    near: count,
    error: count,
    early: count.nullable().optional(),
    late: count.nullable().optional(),
    combo: count.nullable().optional(),
    options: z.looseObject({
      gaugeType: z.union([z.literal(0), z.literal(1), z.literal(2)]),
      mirror: z.boolean(),
      random: z.boolean(),
      autoFlags: z.number().int(),
    }),
    windows: z.looseObject({ perfect: windowMs, good: windowMs, hold: windowMs, miss: windowMs, slam: windowMs }),
  }),
});

export type UscSubmission = z.infer<typeof submissionSchema>;

/** What `ir/usc` keeps as its input: the route's playtype, when the server received it, and the body. */
export interface UscInput {
  playtype: string;
  receivedAt: number;
  body: unknown;
}

export interface UscItem {
  submission: UscSubmission;
  receivedAt: number;
}

/** The lamp, first rule that applies: a perfect score, no error, then the gauge's clear rule (PERMISSIVE never clears). */
export function uscLamp(score: UscSubmission['score']): string {
  if (score.score === 10_000_000) return 'PERFECT ULTIMATE CHAIN';
  if (score.error === 0) return 'ULTIMATE CHAIN';
  if (score.options.gaugeType === 0) return score.gauge >= 0.7 ? 'CLEAR' : 'FAILED';
  if (score.options.gaugeType === 1) return score.gauge > 0 ? 'EXCESSIVE CLEAR' : 'FAILED';
  return 'FAILED';
}

export function uscNoteMod(options: UscSubmission['score']['options']): string {
  if (options.mirror && options.random) return 'MIR-RAN';
  if (options.mirror) return 'MIRROR';
  if (options.random) return 'RANDOM';
  return 'NORMAL';
}

const EARLIEST_MS = 1_000_000_000_000;
const FUTURE_TOLERANCE_MS = 24 * 60 * 60 * 1000;

/**
 * The client's timestamp (seconds) when it is plausible, else the time the server received the
 * score. Unlike Tachi (always the receive time) a re-sent score keeps its time, and so its id.
 */
export function uscTimeAchieved(timestampSeconds: number, receivedAt: number): number {
  const claimed = timestampSeconds * 1000;
  return claimed >= EARLIEST_MS && claimed <= receivedAt + FUTURE_TOLERANCE_MS ? claimed : receivedAt;
}

function zodMessage(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.length ? i.path.join('.') : 'body'}: ${i.message}`).join('; ');
}

export function parseUsc(input: unknown): ParsedImport<UscItem> {
  const { playtype, receivedAt, body } = (input ?? {}) as Partial<UscInput>;
  const gpt = typeof playtype === 'string' ? uscGpt(playtype) : undefined;
  if (!gpt) throw new ImportRejectedError(`The playtype must be one of ${USC_PLAYTYPES.join(', ')}.`);
  if (typeof receivedAt !== 'number') throw new ImportRejectedError('The input has no receive time.');
  const parsed = submissionSchema.safeParse(body);
  if (!parsed.success) throw new ImportRejectedError(`Invalid USC score submission: ${zodMessage(parsed.error)}.`);
  return { gpt, context: { service: 'USC-IR', version: null }, classes: {}, items: [{ submission: parsed.data, receivedAt }] };
}

/** One submission → a batch-manual element; autoplay and modified hit windows reject the score. */
export function convertUsc({ submission, receivedAt }: UscItem): ConvertedItem {
  const { chart, score } = submission;
  if (score.options.autoFlags !== 0)
    return { kind: 'error', message: `Autoplay was enabled (options.autoFlags ${score.options.autoFlags}): the score is not kept.` };
  const modified = Object.entries(DEFAULT_WINDOWS).filter(([name, ms]) => score.windows[name as keyof typeof DEFAULT_WINDOWS] !== ms);
  if (modified.length) {
    const sent = modified.map(([name]) => `${name} ${score.windows[name as keyof typeof DEFAULT_WINDOWS]}`).join(', ');
    const expected = Object.entries(DEFAULT_WINDOWS)
      .map(([name, ms]) => `${name} ${ms}`)
      .join(', ');
    return { kind: 'error', message: `HitWindows have been modified (${sent}); only the defaults are accepted (${expected} ms).` };
  }
  return {
    kind: 'score',
    element: {
      matchType: 'uscChartHash',
      identifier: chart.chartHash.toLowerCase(),
      score: score.score,
      lamp: uscLamp(score),
      judgements: { critical: score.crit, near: score.near, miss: score.error },
      optional: { fast: score.early ?? null, slow: score.late ?? null, maxCombo: score.combo ?? null, gauge: score.gauge },
      scoreMeta: { noteMod: uscNoteMod(score.options), gaugeMod: GAUGE_MODS[score.options.gaugeType] },
      timeAchieved: uscTimeAchieved(score.timestamp, receivedAt),
    },
  };
}

/** `ir/usc`: one score from USC's IR client (`POST /ir/usc/:playtype/scores`); the route passes its playtype in `fields`. */
export const uscIr: ImportType<UscItem> = {
  name: 'ir/usc',
  read: ({ body, fields }: ImportRequest): UscInput => ({ playtype: String(fields.playtype), receivedAt: Date.now(), body }),
  parse: (input) => parseUsc(input),
  convert: (item) => convertUsc(item),
};
