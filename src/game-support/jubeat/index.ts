import { z } from 'zod';
import { defineGpt } from '../common/define-gpt.js';
import { deriveWith, outOfRange } from '../common/derive.js';
import { allChecks, failedIffBelow, forbiddenJudgements, lampIffScore, type ScoreCheck } from '../common/lamp-rules.js';
import { COMMON_OPTIONAL, EMPTY_STRICT, inGameID } from '../common/metrics.js';
import type { ChartInfo, GameSupport, GptSupport } from '../types.js';
import { JUBEAT_COLOUR } from './classes.js';
import { jubeatHead } from './head-names.js';
import { JUBILITY, JUBILITY_PROFILE, JUBILITY_SESSION, NAIVE_JUBILITY } from './ratings.js';

const LAMPS = ['FAILED', 'CLEAR', 'FULL COMBO', 'EXCELLENT'] as const;
const GRADES = ['E', 'D', 'C', 'B', 'A', 'S', 'SS', 'SSS', 'EXC'] as const;

/** HARD mode charts go up to a music rate of 120; the others stop at 100. */
function maxMusicRate(chart: ChartInfo): number {
  return chart.difficulty.startsWith('HARD') ? 120 : 100;
}

/** The music rate (batch-manual `percent`) is in range, and not a fraction sent in place of a percentage. */
const musicRate: ScoreCheck = (input, chart) => {
  if (input.percent === undefined) return 'jubeat scores need their music rate as percent.';
  const max = maxMusicRate(chart);
  const rangeError = outOfRange('percent (music rate)', input.percent, 0, max, false);
  if (rangeError) return rangeError;
  if (input.percent <= max / 100 && input.score >= 100_000) {
    return `A music rate of ${input.percent} with a score of ${input.score} looks like a fraction: send the music rate as a percentage (0 to ${max}).`;
  }
  return undefined;
};

const gpt: GptSupport = defineGpt({
  game: 'jubeat',
  playtype: 'Single',
  percentMax: 120,
  difficulties: {
    type: 'FIXED',
    order: ['BSC', 'ADV', 'EXT', 'HARD BSC', 'HARD ADV', 'HARD EXT'],
    shorthand: { BSC: 'BSC', ADV: 'ADV', EXT: 'EXT', 'HARD BSC': 'H. BSC', 'HARD ADV': 'H. ADV', 'HARD EXT': 'H. EXT' },
    default: 'EXT',
  },
  lamps: LAMPS,
  clearLamp: 'CLEAR',
  grades: GRADES,
  gradeBoundaries: [0, 500_000, 700_000, 800_000, 850_000, 900_000, 950_000, 980_000, 1_000_000],
  gradeMetric: 'score',
  clearGrade: 'A',
  judgements: ['perfect', 'great', 'good', 'poor', 'miss'],
  versions: {
    jubeat: 'jubeat',
    ripples: 'ripples',
    knit: 'knit',
    copious: 'copious',
    saucer: 'saucer',
    prop: 'prop',
    qubell: 'Qubell',
    clan: 'clan',
    festo: 'festo',
    'festo-omni': 'festo Omnimix',
    ave: 'Ave.',
  },
  scoreRatingAlgs: { jubility: JUBILITY },
  defaultScoreRatingAlg: 'jubility',
  sessionRatingAlgs: { jubility: JUBILITY_SESSION },
  defaultSessionRatingAlg: 'jubility',
  profileRatingAlgs: { jubility: JUBILITY_PROFILE, naiveJubility: NAIVE_JUBILITY },
  defaultProfileRatingAlg: 'jubility',
  classes: { colour: JUBEAT_COLOUR },
  optionalMetrics: z.strictObject({
    ...COMMON_OPTIONAL,
    musicBar: z.array(z.number().int().min(0).max(3)).nullable().optional(),
  }),
  scoreMeta: EMPTY_STRICT,
  chartData: z.looseObject({ inGameID: inGameID(), noteCount: z.number().int().nonnegative(), musicBar: z.array(z.number()) }),
  supportedMatchTypes: ['inGameID', 'serviceSongID'],
  percentInput: 'required',
  ...deriveWith(() => gpt, {
    maxScore: 1_000_000,
    integerScore: true,
    // Not called for jubeat: with percentInput 'required', deriveWith takes the music rate from the input.
    percent: (_score, _chart, input) => input.percent ?? Number.NaN,
    validate: allChecks(
      musicRate,
      lampIffScore('EXCELLENT', 1_000_000),
      forbiddenJudgements({ EXCELLENT: ['great', 'good', 'poor', 'miss'], 'FULL COMBO': ['miss'] }),
      failedIffBelow(700_000),
    ),
  }),
  // HEAD: best musicRate (the default metric), largest lamp, and the largest score with its grade.
  pbOrder: { name: 'Best Music Rate', value: (scoreData) => scoreData.percent },
  pbMerge: [{ kind: 'bestScore', name: 'Best Score' }],
  identityMetrics: [],
  head: jubeatHead({ lamps: LAMPS, clearLamp: 'CLEAR', grades: GRADES, clearGrade: 'A' }),
  // The jubility the player aims for (165.1 is the most a profile can have).
  preferences: { schema: z.strictObject({ jubilityTarget: z.number().min(0).max(165.1).optional() }), defaults: {} },
});

export const JUBEAT: GameSupport = {
  game: 'jubeat',
  name: 'jubeat',
  playtypes: ['Single'],
  defaultPlaytype: 'Single',
  songData: z.looseObject({ displayVersion: z.string() }),
  gpts: { Single: gpt },
};
