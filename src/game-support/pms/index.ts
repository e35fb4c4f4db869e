import { z } from 'zod';
import { SIEGLINDE, SIEGLINDE_PROFILE, SIEGLINDE_SESSION } from '../bms/ratings.js';
import { defineGpt } from '../common/define-gpt.js';
import { deriveWith } from '../common/derive.js';
import {
  BMS_STYLE_OPTIONAL,
  BMS_STYLE_PB_MERGE,
  BMS_STYLE_SONG_DATA,
  EX_GRADE_BOUNDARIES,
  EX_GRADES,
  EX_LAMPS,
  EX_SCORE_TARGETS,
  exScoreDerivation,
  tableFolders,
} from '../common/ex-score.js';
import type { GameSupport, GptSupport } from '../types.js';
import { PMS_DANS } from './classes.js';

/** Controller and Keyboard are configured identically. */
function pmsGpt(playtype: 'Controller' | 'Keyboard'): GptSupport {
  const gpt: GptSupport = defineGpt({
    game: 'pms',
    playtype,
    percentMax: 100,
    difficulties: { type: 'FIXED', order: ['CHART'], shorthand: {}, default: 'CHART' },
    lamps: EX_LAMPS,
    clearLamp: 'CLEAR',
    grades: EX_GRADES,
    gradeBoundaries: EX_GRADE_BOUNDARIES,
    gradeMetric: 'percent',
    clearGrade: 'A',
    judgements: ['cool', 'great', 'good', 'bad', 'poor'],
    versions: {},
    scoreRatingAlgs: { sieglinde: SIEGLINDE },
    defaultScoreRatingAlg: 'sieglinde',
    sessionRatingAlgs: { sieglinde: SIEGLINDE_SESSION },
    defaultSessionRatingAlg: 'sieglinde',
    profileRatingAlgs: { sieglinde: SIEGLINDE_PROFILE },
    defaultProfileRatingAlg: 'sieglinde',
    classes: { dan: { type: 'PROVIDED', downgradable: false, values: PMS_DANS } },
    optionalMetrics: z.strictObject(BMS_STYLE_OPTIONAL),
    scoreMeta: z.strictObject({
      random: z.enum(['MIRROR', 'NONRAN', 'R-RANDOM', 'RANDOM', 'S-RANDOM']).optional(),
      client: z.enum(['beatoraja']).optional(),
      gauge: z.enum(['EASY', 'NORMAL', 'HARD', 'EX-HARD']).optional(),
    }),
    chartData: z.looseObject({
      notecount: z.number().int().positive(),
      hashMD5: z.string(),
      hashSHA256: z.string(),
      tableFolders: tableFolders(),
      sglEC: z.number().nullable().optional(),
      sglHC: z.number().nullable().optional(),
    }),
    supportedMatchTypes: ['bmsChartHash', 'serviceSongID'],
    percentInput: 'forbidden',
    // PMS's top judgement is the COOL, worth 2 like a PGREAT.
    ...deriveWith(() => gpt, exScoreDerivation('cool')),
    pbMerge: BMS_STYLE_PB_MERGE,
    identityMetrics: [],
    preferredDefaultEnum: 'lamp',
    targets: EX_SCORE_TARGETS,
  });
  return gpt;
}

export const PMS: GameSupport = {
  game: 'pms',
  name: 'PMS',
  playtypes: ['Controller', 'Keyboard'],
  defaultPlaytype: 'Controller',
  songData: BMS_STYLE_SONG_DATA,
  // Controller and Keyboard charts of one file share its hashes.
  uniqueChartKeys: [
    { field: 'hashMD5', perPlaytype: true },
    { field: 'hashSHA256', perPlaytype: true },
  ],
  gpts: { Controller: pmsGpt('Controller'), Keyboard: pmsGpt('Keyboard') },
};
