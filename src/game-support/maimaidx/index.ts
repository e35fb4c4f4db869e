import { z } from 'zod';
import { percentScoreHead } from '../common/head-names.js';
import { defineGpt } from '../common/define-gpt.js';
import { deriveWith } from '../common/derive.js';
import { COMMON_OPTIONAL, EMPTY_STRICT, graphOf } from '../common/metrics.js';
import type { GameSupport, GptSupport, ScoreInput } from '../types.js';
import { MAIMAIDX_COLOUR, MAIMAIDX_DAN, MAIMAIDX_MATCHING_CLASS } from './classes.js';
import { NAIVE_RATE_PROFILE, RATE, RATE_SESSION } from './ratings.js';

const GRADES = ['D', 'C', 'B', 'BB', 'BBB', 'A', 'AA', 'AAA', 'S', 'S+', 'SS', 'SS+', 'SSS', 'SSS+'] as const;
const LAMPS = ['FAILED', 'CLEAR', 'FULL COMBO', 'FULL COMBO+', 'ALL PERFECT', 'ALL PERFECT+'] as const;
const MAX_PERCENT = 101;

function validate(input: ScoreInput): string | undefined {
  if (input.score === MAX_PERCENT && input.lamp !== 'ALL PERFECT+') return 'A score of 101% must be an ALL PERFECT+.';
  if (input.lamp === 'ALL PERFECT+' && input.score !== MAX_PERCENT) return 'An ALL PERFECT+ must have a score of 101%.';
  if (input.lamp === 'ALL PERFECT' && input.score < 100.5) return 'An ALL PERFECT must have a score of at least 100.5%.';
  return undefined;
}

const single: GptSupport = defineGpt({
  game: 'maimaidx',
  playtype: 'Single',
  percentMax: MAX_PERCENT,
  difficulties: {
    type: 'FIXED',
    order: ['Basic', 'Advanced', 'Expert', 'Master', 'Re:Master', 'DX Basic', 'DX Advanced', 'DX Expert', 'DX Master', 'DX Re:Master'],
    shorthand: {
      Basic: 'BAS',
      Advanced: 'ADV',
      Expert: 'EXP',
      Master: 'MAS',
      'Re:Master': 'Re:MAS',
      'DX Basic': 'DX BAS',
      'DX Advanced': 'DX ADV',
      'DX Expert': 'DX EXP',
      'DX Master': 'DX MAS',
      'DX Re:Master': 'DX Re:MAS',
    },
    default: 'Master',
  },
  lamps: LAMPS,
  clearLamp: 'CLEAR',
  grades: GRADES,
  gradeBoundaries: [0, 50, 60, 70, 75, 80, 90, 94, 97, 98, 99, 99.5, 100, 100.5],
  gradeMetric: 'percent',
  clearGrade: 'A',
  judgements: ['pcrit', 'perfect', 'great', 'good', 'miss'],
  versions: {
    universeplus: 'UNiVERSE PLUS',
    festival: 'FESTiVAL',
    festivalplus: 'FESTiVAL PLUS',
    buddies: 'BUDDiES',
    'buddies-omni': 'BUDDiES Omnimix',
    buddiesplus: 'BUDDiES PLUS',
    'buddiesplus-omni': 'BUDDiES PLUS Omnimix',
    prism: 'PRiSM',
    'prism-omni': 'PRiSM Omnimix',
    prismplus: 'PRiSM PLUS',
  },
  scoreRatingAlgs: { rate: RATE },
  defaultScoreRatingAlg: 'rate',
  sessionRatingAlgs: { rate: RATE_SESSION },
  defaultSessionRatingAlg: 'rate',
  profileRatingAlgs: { naiveRate: NAIVE_RATE_PROFILE },
  defaultProfileRatingAlg: 'naiveRate',
  classes: { colour: MAIMAIDX_COLOUR, dan: MAIMAIDX_DAN, matchingClass: MAIMAIDX_MATCHING_CLASS },
  optionalMetrics: z.strictObject({ ...COMMON_OPTIONAL, percentGraph: graphOf(0, MAX_PERCENT), lifeGraph: graphOf(0, 999) }),
  scoreMeta: EMPTY_STRICT,
  chartData: z.looseObject({ displayVersion: z.string(), inGameID: z.number().int().nullable() }),
  supportedMatchTypes: ['songTitle', 'serviceSongID', 'inGameID'],
  percentInput: 'forbidden',
  ...deriveWith(() => single, {
    maxScore: MAX_PERCENT,
    integerScore: false,
    percent: (score) => score,
    validate,
  }),
  pbMerge: [],
  identityMetrics: [],
  head: percentScoreHead({ lamps: LAMPS, clearLamp: 'CLEAR', grades: GRADES, clearGrade: 'A' }),
});

export const MAIMAIDX: GameSupport = {
  game: 'maimaidx',
  name: 'maimai DX',
  playtypes: ['Single'],
  defaultPlaytype: 'Single',
  songData: z.looseObject({ genre: z.string(), duration: z.number().nonnegative().optional() }),
  gpts: { Single: single },
};
