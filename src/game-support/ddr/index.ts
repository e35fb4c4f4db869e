import { z } from 'zod';
import { chartNumber } from '../common/checks.js';
import { defineGpt } from '../common/define-gpt.js';
import { deriveWith } from '../common/derive.js';
import { allChecks, forbiddenJudgements, judgementCounts, type ScoreCheck } from '../common/lamp-rules.js';
import { COMMON_OPTIONAL, EMPTY_STRICT, inGameID, nonNegInt, oneOf } from '../common/metrics.js';
import type { GameSupport, GptSupport } from '../types.js';
import { FLARE_CLASS } from './classes.js';
import { FLARE_CATEGORIES, FLARE_RANKS, FLARE_SKILL, FLARE_SKILL_PROFILE, FLARE_SKILL_SESSION } from './ratings.js';

const LAMPS = ['FAILED', 'ASSIST', 'CLEAR', 'FULL COMBO', 'GREAT FULL COMBO', 'PERFECT FULL COMBO', 'MARVELOUS FULL COMBO', 'LIFE4'] as const;
const JUDGEMENTS = ['MARVELOUS', 'PERFECT', 'GREAT', 'GOOD', 'MISS', 'OK'] as const;

/**
 * The money score follows from the judgements: each step is worth 1,000,000 / stepCount; PERFECT loses 10 points,
 * GREAT is 60% − 10, GOOD 20% − 10, and the total is floored to 10. Checked on clears whose chart has a step count.
 */
const moneyScore: ScoreCheck = (input, chart) => {
  const stepCount = chartNumber(chart, 'stepCount');
  const counts = judgementCounts(input, JUDGEMENTS);
  if (input.lamp === 'FAILED' || stepCount === undefined || stepCount <= 0 || !counts) return undefined;
  const [marvelous, perfect, great, good, , ok] = counts;
  const expected = Math.floor(((5 * (marvelous + perfect + ok) + 3 * great + good) * 100_000) / (5 * stepCount) - (perfect + great + good)) * 10;
  return expected === input.score ? undefined : `These judgements give a score of ${expected} on this chart, not ${input.score}.`;
};

/** EX score: MARVELOUS and OK are worth 3, PERFECT 2, GREAT 1. */
const exScore: ScoreCheck = (input) => {
  const ex = input.optional.exScore;
  const counts = judgementCounts(input, ['MARVELOUS', 'OK', 'PERFECT', 'GREAT']);
  if (typeof ex !== 'number' || !counts) return undefined;
  const [marvelous, ok, perfect, great] = counts;
  const expected = 3 * (marvelous + ok) + 2 * perfect + great;
  return expected === ex ? undefined : `These judgements give an EX score of ${expected}, not ${ex}.`;
};

function ddrGpt(playtype: 'SP' | 'DP'): GptSupport {
  const gpt: GptSupport = defineGpt({
    game: 'ddr',
    playtype,
    percentMax: 100,
    difficulties: {
      type: 'FIXED',
      order: ['BEGINNER', 'BASIC', 'DIFFICULT', 'EXPERT', 'CHALLENGE'],
      shorthand: { BEGINNER: 'BEG', BASIC: 'BAS', DIFFICULT: 'DIF', EXPERT: 'EXP', CHALLENGE: 'CHA' },
      default: 'EXPERT',
    },
    lamps: LAMPS,
    clearLamp: 'CLEAR',
    grades: ['E', 'D', 'D+', 'C-', 'C', 'C+', 'B-', 'B', 'B+', 'A-', 'A', 'A+', 'AA-', 'AA', 'AA+', 'AAA'],
    // E has no lower bound: only a FAILED lamp gives it.
    gradeBoundaries: [
      -Infinity,
      0,
      550_000,
      590_000,
      600_000,
      650_000,
      690_000,
      700_000,
      750_000,
      790_000,
      800_000,
      850_000,
      890_000,
      900_000,
      950_000,
      990_000,
    ],
    gradeMetric: 'score',
    clearGrade: 'A',
    judgements: JUDGEMENTS,
    versions: { a: 'A', a20: 'A20', a20plus: 'A20+', a3: 'A3', konaste: 'Konaste', world: 'World' },
    scoreRatingAlgs: { flareSkill: FLARE_SKILL },
    defaultScoreRatingAlg: 'flareSkill',
    sessionRatingAlgs: { flareSkill: FLARE_SKILL_SESSION },
    defaultSessionRatingAlg: 'flareSkill',
    profileRatingAlgs: { flareSkill: FLARE_SKILL_PROFILE },
    defaultProfileRatingAlg: 'flareSkill',
    classes: { flare: FLARE_CLASS },
    optionalMetrics: z.strictObject({ ...COMMON_OPTIONAL, flare: oneOf(FLARE_RANKS), exScore: nonNegInt() }),
    scoreMeta: EMPTY_STRICT,
    chartData: z.looseObject({ inGameID: inGameID(), stepCount: z.number().int().nonnegative().optional() }),
    supportedMatchTypes: ['inGameID', 'songTitle', 'serviceSongID', 'ddrSongHash'],
    percentInput: 'forbidden',
    ...deriveWith(() => gpt, {
      maxScore: 1_000_000,
      integerScore: true,
      percent: (score) => score / 10_000,
      gradeOverride: (play) => (play.lamp === 'FAILED' ? 'E' : undefined),
      validate: allChecks(
        forbiddenJudgements({
          'FULL COMBO': ['MISS'],
          'GREAT FULL COMBO': ['MISS', 'GOOD'],
          'PERFECT FULL COMBO': ['MISS', 'GOOD', 'GREAT'],
          'MARVELOUS FULL COMBO': ['MISS', 'GOOD', 'GREAT', 'PERFECT'],
        }),
        moneyScore,
        exScore,
      ),
    }),
    pbMerge: [{ kind: 'best', optional: 'exScore', direction: 'max', name: 'Best EX Score' }],
    identityMetrics: ['exScore'],
    preferredDefaultEnum: 'lamp',
  });
  return gpt;
}

export const DDR: GameSupport = {
  game: 'ddr',
  name: 'DDR',
  playtypes: ['SP', 'DP'],
  defaultPlaytype: 'SP',
  songData: z.looseObject({
    inGameID: z.number().int(),
    flareCategory: z.enum([...FLARE_CATEGORIES, 'NONE']),
    basename: z.string().optional(),
    ddrSongHash: z.string().optional(),
  }),
  gpts: { SP: ddrGpt('SP'), DP: ddrGpt('DP') },
};
