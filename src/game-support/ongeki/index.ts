import { z } from 'zod';
import { atLeast, chartNumber } from '../common/checks.js';
import { defineGpt } from '../common/define-gpt.js';
import { deriveWith } from '../common/derive.js';
import { COMMON_OPTIONAL, EMPTY_STRICT, graphOf, nonNegInt, oneOf } from '../common/metrics.js';
import type { ChartInfo, GameSupport, GptSupport, ScoreInput } from '../types.js';
import { ONGEKI_COLOUR } from './classes.js';
import { ongekiHead } from './head-names.js';
import {
  platinumStars,
  NAIVE_RATING_PROFILE,
  NAIVE_RATING_REFRESH_PROFILE,
  NAIVE_RATING_SESSION,
  NAIVE_SCORE_RATING_SESSION,
  RATING,
  SCORE_RATING,
  STAR_RATING,
  STAR_RATING_SESSION,
} from './ratings.js';

/** HEAD's noteLamp; bellLamp and platinumScore are optional metrics. */
const LAMPS = ['LOSS', 'CLEAR', 'FULL COMBO', 'ALL BREAK', 'ALL BREAK+'] as const;
const BELL_LAMPS = ['NONE', 'FULL BELL'] as const;
const MAX_SCORE = 1_010_000;
const GRADES = ['D', 'C', 'B', 'BB', 'BBB', 'A', 'AA', 'AAA', 'S', 'SS', 'SSS', 'SSS+'] as const;

const DISPLAY_VERSIONS = [
  'オンゲキ',
  'オンゲキ PLUS',
  'オンゲキ SUMMER',
  'オンゲキ SUMMER PLUS',
  'オンゲキ R.E.D.',
  'オンゲキ R.E.D. PLUS',
  'オンゲキ bright',
  'オンゲキ bright MEMORY Act.1',
  'オンゲキ bright MEMORY Act.2',
  'オンゲキ bright MEMORY Act.3',
  'オンゲキ Re:Fresh',
] as const;
const GENRES = ['POPS＆ANIME', 'niconico', '東方Project', 'VARIETY', 'チュウマイ', 'オンゲキ', 'LUNATIC', 'ボーナストラック'] as const;

function validate(input: ScoreInput, chart: ChartInfo): string | undefined {
  const { break: breaks, hit, miss } = input.judgements;
  const bellLamp = input.optional.bellLamp;
  if (input.score === MAX_SCORE) {
    if (input.lamp !== 'ALL BREAK+') return 'A score of 1,010,000 must be an ALL BREAK+.';
    if (bellLamp === 'NONE') return 'A score of 1,010,000 must be a FULL BELL.';
  }
  if (input.lamp === 'ALL BREAK+') {
    if (input.score !== MAX_SCORE) return 'An ALL BREAK+ must have a score of 1,010,000.';
    if ((breaks ?? 0) > 0) return 'An ALL BREAK+ cannot have break judgements.';
  }
  if (atLeast(LAMPS, input.lamp, 'ALL BREAK') && (hit ?? 0) > 0) return 'An ALL BREAK cannot have hit judgements.';
  if (atLeast(LAMPS, input.lamp, 'FULL COMBO') && (miss ?? 0) > 0) return 'A FULL COMBO cannot have miss judgements.';
  if (input.lamp === 'LOSS' && bellLamp === 'FULL BELL') return 'A LOSS cannot be a FULL BELL.';
  const platinumScore = input.optional.platinumScore;
  if (typeof platinumScore === 'number') {
    const max = chartNumber(chart, 'maxPlatScore');
    if (max === undefined) return 'This chart has no maxPlatScore, so it cannot take a platinumScore.';
    if (platinumScore > max) return `platinumScore ${platinumScore} is out of range: this chart's maximum is ${max}.`;
  }
  return undefined;
}

/**
 * HEAD's derived platinumStars (0..6, 6 = rainbow) of a play with a platinumScore, from the chart's maxPlatScore;
 * undefined (no key) without a platinumScore or a maxPlatScore.
 */
export function derivedPlatinumStars(optional: Readonly<Record<string, unknown>>, chart: ChartInfo): { platinumStars: number | undefined } {
  const platinumScore = optional.platinumScore;
  const max = chartNumber(chart, 'maxPlatScore');
  return { platinumStars: typeof platinumScore === 'number' && max !== undefined && max > 0 ? platinumStars(platinumScore, max) : undefined };
}

