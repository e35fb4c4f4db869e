import { z } from 'zod';
import { atLeast } from '../common/checks.js';
import { defineGpt } from '../common/define-gpt.js';
import { deriveWith } from '../common/derive.js';
import { fullGraphOf } from '../common/graphs.js';
import { COMMON_OPTIONAL, EMPTY_STRICT, oneOf } from '../common/metrics.js';
import type { GameSupport, GptSupport, ScoreInput } from '../types.js';
import { CLEAR_LAMPS, chunithmHead, LAMPS, NOTE_LAMPS } from './head-names.js';
import { CHUNITHM_COLOUR, CHUNITHM_DAN, CHUNITHM_EMBLEM } from './classes.js';
import { NAIVE_RATING_PROFILE, NAIVE_RATING_SESSION, RATING } from './ratings.js';

const MAX_SCORE = 1_010_000;
const GRADES = ['D', 'C', 'B', 'BB', 'BBB', 'A', 'AA', 'AAA', 'S', 'S+', 'SS', 'SS+', 'SSS', 'SSS+'] as const;

/** The skill gauges fail at this many non-JUSTICE CRITICAL judgements. */
const CLEAR_LAMP_LIMITS: Readonly<Record<string, number>> = { BRAVE: 150, ABSOLUTE: 50, CATASTROPHY: 10 };

function checkLamps(input: ScoreInput): string | undefined {
  const { jcrit, justice, attack, miss } = input.judgements;
  if (input.score === MAX_SCORE && input.lamp !== 'ALL JUSTICE CRITICAL') return 'A score of 1,010,000 must be an ALL JUSTICE CRITICAL.';
  if (input.lamp === 'ALL JUSTICE CRITICAL') {
    if (input.score !== MAX_SCORE) return 'An ALL JUSTICE CRITICAL must have a score of 1,010,000.';
    if ((justice ?? 0) > 0) return 'An ALL JUSTICE CRITICAL cannot have justice judgements.';
  }
  if (atLeast(LAMPS, input.lamp, 'ALL JUSTICE')) {
    if (input.score < 1_000_000) return 'An ALL JUSTICE must have a score of at least 1,000,000.';
    if ((attack ?? 0) > 0) return 'An ALL JUSTICE cannot have attack judgements.';
  }
  if (atLeast(LAMPS, input.lamp, 'FULL COMBO')) {
    if (input.score < 500_000) return 'A FULL COMBO must have a score of at least 500,000.';
    if ((miss ?? 0) > 0) return 'A FULL COMBO cannot have miss judgements.';
    const maxCombo = input.optional.maxCombo;
    const counts = [jcrit, justice, attack, miss];
    if (typeof maxCombo === 'number' && counts.every((c) => typeof c === 'number')) {
      const notes = counts.reduce<number>((a, c) => a + (c ?? 0), 0);
      if (maxCombo !== notes) return `A full-combo lamp must have maxCombo equal to the judgement total (${notes}), not ${maxCombo}.`;
    }
  }
  return undefined;
}

/** optional.noteLamp holds the combo of a failed play only (HEAD's noteLamp with a FAILED clearLamp). */
function checkNoteLamp(input: ScoreInput): string | undefined {
  const noteLamp = input.optional.noteLamp;
  if (typeof noteLamp !== 'string' || noteLamp === 'NONE') return undefined;
  if (input.lamp !== 'FAILED') return `optional.noteLamp is only for a FAILED score; a ${input.lamp} score's lamp already says its combo.`;
  if ((input.judgements.miss ?? 0) > 0) return `A ${noteLamp} cannot have miss judgements.`;
  if (noteLamp !== 'FULL COMBO' && (input.judgements.attack ?? 0) > 0) return `An ${noteLamp} cannot have attack judgements.`;
  return undefined;
}

function checkClearLamp(input: ScoreInput): string | undefined {
  const clearLamp = input.optional.clearLamp;
  if (typeof clearLamp !== 'string') return undefined;
  if (input.lamp === 'FAILED' && clearLamp !== 'FAILED') return `A FAILED score cannot have the clear lamp ${clearLamp}.`;
  if (input.lamp === 'CLEAR' && clearLamp === 'FAILED') return 'A CLEAR score cannot have the clear lamp FAILED.';
  const { justice, attack, miss } = input.judgements;
  const nonCritical = (justice ?? 0) + (attack ?? 0) + (miss ?? 0);
  const limit = CLEAR_LAMP_LIMITS[clearLamp];
  if (limit !== undefined && nonCritical >= limit) {
    return `A ${clearLamp} clear must have fewer than ${limit} judgements below JUSTICE CRITICAL (got ${nonCritical}).`;
  }
  if (clearLamp === 'HARD' && nonCritical >= 300 && (miss ?? 0) >= 20) {
    return 'A HARD clear cannot have both 300 or more judgements below JUSTICE CRITICAL and 20 or more misses.';
  }
  return undefined;
}

