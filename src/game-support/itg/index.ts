import { z } from 'zod';
import { defineGpt } from '../common/define-gpt.js';
import { deriveWith } from '../common/derive.js';
import { fullGraphOf } from '../common/graphs.js';
import { allChecks, forbiddenJudgements, type ScoreCheck } from '../common/lamp-rules.js';
import { decimalIn, EMPTY_STRICT } from '../common/metrics.js';
import type { GameSupport, GptSupport, PbOrder } from '../types.js';
import { BLOCK_RATING, BLOCK_RATING_SESSION, FASTEST_32, FASTEST_32_PROFILE, HIGHEST_BLOCK } from './ratings.js';
import { itgHead } from './head-names.js';
import { ITG_TARGETS } from './targets.js';

const LAMPS = ['FAILED', 'CLEAR', 'FULL COMBO', 'FULL EXCELLENT COMBO', 'QUAD', 'QUINT'] as const;
const GRADES = ['F', 'D', 'C', 'B', 'A', 'S', '★', '★★', '★★★', '★★★★'] as const;

/** Only a fail can end before the whole chart was survived. */
const survivedAll: ScoreCheck = (input) => {
  const survived = input.optional.survivedPercent;
  return input.lamp !== 'FAILED' && typeof survived === 'number' && survived !== 100
    ? `A ${input.lamp} survived the whole chart, so its survivedPercent must be 100, not ${survived}.`
    : undefined;
};

/**
 * HEAD's finalPercent, ITG's default metric: a fail counts as how far it survived (0..100), a clear as 100 plus its
 * score, so any clear beats any fail. A fail whose survivedPercent is unknown counts as surviving nothing.
 */
export const FINAL_PERCENT: PbOrder = {
  name: 'Best Result',
  value: (scoreData) => {
    if (scoreData.lamp !== 'FAILED') return 100 + scoreData.score;
    const survived = scoreData.optional.survivedPercent;
    return typeof survived === 'number' ? survived : 0;
  },
};

const gpt: GptSupport = defineGpt({
  game: 'itg',
  playtype: 'Stamina',
  percentMax: 100,
  difficulties: { type: 'DYNAMIC' },
  lamps: LAMPS,
  clearLamp: 'CLEAR',
  grades: GRADES,
  // F has no lower bound: only a FAILED lamp gives it.
  gradeBoundaries: [-Infinity, 0, 55, 68, 80, 89, 96, 98, 99, 100],
  gradeMetric: 'score',
  clearGrade: 'C',
  judgements: ['fantastic+', 'fantastic', 'excellent', 'great', 'decent', 'wayoff', 'miss'],
  versions: {},
  scoreRatingAlgs: { blockRating: BLOCK_RATING, fastest32: FASTEST_32 },
  defaultScoreRatingAlg: 'blockRating',
  sessionRatingAlgs: { blockRating: BLOCK_RATING_SESSION },
  defaultSessionRatingAlg: 'blockRating',
  profileRatingAlgs: { highestBlock: HIGHEST_BLOCK, fastest32: FASTEST_32_PROFILE },
  defaultProfileRatingAlg: 'highestBlock',
  classes: {},
  optionalMetrics: z.strictObject({ survivedPercent: decimalIn(0, 100), lifebarHistory: fullGraphOf(0, 100) }),
  scoreMeta: EMPTY_STRICT,
  chartData: z.looseObject({
    rankedLevel: z.number().nullable(),
    chartLevel: z.number(),
    hashGSv3: z.string(),
    difficultyTag: z.enum(['Beginner', 'Easy', 'Medium', 'Hard', 'Expert', 'Edit']),
    length: z.number().positive(),
    charter: z.string(),
    streamBPM: z.number().nullable(),
    breakdown: z
      .looseObject({ detailed: z.string(), partiallySimplified: z.string(), simplified: z.string(), total: z.string(), density: z.number() })
      .nullable(),
    npsPerMeasure: z.array(z.number().nonnegative()),
    notesPerMeasure: z.array(z.number().int().nonnegative()),
    bannerLocationOverride: z.string().nullable(),
    originalPack: z.string(),
    packs: z.array(z.string()),
  }),
  // HEAD's only ITG match type; an extension to the spec's seven (chart data.hashGSv3).
  supportedMatchTypes: ['itgChartHash'],
  percentInput: 'forbidden',
  ...deriveWith(() => gpt, {
    maxScore: 100,
    integerScore: false,
    percent: (score) => score,
    gradeOverride: (play) => (play.lamp === 'FAILED' ? 'F' : undefined),
    validate: allChecks(
      survivedAll,
      forbiddenJudgements({
        QUINT: ['fantastic', 'excellent', 'great', 'decent', 'wayoff', 'miss'],
        QUAD: ['excellent', 'great', 'decent', 'wayoff', 'miss'],
        'FULL EXCELLENT COMBO': ['great', 'decent', 'wayoff', 'miss'],
        'FULL COMBO': ['decent', 'wayoff', 'miss'],
      }),
    ),
  }),
  pbOrder: FINAL_PERCENT,
  // The life bar belongs with the lamp it earned; survivedPercent stays with the result it is part of.
  pbMerge: [{ kind: 'fromLampPB', optional: ['lifebarHistory'] }],
  // HEAD's provided survivedPercent tells apart fails with the same score.
  identityMetrics: ['survivedPercent'],
  targets: ITG_TARGETS,
  head: itgHead({ lamps: LAMPS, clearLamp: 'CLEAR', grades: GRADES, clearGrade: 'C' }, FINAL_PERCENT),
});

export const ITG: GameSupport = {
  game: 'itg',
  name: 'ITG',
  playtypes: ['Stamina'],
  defaultPlaytype: 'Stamina',
  songData: z.looseObject({ subtitle: z.string().nullable().optional() }),
  uniqueChartKeys: [{ field: 'hashGSv3', perPlaytype: false }],
  gpts: { Stamina: gpt },
};
