import { z } from 'zod';
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
import type { ClassSet, GameSupport, GptSupport } from '../types.js';
import { GENOCIDE_DANS, LN_DANS, NEW_GENERATION_DANS, SCRATCH_DANS, STSL_DANS_14K, STSL_DANS_7K } from './classes.js';
import { SIEGLINDE, SIEGLINDE_PROFILE, SIEGLINDE_SESSION } from './ratings.js';

const RANDOM = z.enum(['MIRROR', 'NONRAN', 'R-RANDOM', 'RANDOM', 'S-RANDOM']);
const OPTIONS = {
  inputDevice: z.enum(['BM_CONTROLLER', 'KEYBOARD', 'MIDI']).optional(),
  client: z.enum(['lr2oraja', 'LR2']).optional(),
  gauge: z.enum(['EASY', 'NORMAL', 'HARD', 'EX-HARD']).optional(),
};

const provided = (values: ClassSet['values']): ClassSet => ({ type: 'PROVIDED', downgradable: false, values });

/** Everything 7K and 14K share; they differ in random (one side or a pair) and class sets. */
function bmsGpt(playtype: '7K' | '14K', own: Pick<GptSupport, 'scoreMeta' | 'classes'>): GptSupport {
  const gpt: GptSupport = defineGpt({
    game: 'bms',
    playtype,
    percentMax: 100,
    difficulties: { type: 'FIXED', order: ['CHART'], shorthand: {}, default: 'CHART' },
    lamps: EX_LAMPS,
    clearLamp: 'CLEAR',
    grades: EX_GRADES,
    gradeBoundaries: EX_GRADE_BOUNDARIES,
    gradeMetric: 'percent',
    clearGrade: 'A',
    judgements: ['pgreat', 'great', 'good', 'bad', 'poor'],
    versions: {},
    scoreRatingAlgs: { sieglinde: SIEGLINDE },
    defaultScoreRatingAlg: 'sieglinde',
    sessionRatingAlgs: { sieglinde: SIEGLINDE_SESSION },
    defaultSessionRatingAlg: 'sieglinde',
    profileRatingAlgs: { sieglinde: SIEGLINDE_PROFILE },
    defaultProfileRatingAlg: 'sieglinde',
    classes: own.classes,
    optionalMetrics: z.strictObject(BMS_STYLE_OPTIONAL),
    scoreMeta: own.scoreMeta,
    chartData: z.looseObject({
      notecount: z.number().int().positive(),
      hashMD5: z.string(),
      hashSHA256: z.string(),
      tableFolders: tableFolders(),
      sglEC: z.number().nullable().optional(),
      sglHC: z.number().nullable().optional(),
      aiLevel: z.string().nullable().optional(),
    }),
    supportedMatchTypes: ['bmsChartHash', 'serviceSongID'],
    percentInput: 'forbidden',
    ...deriveWith(() => gpt, exScoreDerivation('pgreat')),
    pbMerge: BMS_STYLE_PB_MERGE,
    identityMetrics: [],
    preferredDefaultEnum: 'lamp',
    targets: EX_SCORE_TARGETS,
    // The difficulty tables whose levels the client shows beside a chart (table IDs or names, as the client keeps them).
    preferences: { schema: z.strictObject({ displayTables: z.array(z.string().min(1).max(100)).max(50).optional() }), defaults: { displayTables: [] } },
  });
  return gpt;
}

const sevenKeys = bmsGpt('7K', {
  scoreMeta: z.strictObject({ random: RANDOM.optional(), ...OPTIONS }),
  classes: {
    genocideDan: provided(GENOCIDE_DANS),
    stslDan: provided(STSL_DANS_7K),
    newGenerationDan: provided(NEW_GENERATION_DANS),
    lnDan: provided(LN_DANS),
    scratchDan: provided(SCRATCH_DANS),
  },
});

const fourteenKeys = bmsGpt('14K', {
  scoreMeta: z.strictObject({ random: z.tuple([RANDOM, RANDOM]).optional(), ...OPTIONS }),
  classes: { genocideDan: provided(GENOCIDE_DANS), stslDan: provided(STSL_DANS_14K) },
});

export const BMS: GameSupport = {
  game: 'bms',
  name: 'BMS',
  playtypes: ['7K', '14K'],
  defaultPlaytype: '7K',
  songData: BMS_STYLE_SONG_DATA,
  // A hash names one chart whatever the playtype (bmsChartHash looks charts up across playtypes).
  uniqueChartKeys: [
    { field: 'hashMD5', perPlaytype: false },
    { field: 'hashSHA256', perPlaytype: false },
  ],
  gpts: { '7K': sevenKeys, '14K': fourteenKeys },
};