const single: GptSupport = defineGpt({
  game: 'chunithm',
  playtype: 'Single',
  percentMax: 101,
  difficulties: {
    type: 'FIXED',
    order: ['BASIC', 'ADVANCED', 'EXPERT', 'MASTER', 'ULTIMA'],
    shorthand: { BASIC: 'B', ADVANCED: 'A', EXPERT: 'E', MASTER: 'M', ULTIMA: 'U' },
    default: 'MASTER',
  },
  lamps: LAMPS,
  clearLamp: 'CLEAR',
  grades: GRADES,
  gradeBoundaries: [0, 500_000, 600_000, 700_000, 800_000, 900_000, 925_000, 950_000, 975_000, 990_000, 1_000_000, 1_005_000, 1_007_500, 1_009_000],
  gradeMetric: 'score',
  clearGrade: 'A',
  judgements: ['jcrit', 'justice', 'attack', 'miss'],
  versions: {
    paradiselost: 'PARADISE LOST',
    new: 'NEW',
    newplus: 'NEW PLUS',
    sun: 'SUN',
    'sun-intl': 'SUN International',
    'sun-omni': 'SUN Omnimix',
    sunplus: 'SUN PLUS',
    'sunplus-intl': 'SUN PLUS International',
    'sunplus-omni': 'SUN PLUS Omnimix',
    luminous: 'LUMINOUS',
    'luminous-intl': 'LUMINOUS International',
    'luminous-omni': 'LUMINOUS Omnimix',
    luminousplus: 'LUMINOUS PLUS',
    'luminousplus-intl': 'LUMINOUS PLUS International',
    'luminousplus-omni': 'LUMINOUS PLUS Omnimix',
    verse: 'VERSE',
    'verse-intl': 'VERSE International',
    'verse-omni': 'VERSE Omnimix',
  },
  scoreRatingAlgs: { rating: RATING },
  defaultScoreRatingAlg: 'rating',
  sessionRatingAlgs: { naiveRating: NAIVE_RATING_SESSION },
  defaultSessionRatingAlg: 'naiveRating',
  profileRatingAlgs: { naiveRating: NAIVE_RATING_PROFILE },
  defaultProfileRatingAlg: 'naiveRating',
  classes: { colour: CHUNITHM_COLOUR, dan: CHUNITHM_DAN, emblem: CHUNITHM_EMBLEM },
  optionalMetrics: z.strictObject({
    ...COMMON_OPTIONAL,
    clearLamp: oneOf(CLEAR_LAMPS),
    noteLamp: oneOf(NOTE_LAMPS),
    scoreGraph: fullGraphOf(0, MAX_SCORE),
    lifeGraph: fullGraphOf(0, 999),
  }),
  scoreMeta: EMPTY_STRICT,
  chartData: z.looseObject({ inGameID: z.number().int() }),
  supportedMatchTypes: ['inGameID', 'songTitle', 'serviceSongID'],
  percentInput: 'forbidden',
  ...deriveWith(() => single, {
    maxScore: MAX_SCORE,
    integerScore: true,
    percent: (score) => score / 10_000,
    validate: (input) => checkLamps(input) ?? checkClearLamp(input) ?? checkNoteLamp(input),
  }),
  pbMerge: [
    { kind: 'best', optional: 'clearLamp', direction: 'max', name: 'Best Clear Lamp', order: CLEAR_LAMPS },
    // Read only while the PB's lamp is FAILED (see headLampsOf): the best combo among failed plays.
    { kind: 'best', optional: 'noteLamp', direction: 'max', name: 'Best Note Lamp', order: NOTE_LAMPS },
  ],
  identityMetrics: [],
  head: chunithmHead({ grades: GRADES, clearGrade: 'A' }),
});

export const CHUNITHM: GameSupport = {
  game: 'chunithm',
  name: 'CHUNITHM',
  playtypes: ['Single'],
  defaultPlaytype: 'Single',
  songData: z.looseObject({ genre: z.string(), displayVersion: z.string(), duration: z.number().nonnegative().optional() }),
  gpts: { Single: single },
};
