import { z } from 'zod';
import { atLeast, chartNumber } from '../common/checks.js';
import { defineGpt } from '../common/define-gpt.js';
import { deriveWith } from '../common/derive.js';
import { COMMON_OPTIONAL, EMPTY_STRICT } from '../common/metrics.js';
import type { GameSupport, GptSupport, ScoreInput } from '../types.js';
import { ARCAEA_BADGE, ARCAEA_COURSE_BANNER } from './classes.js';
import { NAIVE_POTENTIAL_PROFILE, NAIVE_POTENTIAL_SESSION, POTENTIAL } from './ratings.js';

const LAMPS = ['LOST', 'EASY CLEAR', 'CLEAR', 'HARD CLEAR', 'FULL RECALL', 'PURE MEMORY'] as const;
const BASE_MAX = 10_000_000;

function validate(input: ScoreInput): string | undefined {
  const { far, lost } = input.judgements;
  // One direction only, as in HEAD: 10,000,000 or more does not force the lamp.
  if (input.lamp === 'PURE MEMORY') {
    if (input.score < BASE_MAX) return 'A PURE MEMORY must have a score of at least 10,000,000.';
    if ((far ?? 0) > 0) return 'A PURE MEMORY cannot have far judgements.';
  }
  if (atLeast(LAMPS, input.lamp, 'FULL RECALL')) {
    if (input.score < 5_000_000) return 'A FULL RECALL must have a score of at least 5,000,000.';
    if ((lost ?? 0) > 0) return 'A FULL RECALL cannot have lost judgements.';
  }
  return undefined;
}

const touch: GptSupport = defineGpt({
  game: 'arcaea',
  playtype: 'Touch',
  // Percent is score / 100,000, so 10,000,000 is 100% and the one-point-per-shiny-PURE bonus goes just above it
  // (notecount / 100,000: about 0.02% on the longest charts). 101 leaves room for any notecount.
  percentMax: 101,
  difficulties: {
    type: 'FIXED',
    order: ['Past', 'Present', 'Future', 'Beyond'],
    shorthand: { Past: 'PST', Present: 'PRS', Future: 'FTR', Beyond: 'BYD' },
    default: 'Future',
  },
  lamps: LAMPS,
  clearLamp: 'CLEAR',
  grades: ['D', 'C', 'B', 'A', 'AA', 'EX', 'EX+'],
  gradeBoundaries: [0, 8_600_000, 8_900_000, 9_200_000, 9_500_000, 9_800_000, 9_900_000],
  gradeMetric: 'score',
  clearGrade: 'A',
  judgements: ['pure', 'far', 'lost'],
  versions: { mobile: 'Mobile', switch: 'Nintendo Switch' },
  scoreRatingAlgs: { potential: POTENTIAL },
  defaultScoreRatingAlg: 'potential',
  sessionRatingAlgs: { naivePotential: NAIVE_POTENTIAL_SESSION },
  defaultSessionRatingAlg: 'naivePotential',
  profileRatingAlgs: { naivePotential: NAIVE_POTENTIAL_PROFILE },
  defaultProfileRatingAlg: 'naivePotential',
  classes: { badge: ARCAEA_BADGE, courseBanner: ARCAEA_COURSE_BANNER },
  optionalMetrics: z.strictObject({ ...COMMON_OPTIONAL }),
  scoreMeta: EMPTY_STRICT,
  chartData: z.looseObject({ inGameStrID: z.string(), notecount: z.number().int().positive() }),
  supportedMatchTypes: ['inGameStrID', 'songTitle', 'serviceSongID'],
  percentInput: 'forbidden',
  ...deriveWith(() => touch, {
    maxScore: (chart) => {
      const notecount = chartNumber(chart, 'notecount');
      return notecount !== undefined && Number.isInteger(notecount) && notecount > 0
        ? BASE_MAX + notecount
        : 'This chart has no notecount, so its maximum score is unknown.';
    },
    integerScore: true,
    percent: (score) => score / 100_000,
    validate,
  }),
  pbMerge: [],
  identityMetrics: [],
});

export const ARCAEA: GameSupport = {
  game: 'arcaea',
  name: 'Arcaea',
  playtypes: ['Touch'],
  defaultPlaytype: 'Touch',
  songData: z.looseObject({ displayVersion: z.string(), songPack: z.string() }),
  gpts: { Touch: touch },
};
