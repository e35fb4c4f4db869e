import { z } from 'zod';
import { defineGpt } from '../common/define-gpt.js';
import { deriveWith } from '../common/derive.js';
import { allChecks, forbiddenJudgements, lampIffScore, type ScoreCheck } from '../common/lamp-rules.js';
import { COMMON_OPTIONAL, inGameID } from '../common/metrics.js';
import type { GameSupport, GptSupport } from '../types.js';
import { STAGE_UP, WACCA_COLOUR } from './classes.js';
import { HOT_COLD_RATE, NAIVE_RATE, RATE, RATE_SESSION } from './ratings.js';

const missless: ScoreCheck = (input) => {
  const miss = input.judgements.miss;
  return input.lamp === 'MISSLESS' && typeof miss === 'number' && miss > 5 ? `A MISSLESS allows at most 5 misses, not ${miss}.` : undefined;
};

const gpt: GptSupport = defineGpt({
  game: 'wacca',
  playtype: 'Single',
  percentMax: 100,
  difficulties: {
    type: 'FIXED',
    order: ['NORMAL', 'HARD', 'EXPERT', 'INFERNO'],
    shorthand: { NORMAL: 'NRM', HARD: 'HRD', EXPERT: 'EXP', INFERNO: 'INF' },
    default: 'EXPERT',
  },
  lamps: ['FAILED', 'CLEAR', 'MISSLESS', 'FULL COMBO', 'ALL MARVELOUS'],
  clearLamp: 'CLEAR',
  grades: ['D', 'C', 'B', 'A', 'AA', 'AAA', 'S', 'S+', 'SS', 'SS+', 'SSS', 'SSS+', 'MASTER'],
  // B is HEAD's 300,100. The reference's quirks list flags it against 2.2.0's 3.0001% (30,001 points) but names no
  // other value; every other bound agrees between the eras, and where they differ the lists follow HEAD.
  gradeBoundaries: [0, 1, 300_100, 700_000, 800_000, 850_000, 900_000, 930_000, 950_000, 970_000, 980_000, 990_000, 1_000_000],
  gradeMetric: 'score',
  clearGrade: 'S',
  judgements: ['marvelous', 'great', 'good', 'miss'],
  versions: { reverse: 'REVERSE', plus: 'PLUS' },
  scoreRatingAlgs: { rate: RATE },
  defaultScoreRatingAlg: 'rate',
  sessionRatingAlgs: { rate: RATE_SESSION },
  defaultSessionRatingAlg: 'rate',
  // naiveRate is the default in both eras (and HEAD's colour input); 2.2.0's hot/cold rate is a second profile.
  profileRatingAlgs: { naiveRate: NAIVE_RATE, rate: HOT_COLD_RATE },
  defaultProfileRatingAlg: 'naiveRate',
  classes: { stageUp: STAGE_UP, colour: WACCA_COLOUR },
  optionalMetrics: z.strictObject({ ...COMMON_OPTIONAL }),
  scoreMeta: z.strictObject({ mirror: z.boolean().nullable().optional() }),
  // isHot: 2.2.0's flag, read by the hot/cold rate profile; HEAD's seeds leave it out.
  chartData: z.looseObject({ inGameID: inGameID(), isHot: z.boolean().optional() }),
  supportedMatchTypes: ['songTitle', 'serviceSongID', 'inGameID'],
  percentInput: 'forbidden',
  ...deriveWith(() => gpt, {
    maxScore: 1_000_000,
    integerScore: true,
    percent: (score) => score / 10_000,
    validate: allChecks(
      lampIffScore('ALL MARVELOUS', 1_000_000),
      forbiddenJudgements({ 'ALL MARVELOUS': ['great', 'good', 'miss'], 'FULL COMBO': ['miss'] }),
      missless,
    ),
  }),
  pbMerge: [],
  identityMetrics: [],
});

export const WACCA: GameSupport = {
  game: 'wacca',
  name: 'WACCA',
  playtypes: ['Single'],
  defaultPlaytype: 'Single',
  songData: z.looseObject({ displayVersion: z.string().optional(), genre: z.string().optional() }),
  gpts: { Single: gpt },
};
