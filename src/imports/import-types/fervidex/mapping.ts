import { z } from 'zod';
import { IIDX_DANS } from '../../../game-support/iidx/classes.js';

/** clear_type 0–7, in the IIDX GPT's lamp names. */
export const LAMPS = ['NO PLAY', 'FAILED', 'ASSIST CLEAR', 'EASY CLEAR', 'CLEAR', 'HARD CLEAR', 'EX HARD CLEAR', 'FULL COMBO'] as const;

export const CHART_CODES = ['spb', 'spn', 'sph', 'spa', 'spl', 'dpb', 'dpn', 'dph', 'dpa', 'dpl'] as const;
export type ChartCode = (typeof CHART_CODES)[number];

const DIFFICULTY_LETTERS = { b: 'BEGINNER', n: 'NORMAL', h: 'HYPER', a: 'ANOTHER', l: 'LEGGENDARIA' } as const;

/** A chart code's playtype (its first two letters) and difficulty (its last). BEGINNER is no IIDX GPT difficulty: its scores are skipped. */
export function splitChartCode(code: ChartCode): { playtype: 'SP' | 'DP'; difficulty: (typeof DIFFICULTY_LETTERS)[keyof typeof DIFFICULTY_LETTERS] } {
  return { playtype: code.startsWith('sp') ? 'SP' : 'DP', difficulty: DIFFICULTY_LETTERS[code[2] as keyof typeof DIFFICULTY_LETTERS] };
}

/** course_id, sp_dan and dp_dan: 0 is 7th kyu … 18 kaiden, the order of the GPT's dan values. */
export function danOfIndex(index: number): string | undefined {
  return Number.isInteger(index) ? IIDX_DANS[index]?.id : undefined;
}

/** Option values as Fervidex names them → the IIDX GPT's scoreMeta values; null or absent is the game's default. */
export const GAUGES = {
  ASSISTED_EASY: 'ASSISTED EASY',
  EASY: 'EASY',
  HARD: 'HARD',
  EX_HARD: 'EX-HARD',
  // Erosion gauges (EPOLIS on) deplete like NORMAL's.
  EROSION_LV1: 'NORMAL',
  EROSION_LV2: 'NORMAL',
  EROSION_LV3: 'NORMAL',
  EROSION_LV4: 'NORMAL',
  EROSION_LV5: 'NORMAL',
} as const;
export const RANGES = { SUDDEN_PLUS: 'SUDDEN+', HIDDEN_PLUS: 'HIDDEN+', SUD_PLUS_HID_PLUS: 'SUD+ HID+', LIFT: 'LIFT', LIFT_SUD_PLUS: 'LIFT SUD+' } as const;
export const STYLES = { RANDOM: 'RANDOM', R_RANDOM: 'R-RANDOM', S_RANDOM: 'S-RANDOM', MIRROR: 'MIRROR' } as const;
export const ASSISTS = { AUTO_SCRATCH: 'AUTO SCRATCH', LEGACY_NOTE: 'LEGACY NOTE', ASCR_LEGACY: 'FULL ASSIST', FULL_ASSIST: 'FULL ASSIST' } as const;

const keysOf = <T extends object>(o: T) => Object.keys(o) as [keyof T & string, ...(keyof T & string)[]];
const option = <T extends object>(values: T) => z.enum(keysOf(values)).nullable().optional();

export const OPTION_SCHEMA = z.looseObject({
  gauge: option(GAUGES),
  range: option(RANGES),
  style: option(STYLES),
  style_2p: option(STYLES),
  assist: option(ASSISTS),
});
export type FervidexOptions = z.infer<typeof OPTION_SCHEMA>;

/** The options as IIDX scoreMeta: every key set, defaults where Fervidex sent none. DP stores one random per side. */
export function scoreMetaOf(options: FervidexOptions | undefined, playtype: 'SP' | 'DP'): Record<string, unknown> {
  const style = (s: keyof typeof STYLES | null | undefined) => (s ? STYLES[s] : 'NONRAN');
  return {
    random: playtype === 'SP' ? style(options?.style) : [style(options?.style), style(options?.style_2p)],
    gauge: options?.gauge ? GAUGES[options.gauge] : 'NORMAL',
    range: options?.range ? RANGES[options.range] : 'NONE',
    assist: options?.assist ? ASSISTS[options.assist] : 'NO ASSIST',
  };
}
