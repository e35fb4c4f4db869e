import { z } from 'zod';
import { atLeast } from '../common/checks.js';
import { percentScoreHead } from '../common/head-names.js';
import { defineGpt } from '../common/define-gpt.js';
import { deriveWith } from '../common/derive.js';
import { COMMON_OPTIONAL, EMPTY_STRICT } from '../common/metrics.js';
import type { ChartInfo, GameSupport, GptSupport, ScoreInput } from '../types.js';
import { MAIMAI_COLOUR, MAIMAI_DAN } from './classes.js';
import { maxPercentOf, NAIVE_RATE_PROFILE, RATE, RATE_SESSION } from './ratings.js';

const GRADES = ['F', 'E', 'D', 'C', 'B', 'A', 'AA', 'AAA', 'S', 'S+', 'SS', 'SS+', 'SSS', 'SSS+'] as const;
const LAMPS = ['FAILED', 'CLEAR', 'FULL COMBO', 'ALL PERFECT', 'ALL PERFECT+'] as const;

/** SSS+ and ALL PERFECT+ both mean the chart's maximum percent (every BREAK at its best). */
function validate(input: ScoreInput, chart: ChartInfo): string | undefined {
  const { great, good, miss } = input.judgements;
  const isMax = input.score === maxPercentOf(chart);
  if (isMax && input.lamp !== 'ALL PERFECT+') return `The chart's maximum of ${input.score}% must be an ALL PERFECT+.`;
  if (!isMax && input.lamp === 'ALL PERFECT+') return `An ALL PERFECT+ must have the chart's maximum percent (${maxPercentOf(chart)}).`;
  if (atLeast(LAMPS, input.lamp, 'ALL PERFECT') && ((great ?? 0) > 0 || (good ?? 0) > 0)) return 'An ALL PERFECT cannot have great or good judgements.';
  if (atLeast(LAMPS, input.lamp, 'FULL COMBO') && (miss ?? 0) > 0) return 'A FULL COMBO cannot have miss judgements.';
  return undefined;
}

const single: GptSupport = defineGpt({
  game: 'maimai',
  playtype: 'Single',
  // No chart can exceed 104%: a chart of nothing but BREAK notes, each at its best.
  percentMax: 104,
  difficulties: {
    type: 'FIXED',
    order: ['Easy', 'Basic', 'Advanced', 'Expert', 'Master', 'Re:Master'],
    shorthand: { Easy: 'ESY', Basic: 'BAS', Advanced: 'ADV', Expert: 'EXP', Master: 'MAS', 'Re:Master': 'Re:MAS' },
    default: 'Master',
  },
  lamps: LAMPS,
  clearLamp: 'CLEAR',
  grades: GRADES,
  // SSS+ is nominally 104 but is given for the chart's own maximum (gradeOverride).
  gradeBoundaries: [0, 10, 20, 40, 60, 80, 90, 94, 97, 98, 99, 99.5, 100, 104],
  gradeMetric: 'percent',
  clearGrade: 'A',
  judgements: ['perfect', 'great', 'good', 'miss'],
  versions: { finale: 'FiNALE' },
  scoreRatingAlgs: { rate: RATE },
  defaultScoreRatingAlg: 'rate',
  sessionRatingAlgs: { rate: RATE_SESSION },
  defaultSessionRatingAlg: 'rate',
  profileRatingAlgs: { naiveRate: NAIVE_RATE_PROFILE },
  defaultProfileRatingAlg: 'naiveRate',
  classes: { colour: MAIMAI_COLOUR, dan: MAIMAI_DAN },
  optionalMetrics: z.strictObject({ ...COMMON_OPTIONAL }),
  scoreMeta: EMPTY_STRICT,
  chartData: z.looseObject({ inGameID: z.number(), inGameStrID: z.string(), maxPercent: z.number().positive().max(104) }),
  supportedMatchTypes: ['songTitle', 'serviceSongID', 'inGameID', 'inGameStrID'],
  percentInput: 'forbidden',
  ...deriveWith(() => single, {
    maxScore: (chart) => maxPercentOf(chart) ?? 'This chart has no maxPercent, so it cannot take a maimai score.',
    integerScore: false,
    percent: (score) => score,
    gradeOverride: (play, _grade, chart) => (play.score === maxPercentOf(chart) ? 'SSS+' : undefined),
    validate,
  }),
  pbMerge: [],
  identityMetrics: [],
  head: percentScoreHead({ lamps: LAMPS, clearLamp: 'CLEAR', grades: GRADES, clearGrade: 'A' }),
});

export const MAIMAI: GameSupport = {
  game: 'maimai',
  name: 'maimai',
  playtypes: ['Single'],
  defaultPlaytype: 'Single',
  songData: z.looseObject({ titleJP: z.string(), artistJP: z.string(), displayVersion: z.string() }),
  gpts: { Single: single },
};