/** deriveScore, with platinumStars added to the play's optional metrics. */
function withPlatinumStars(base: Pick<GptSupport, 'deriveScore' | 'gradeOf'>): Pick<GptSupport, 'deriveScore' | 'gradeOf'> {
  return {
    gradeOf: base.gradeOf,
    deriveScore(input, chart) {
      const derived = base.deriveScore(input, chart);
      if (!derived.ok) return derived;
      const { platinumStars: stars } = derivedPlatinumStars(input.optional, chart);
      const optional = Object.fromEntries(Object.entries(derived.scoreData.optional).filter(([k]) => k !== 'platinumStars'));
      return { ok: true, scoreData: { ...derived.scoreData, optional: stars === undefined ? optional : { ...optional, platinumStars: stars } } };
    },
  };
}

const single: GptSupport = defineGpt({
  game: 'ongeki',
  playtype: 'Single',
  percentMax: 101,
  difficulties: {
    type: 'FIXED',
    order: ['BASIC', 'ADVANCED', 'EXPERT', 'MASTER', 'LUNATIC'],
    shorthand: { BASIC: 'BAS', ADVANCED: 'ADV', EXPERT: 'EXP', MASTER: 'MAS', LUNATIC: 'LUN' },
    default: 'MASTER',
  },
  lamps: LAMPS,
  clearLamp: 'CLEAR',
  grades: GRADES,
  gradeBoundaries: [0, 500_000, 700_000, 750_000, 800_000, 850_000, 900_000, 940_000, 970_000, 990_000, 1_000_000, 1_007_500],
  gradeMetric: 'score',
  clearGrade: 'A',
  judgements: ['cbreak', 'break', 'hit', 'miss'],
  versions: {
    brightMemory2Omni: 'bright MEMORY Act.II Omnimix',
    brightMemory3: 'bright MEMORY Act.III',
    brightMemory3Omni: 'bright MEMORY Act.III Omnimix',
    refresh: 'Re:Fresh',
    refreshOmni: 'Re:Fresh Omnimix',
  },
  scoreRatingAlgs: { rating: RATING, scoreRating: SCORE_RATING, starRating: STAR_RATING },
  defaultScoreRatingAlg: 'rating',
  sessionRatingAlgs: { naiveRating: NAIVE_RATING_SESSION, naiveScoreRating: NAIVE_SCORE_RATING_SESSION, starRating: STAR_RATING_SESSION },
  defaultSessionRatingAlg: 'naiveRating',
  profileRatingAlgs: { naiveRating: NAIVE_RATING_PROFILE, naiveRatingRefresh: NAIVE_RATING_REFRESH_PROFILE },
  defaultProfileRatingAlg: 'naiveRating',
  classes: { colour: ONGEKI_COLOUR },
  optionalMetrics: z.strictObject({
    ...COMMON_OPTIONAL,
    bellLamp: oneOf(BELL_LAMPS),
    platinumScore: nonNegInt(),
    damage: nonNegInt(),
    bellCount: nonNegInt(),
    totalBellCount: nonNegInt(),
    scoreGraph: graphOf(0, MAX_SCORE),
    platinumGraph: graphOf(-100_000, 0),
    bellGraph: graphOf(-10_000, 0),
    lifeGraph: graphOf(0, 100),
  }),
  scoreMeta: EMPTY_STRICT,
  chartData: z.looseObject({
    displayVersion: z.enum(DISPLAY_VERSIONS),
    isReMaster: z.boolean().optional(),
    maxPlatScore: z.number().int().positive(),
    inGameID: z.number().int(),
    chartViewURL: z.string().optional(),
  }),
  supportedMatchTypes: ['songTitle', 'serviceSongID', 'inGameID'],
  percentInput: 'forbidden',
  ...withPlatinumStars(
    deriveWith(() => single, {
      maxScore: MAX_SCORE,
      integerScore: true,
      percent: (score) => score / 10_000,
      validate,
    }),
  ),
  derivedOptional: derivedPlatinumStars,
  pbMerge: [
    { kind: 'best', optional: 'platinumScore', direction: 'max', name: 'Best Platinum Score' },
    { kind: 'best', optional: 'bellLamp', direction: 'max', name: 'Best Bell Lamp', order: BELL_LAMPS },
  ],
  identityMetrics: ['damage', 'bellCount'],
  head: ongekiHead({ lamps: LAMPS, clearLamp: 'CLEAR', grades: GRADES, clearGrade: 'A' }),
});

export const ONGEKI: GameSupport = {
  game: 'ongeki',
  name: 'O.N.G.E.K.I.',
  playtypes: ['Single'],
  defaultPlaytype: 'Single',
  songData: z.looseObject({ genre: z.enum(GENRES), duration: z.number().nonnegative() }),
  gpts: { Single: single },
};
