import { z } from 'zod';
import { defineGpt } from '../common/define-gpt.js';
import { deriveWith } from '../common/derive.js';
import { allChecks, forbiddenJudgements, type ScoreCheck } from '../common/lamp-rules.js';
import { COMMON_OPTIONAL, decimalIn, inGameID, oneOf } from '../common/metrics.js';
import type { GameSupport, GptSupport } from '../types.js';
import { POPN_CLASS } from './classes.js';
import { CLEAR_MEDALS, lampOfMedal, popnHead } from './head-names.js';
import { CLASS_POINTS, CLASS_POINTS_SESSION, NAIVE_CLASS_POINTS } from './ratings.js';

const LAMPS = ['FAILED', 'EASY CLEAR', 'CLEAR', 'FULL COMBO', 'PERFECT'] as const;
const GRADES = ['E', 'D', 'C', 'B', 'A', 'AA', 'AAA', 'S'] as const;

/** Star, diamond and circle medals count the judgement that kept the play from the next lamp: 1–5, 6–20, 21 or more. */
const MEDAL_COUNTS: Readonly<Partial<Record<string, readonly [judgement: string, min: number, max: number]>>> = {
  fullComboStar: ['good', 1, 5],
  fullComboDiamond: ['good', 6, 20],
  fullComboCircle: ['good', 21, Infinity],
  clearStar: ['bad', 1, 5],
  clearDiamond: ['bad', 6, 20],
  clearCircle: ['bad', 21, Infinity],
};

const clearMedal: ScoreCheck = (input) => {
  const medal = input.optional.clearMedal;
  if (typeof medal !== 'string') return undefined;
  if (lampOfMedal(medal) !== input.lamp) return `The clear medal ${medal} means the lamp ${lampOfMedal(medal)}, not ${input.lamp}.`;
  const rule = MEDAL_COUNTS[medal];
  if (!rule) return undefined;
  const [judgement, min, max] = rule;
  const count = input.judgements[judgement];
  if (typeof count === 'number' && (count < min || count > max)) {
    return `A ${medal} medal needs ${max === Infinity ? `at least ${min}` : `${min} to ${max}`} ${judgement} judgements, not ${count}.`;
  }
  return undefined;
};

const gpt: GptSupport = defineGpt({
  game: 'popn',
  playtype: '9B',
  percentMax: 100,
  difficulties: { type: 'FIXED', order: ['Easy', 'Normal', 'Hyper', 'EX'], shorthand: { Easy: 'E', Normal: 'N', Hyper: 'H', EX: 'EX' }, default: 'EX' },
  lamps: LAMPS,
  clearLamp: 'CLEAR',
  grades: GRADES,
  gradeBoundaries: [0, 50_000, 62_000, 72_000, 82_000, 90_000, 95_000, 98_000],
  gradeMetric: 'score',
  clearGrade: 'A',
  judgements: ['cool', 'great', 'good', 'bad'],
  versions: { peace: 'peace', kaimei: 'Kaimei Riddles', unilab: 'Unilab' },
  scoreRatingAlgs: { classPoints: CLASS_POINTS },
  defaultScoreRatingAlg: 'classPoints',
  sessionRatingAlgs: { classPoints: CLASS_POINTS_SESSION },
  defaultSessionRatingAlg: 'classPoints',
  profileRatingAlgs: { naiveClassPoints: NAIVE_CLASS_POINTS },
  defaultProfileRatingAlg: 'naiveClassPoints',
  classes: { class: POPN_CLASS },
  optionalMetrics: z.strictObject({ ...COMMON_OPTIONAL, gauge: decimalIn(0, 100), clearMedal: oneOf(CLEAR_MEDALS) }),
  scoreMeta: z.strictObject({
    hiSpeed: z.number().nullable().optional(),
    hidden: z.number().nullable().optional(),
    sudden: z.number().nullable().optional(),
    random: z.enum(['MIRROR', 'NONRAN', 'RANDOM', 'S-RANDOM']).optional(),
    gauge: z.enum(['EASY', 'NORMAL', 'HARD', 'DANGER']).optional(),
  }),
  chartData: z.looseObject({ hashSHA256: z.union([z.string(), z.array(z.string())]).nullable(), inGameID: inGameID() }),
  supportedMatchTypes: ['inGameID', 'serviceSongID', 'popnChartHash'],
  percentInput: 'forbidden',
  ...deriveWith(() => gpt, {
    maxScore: 100_000,
    integerScore: true,
    percent: (score) => score / 1_000,
    // A fail is never graded above A, however high the score.
    gradeOverride: (play, grade) => (play.lamp === 'FAILED' && play.score >= 90_000 ? 'A' : grade),
    validate: allChecks(forbiddenJudgements({ PERFECT: ['good', 'bad'], 'FULL COMBO': ['bad'] }), clearMedal),
  }),
  // HEAD: the largest clearMedal (with its lamp). The medal must agree with the lamp, so it is the best medal
  // among the plays that have the PB's lamp (none when none of those reported one).
  pbMerge: [{ kind: 'best', optional: 'clearMedal', direction: 'max', order: CLEAR_MEDALS, name: 'Best Clear Medal', amongBestLamp: true }],
  // HEAD's provided clearMedal tells apart plays with the same score and lamp.
  identityMetrics: ['clearMedal'],
  head: popnHead({ lamps: LAMPS, clearLamp: 'CLEAR', grades: GRADES, clearGrade: 'A' }),
});

export const POPN: GameSupport = {
  game: 'popn',
  name: "pop'n music",
  playtypes: ['9B'],
  defaultPlaytype: '9B',
  songData: z.looseObject({
    displayVersion: z.string().nullable().optional(),
    genre: z.string().optional(),
    genreEN: z.string().nullable().optional(),
  }),
  uniqueChartKeys: [{ field: 'hashSHA256', perPlaytype: false }],
  gpts: { '9B': gpt },
};
