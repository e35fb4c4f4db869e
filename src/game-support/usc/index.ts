import { z } from 'zod';
import { defineGpt } from '../common/define-gpt.js';
import { deriveWith } from '../common/derive.js';
import { COMMON_OPTIONAL, decimalIn } from '../common/metrics.js';
import { VF_CLASS } from '../sdvx/classes.js';
import { PROFILE_VF6_SESSION, VF6, VF6_PROFILE } from '../sdvx/ratings.js';
import type { GameSupport, GptSupport } from '../types.js';

/** USC rates and classes scores exactly like SDVX (VF6, VOLFORCE classes); it has no MAXXIVE CLEAR. */
function uscGpt(playtype: 'Controller' | 'Keyboard'): GptSupport {
  const gpt: GptSupport = defineGpt({
    game: 'usc',
    playtype,
    percentMax: 100,
    difficulties: { type: 'FIXED', order: ['NOV', 'ADV', 'EXH', 'INF'], shorthand: {}, default: 'EXH' },
    lamps: ['FAILED', 'CLEAR', 'EXCESSIVE CLEAR', 'ULTIMATE CHAIN', 'PERFECT ULTIMATE CHAIN'],
    clearLamp: 'CLEAR',
    grades: ['D', 'C', 'B', 'A', 'A+', 'AA', 'AA+', 'AAA', 'AAA+', 'S', 'PUC'],
    gradeBoundaries: [0, 7_000_000, 8_000_000, 8_700_000, 9_000_000, 9_300_000, 9_500_000, 9_700_000, 9_800_000, 9_900_000, 10_000_000],
    gradeMetric: 'score',
    clearGrade: 'A',
    judgements: ['critical', 'near', 'miss'],
    versions: {},
    scoreRatingAlgs: { VF6 },
    defaultScoreRatingAlg: 'VF6',
    sessionRatingAlgs: { ProfileVF6: PROFILE_VF6_SESSION },
    defaultSessionRatingAlg: 'ProfileVF6',
    profileRatingAlgs: { VF6: VF6_PROFILE },
    defaultProfileRatingAlg: 'VF6',
    classes: { vfClass: VF_CLASS },
    optionalMetrics: z.strictObject({ ...COMMON_OPTIONAL, gauge: decimalIn(0, 100) }),
    scoreMeta: z.strictObject({
      noteMod: z.enum(['MIR-RAN', 'MIRROR', 'NORMAL', 'RANDOM']).optional(),
      gaugeMod: z.enum(['NORMAL', 'HARD', 'PERMISSIVE']).optional(),
    }),
    chartData: z.looseObject({
      hashSHA1: z.union([z.string(), z.array(z.string())]),
      isOfficial: z.boolean(),
      effector: z.string(),
      tableFolders: z.array(z.object({ table: z.string(), level: z.string() })),
    }),
    supportedMatchTypes: ['uscChartHash', 'serviceSongID'],
    percentInput: 'forbidden',
    ...deriveWith(() => gpt, {
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
    pbMerge: [],
    identityMetrics: [],
    // The VF6 the player aims for (a chart's VF6 is at most 0.5).
    preferences: { schema: z.strictObject({ vf6Target: z.number().min(0).max(0.5).optional() }), defaults: {} },
  });
  return gpt;
}

export const USC: GameSupport = {
  game: 'usc',
  name: 'USC',
  playtypes: ['Controller', 'Keyboard'],
  defaultPlaytype: 'Controller',
  songData: z.looseObject({}),
  // Controller and Keyboard charts of one file share its hash.
  uniqueChartKeys: [{ field: 'hashSHA1', perPlaytype: true }],
  gpts: { Controller: uscGpt('Controller'), Keyboard: uscGpt('Keyboard') },
};
