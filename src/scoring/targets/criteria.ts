import type { GptSupport, ScoreData } from '../../game-support/types.js';

/** What a goal asks of each chart's PB: key, threshold and how many charts must meet it. */
export interface GoalCriteria {
  key: string;
  value: number;
  mode: 'single' | 'absolute' | 'proportion';
  countNum?: number;
}

/** The PB a single-mode goal reports its progress from, with what formatting it needs. */
export interface ProgressPb {
  scoreData: ScoreData;
  /** The chart's data (where the GPT counts EX score, grade deltas are counted against the chart's maximum score). */
  chartData: Readonly<Record<string, unknown>>;
}

/**
 * One criteria key: the personal_bests column it compares (`>=` the value), how its value is
 * checked and written for people, and how a PB's progress toward it reads.
 */
export interface CriteriaKind {
  /** A personal_bests column (SQL name) holding the PB's value for this key. */
  column: 'score' | 'percent' | 'lamp_index' | 'grade_index';
  /** Why the value is not valid on this GPT; undefined when it is. */
  check(value: number, gpt: GptSupport): string | undefined;
  /** The goal's name starts with this. */
  titlePrefix(value: number, gpt: GptSupport): string;
  outOfHuman(value: number, gpt: GptSupport): string;
  progressHuman(pb: ProgressPb, goalValue: number, gpt: GptSupport): string;
}

/** At most two decimal places, without trailing zeros: 95 → "95", 97.5 → "97.5". */
export function upTo2dp(n: number): string {
  return String(Number(n.toFixed(2)));
}

const localeNumber = (n: number) => n.toLocaleString('en-GB');

function signed(n: number, format: (x: number) => string): string {
  return n < 0 ? `-${format(-n)}` : `+${format(n)}`;
}

const compact = (n: number) => new Intl.NumberFormat('en-GB', { notation: 'compact', maximumFractionDigits: 1 }).format(n).toLowerCase();

/**
 * A grade delta such as "AA+40" or "AAA-100": the distance from the PB's own grade boundary (lower)
 * or to the next grade's boundary (upper). The upper one is used when it names the goal's grade,
 * otherwise the closer of the two. Measured in the GPT's grade metric, in compact notation; where the
 * GPT counts EX score (`targets.exScore`: IIDX, BMS, PMS), in whole points, percent boundaries converted
 * through the chart's maximum score.
 */
export function gradeDelta(pb: ProgressPb, goalGrade: number, gpt: GptSupport): string {
  const { scoreData } = pb;
  const own = Math.min(Math.max(scoreData.gradeIndex, 0), gpt.grades.length - 1);
  const exScoreRule = gpt.targets?.exScore;
  const maxScore = gpt.gradeMetric === 'percent' ? exScoreRule?.maxScore(pb.chartData) : undefined;
  const exScore = maxScore !== undefined;
  const value = gpt.gradeMetric === 'score' || exScore ? scoreData.score : scoreData.percent;
  const boundary = (i: number) => (exScore ? Math.ceil((gpt.gradeBoundaries[i] * maxScore) / 100) : gpt.gradeBoundaries[i]);
  const format = (n: number) => {
    if (exScore || (gpt.gradeMetric === 'score' && exScoreRule)) return String(Math.round(n));
    if (gpt.gradeMetric === 'percent') return `${n.toFixed(2)}%`;
    return compact(n);
  };
  const lower = `${gpt.grades[own]}${signed(value - boundary(own), format)}`;
  if (own + 1 >= gpt.grades.length) return lower;
  const upperDistance = boundary(own + 1) - value;
  const upper = `${gpt.grades[own + 1]}${signed(-upperDistance, format)}`;
  if (own + 1 === goalGrade) return upper;
  return upperDistance < value - boundary(own) ? upper : lower;
}

/** The PB's lamp, with what the GPT adds to it (`targets.lampProgress`: BMS's BP count). */
function lampWithDetail(pb: ProgressPb, gpt: GptSupport): string {
  return gpt.targets?.lampProgress?.(pb.scoreData) ?? pb.scoreData.lamp;
}

function enumIndex(names: readonly string[], what: string) {
  return (value: number): string | undefined =>
    Number.isInteger(value) && value >= 0 && value < names.length
      ? undefined
      : `criteria.value must be the index of a ${what} (an integer from 0 to ${names.length - 1}: ${names.map((n, i) => `${i} ${n}`).join(', ')}); got ${value}.`;
}

/** The criteria registry: a new criteria key is one entry here. */
export const CRITERIA: Readonly<Record<string, CriteriaKind>> = {
  score: {
    column: 'score',
    check: (value) => (value >= 0 ? undefined : `criteria.value must be 0 or more for a score goal; got ${value}.`),
    titlePrefix: (value) => `Get a score of ${localeNumber(value)} on`,
    outOfHuman: (value) => localeNumber(value),
    progressHuman: (pb) => localeNumber(pb.scoreData.score),
  },
  percent: {
    column: 'percent',
    check: (value, gpt) =>
      value > 0 && value <= gpt.percentMax ? undefined : `criteria.value must be more than 0 and at most ${gpt.percentMax} for a percent goal; got ${value}.`,
    titlePrefix: (value) => `Get ${upTo2dp(value)}% on`,
    outOfHuman: (value) => `${value.toFixed(2)}%`,
    progressHuman: (pb) => `${pb.scoreData.percent.toFixed(2)}%`,
  },
  lamp: {
    column: 'lamp_index',
    check: (value, gpt) => enumIndex(gpt.lamps, 'lamp')(value),
    titlePrefix: (value, gpt) => gpt.lamps[value],
    outOfHuman: (value, gpt) => gpt.lamps[value],
    progressHuman: (pb, _value, gpt) => lampWithDetail(pb, gpt),
  },
  grade: {
    column: 'grade_index',
    check: (value, gpt) => enumIndex(gpt.grades, 'grade')(value),
    titlePrefix: (value, gpt) => gpt.grades[value],
    outOfHuman: (value, gpt) => gpt.grades[value],
    progressHuman: (pb, value, gpt) => gradeDelta(pb, value, gpt),
  },
};

export function criteriaKind(key: string): CriteriaKind | undefined {
  return Object.prototype.hasOwnProperty.call(CRITERIA, key) ? CRITERIA[key] : undefined;
}
