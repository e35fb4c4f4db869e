import { z } from 'zod';
import { defineGpt } from '../common/define-gpt.js';
import { deriveWith } from '../common/derive.js';
import { COMMON_OPTIONAL, decimalIn, inGameID, nonNegInt, tierEntry } from '../common/metrics.js';
import type { GameSupport, GptSupport } from '../types.js';
import { SDVX_DANS, VF_CLASS } from './classes.js';
import { PROFILE_VF6_SESSION, VF6, VF6_PROFILE } from './ratings.js';

const LAMPS = ['FAILED', 'CLEAR', 'EXCESSIVE CLEAR', 'MAXXIVE CLEAR', 'ULTIMATE CHAIN', 'PERFECT ULTIMATE CHAIN'] as const;

const single: GptSupport = defineGpt({
  game: 'sdvx',
  playtype: 'Single',
  percentMax: 100,
  difficulties: { type: 'FIXED', order: ['NOV', 'ADV', 'EXH', 'INF', 'GRV', 'HVN', 'VVD', 'XCD', 'MXM', 'ULT'], shorthand: {}, default: 'EXH' },
  lamps: LAMPS,
  clearLamp: 'CLEAR',
  grades: ['D', 'C', 'B', 'A', 'A+', 'AA', 'AA+', 'AAA', 'AAA+', 'S', 'PUC'],
  gradeBoundaries: [0, 7_000_000, 8_000_000, 8_700_000, 9_000_000, 9_300_000, 9_500_000, 9_700_000, 9_800_000, 9_900_000, 10_000_000],
  gradeMetric: 'score',
  clearGrade: 'A',
  judgements: ['critical', 'near', 'miss'],
  versions: {
    booth: 'BOOTH',
    inf: 'infinite infection',
    gw: 'GRAVITY WARS',
    heaven: 'HEAVENLY HAVEN',
    vivid: 'VIVID WAVE',
    exceed: 'EXCEED GEAR',
    konaste: 'Konaste',
  },
  scoreRatingAlgs: { VF6 },
  defaultScoreRatingAlg: 'VF6',
  sessionRatingAlgs: { ProfileVF6: PROFILE_VF6_SESSION },
  defaultSessionRatingAlg: 'ProfileVF6',
  profileRatingAlgs: { VF6: VF6_PROFILE },
  defaultProfileRatingAlg: 'VF6',
  classes: { dan: { type: 'PROVIDED', downgradable: false, values: SDVX_DANS }, vfClass: VF_CLASS },
  optionalMetrics: z.strictObject({ ...COMMON_OPTIONAL, exScore: nonNegInt(), gauge: decimalIn(0, 100) }),
  scoreMeta: z.strictObject({ inSkillAnalyser: z.boolean().nullable().optional() }),
  chartData: z.looseObject({ inGameID: inGameID(), clearTier: tierEntry(), pucTier: tierEntry(), sTier: tierEntry() }),
  supportedMatchTypes: ['sdvxInGameID', 'songTitle', 'serviceSongID'],
  percentInput: 'forbidden',
  ...deriveWith(() => single, {
    maxScore: 10_000_000,
    integerScore: true,
    percent: (score) => score / 100_000,
    validate: (input) => {
      const { near, miss } = input.judgements;
      if (input.lamp === 'PERFECT ULTIMATE CHAIN') {
        if (input.score !== 10_000_000) return 'A PERFECT ULTIMATE CHAIN must have a score of 10,000,000.';
        if ((near ?? 0) > 0 || (miss ?? 0) > 0) return 'A PERFECT ULTIMATE CHAIN cannot have near or miss judgements.';
      }
      if (input.lamp === 'ULTIMATE CHAIN') {
        if ((miss ?? 0) > 0) return 'An ULTIMATE CHAIN cannot have miss judgements.';
        if (input.score < 5_000_000) return 'An ULTIMATE CHAIN must have a score of at least 5,000,000.';
      }
      return undefined;
    },
  }),
  pbMerge: [{ kind: 'best', optional: 'exScore', direction: 'max', name: 'Best EX Score' }],
  identityMetrics: ['exScore'],
  // The VF6 the player aims for (a chart's VF6 is at most 0.5).
  preferences: { schema: z.strictObject({ vf6Target: z.number().min(0).max(0.5).optional() }), defaults: {} },
});

export const SDVX: GameSupport = {
  game: 'sdvx',
  name: 'SOUND VOLTEX',
  playtypes: ['Single'],
  defaultPlaytype: 'Single',
  songData: z.looseObject({ displayVersion: z.string().nullable().optional() }),
  gpts: { Single: single },
};
