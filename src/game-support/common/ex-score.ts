import { z } from 'zod';
import type { ChartInfo, GptTargets, PbMergeRule } from '../types.js';
import type { DeriveOptions } from './derive.js';
import { ninths } from './grades.js';
import { COMMON_OPTIONAL, decimalIn, nonNegInt } from './metrics.js';

/** IIDX, BMS and PMS share the EX score (PGREAT 2, GREAT 1, out of notecount × 2), lamps and grades. */
export const EX_LAMPS = ['NO PLAY', 'FAILED', 'ASSIST CLEAR', 'EASY CLEAR', 'CLEAR', 'HARD CLEAR', 'EX HARD CLEAR', 'FULL COMBO'] as const;
export type ExLamp = (typeof EX_LAMPS)[number];

export const EX_GRADES = ['F', 'E', 'D', 'C', 'B', 'A', 'AA', 'AAA', 'MAX-', 'MAX'] as const;
/** Percent lower bounds; MAX- is 17/18 of 100, which is exactly ninths(8.5). */
export const EX_GRADE_BOUNDARIES = [0, ninths(2), ninths(3), ninths(4), ninths(5), ninths(6), ninths(7), ninths(8), ninths(8.5), 100];

export function exLampAtLeast(lamp: string, minimum: ExLamp): boolean {
  return (EX_LAMPS as readonly string[]).indexOf(lamp) >= EX_LAMPS.indexOf(minimum);
}

function notecountOf(chart: ChartInfo): number | undefined {
  const n = chart.data.notecount;
  return typeof n === 'number' && Number.isInteger(n) && n > 0 ? n : undefined;
}

/**
 * Derivation of an EX score: at most notecount × 2, percent = 100 × score / (notecount × 2), and, when both are
 * given, perfect × 2 + great must add up to the score (`perfect` is pgreat, or cool in PMS).
 */
export function exScoreDerivation(perfect: string): DeriveOptions {
  return {
    maxScore: (chart) => {
      const notecount = notecountOf(chart);
      return notecount === undefined ? 'This chart has no notecount, so it cannot take an EX score.' : notecount * 2;
    },
    integerScore: true,
    // maxScore has already refused charts without a notecount.
    percent: (score, chart) => (100 * score) / ((notecountOf(chart) ?? Number.NaN) * 2),
    validate: (input) => {
      const p = input.judgements[perfect];
      const great = input.judgements.great;
      if (typeof p === 'number' && typeof great === 'number' && p * 2 + great !== input.score) {
        return `${perfect} × 2 + great is ${p * 2 + great}, but the EX score is ${input.score}: they must be equal.`;
      }
      return undefined;
    },
  };
}

/**
 * Tachi's goal rules of the EX-score games (IIDX, BMS, PMS): a score goal is an EX score out of the chart's
 * notecount × 2, on a single chart only; grade deltas are counted in EX score ("AA+40"); a lamp goal's progress shows
 * the PB's BP count.
 */
export const EX_SCORE_TARGETS: GptTargets = {
  exScore: {
    maxScore: (chartData) => (typeof chartData.notecount === 'number' ? chartData.notecount * 2 : undefined),
  },
  lampProgress: (scoreData) => {
    const bp = scoreData.optional.bp;
    return typeof bp === 'number' ? `${scoreData.lamp} (BP: ${bp})` : undefined;
  },
};

/** A gauge or score graph whose points are all present (HEAD GRAPH, as opposed to NULLABLE_GRAPH). */
const fullGraphOf = (min: number, max: number) => z.array(z.number().min(min).max(max)).nullable().optional();

/** The optional metrics of BMS and PMS (beatoraja/LR2 style: early/late counts and per-gauge histories). */
export const BMS_STYLE_OPTIONAL = {
  ...COMMON_OPTIONAL,
  bp: nonNegInt(),
  gauge: decimalIn(0, 100),
  gaugeHistory: fullGraphOf(0, 100),
  gaugeHistoryEasy: fullGraphOf(0, 100),
  gaugeHistoryGroove: fullGraphOf(0, 100),
  gaugeHistoryHard: fullGraphOf(0, 100),
  epg: nonNegInt(),
  egr: nonNegInt(),
  egd: nonNegInt(),
  ebd: nonNegInt(),
  epr: nonNegInt(),
  lpg: nonNegInt(),
  lgr: nonNegInt(),
  lgd: nonNegInt(),
  lbd: nonNegInt(),
  lpr: nonNegInt(),
};

/** BMS and PMS keep the gauge and its histories with the lamp they earned, and the lowest BP on its own. */
export const BMS_STYLE_PB_MERGE: readonly PbMergeRule<keyof typeof BMS_STYLE_OPTIONAL>[] = [
  { kind: 'fromLampPB', optional: ['gauge', 'gaugeHistory', 'gaugeHistoryEasy', 'gaugeHistoryGroove', 'gaugeHistoryHard'] },
  { kind: 'best', optional: 'bp', direction: 'min', name: 'Best BP' },
];

/** BMS/PMS table folders: [{table, level}], e.g. {table: '★', level: '5'}. */
export const tableFolders = () => z.array(z.object({ table: z.string(), level: z.string() }));

export const BMS_STYLE_SONG_DATA = z.looseObject({
  genre: z.string().nullable().optional(),
  subtitle: z.string().nullable().optional(),
  subartist: z.string().nullable().optional(),
  tableString: z.string().nullable().optional(),
});
