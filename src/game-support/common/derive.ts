import type { ChartInfo, Derivation, GptSupport, ScoreData, ScoreInput } from '../types.js';
import { gradeIndexFor } from './grades.js';

/** An error message when value is outside [min, max] (or not an integer where one is required). */
export function outOfRange(name: string, value: number, min: number, max: number, integer: boolean): string | undefined {
  if (!Number.isFinite(value)) return `${name} must be a finite number.`;
  if (integer && !Number.isInteger(value)) return `${name} must be an integer (got ${value}).`;
  if (value < min || value > max) return `${name} ${value} is out of range: it must be between ${min} and ${max}.`;
  return undefined;
}

export interface DeriveOptions {
  /** The largest valid score on this chart, or a message when the chart lacks what is needed to know it. */
  maxScore: number | ((chart: ChartInfo) => number | string);
  integerScore: boolean;
  /** Percent from the score (ignored when the GPT's percent is an input). */
  percent: (score: number, chart: ChartInfo, input: ScoreInput) => number;
  /** Overrides the table lookup (e.g. grade E for a DDR fail); undefined keeps the lookup. */
  gradeOverride?: (play: Pick<ScoreData, 'score' | 'percent' | 'lamp'>, gradeFromTable: string, chart: ChartInfo) => string | undefined;
  /** Further checks (lamp consistency, percent input bounds); a message rejects the score. */
  validate?: (input: ScoreInput, chart: ChartInfo) => string | undefined;
}

/**
 * The usual derivation: range-check the score, compute percent, look the grade up in the GPT's
 * boundary table (by score or by percent), and attach the lamp and grade indexes. gradeOf is the
 * same grade rule on its own, for PBs whose lamp and score come from different plays.
 */
export function deriveWith(gpt: () => GptSupport, options: DeriveOptions): Pick<GptSupport, 'deriveScore' | 'gradeOf'> {
  const gradeOf = (play: Pick<ScoreData, 'score' | 'percent' | 'lamp'>, chart: ChartInfo): string => {
    const config = gpt();
    const tableGrade = config.grades[gradeIndexFor(config.gradeMetric === 'score' ? play.score : play.percent, config.gradeBoundaries)];
    return options.gradeOverride?.(play, tableGrade, chart) ?? tableGrade;
  };
  const deriveScore = (input: ScoreInput, chart: ChartInfo): Derivation => {
    const config = gpt();
    const lampIndex = config.lamps.indexOf(input.lamp);
    if (lampIndex === -1) return { ok: false, error: `Invalid lamp '${input.lamp}': expected one of ${config.lamps.join(', ')}.` };
    const max = typeof options.maxScore === 'function' ? options.maxScore(chart) : options.maxScore;
    if (typeof max === 'string') return { ok: false, error: max };
    const rangeError = outOfRange('score', input.score, 0, max, options.integerScore);
    if (rangeError) return { ok: false, error: rangeError };
    const extra = options.validate?.(input, chart);
    if (extra) return { ok: false, error: extra };
    const percent = config.percentInput === 'required' ? (input.percent as number) : options.percent(input.score, chart, input);
    const grade = gradeOf({ score: input.score, percent, lamp: input.lamp }, chart);
    return {
      ok: true,
      scoreData: {
        score: input.score,
        percent,
        lamp: input.lamp,
        lampIndex,
        grade,
        gradeIndex: config.grades.indexOf(grade),
        judgements: input.judgements,
        optional: input.optional,
      },
    };
  };
  return { deriveScore, gradeOf };
}
