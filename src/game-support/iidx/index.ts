import { z } from 'zod';
import { defineGpt } from '../common/define-gpt.js';
import { deriveWith } from '../common/derive.js';
import { EX_GRADE_BOUNDARIES, EX_GRADES, EX_LAMPS, EX_SCORE_TARGETS, exScoreDerivation } from '../common/ex-score.js';
import { COMMON_OPTIONAL, decimalIn, graphOf, inGameID, nonNegInt, tierEntry } from '../common/metrics.js';
import type { Difficulties, GameSupport, GptSupport, ScoreRatingAlg } from '../types.js';
import { IIDX_DANS } from './classes.js';
import { BPI, BPI_PROFILE, BPI_SESSION, KT_LAMP_RATING_DP, KT_LAMP_RATING_PROFILE, KT_LAMP_RATING_SESSION, KT_LAMP_RATING_SP } from './ratings.js';

const DIFFICULTIES: Difficulties = {
  type: 'FIXED',
  order: [
    'NORMAL',
    'HYPER',
    'ANOTHER',
    'LEGGENDARIA',
    'All Scratch NORMAL',
    'All Scratch HYPER',
    'All Scratch ANOTHER',
    'All Scratch LEGGENDARIA',
    'Kichiku NORMAL',
    'Kichiku HYPER',
    'Kichiku ANOTHER',
    'Kichiku LEGGENDARIA',
    'Kiraku NORMAL',
    'Kiraku HYPER',
    'Kiraku ANOTHER',
    'Kiraku LEGGENDARIA',
  ],
  shorthand: {
    NORMAL: 'N',
    HYPER: 'H',
    ANOTHER: 'A',
    LEGGENDARIA: 'L',
    'All Scratch NORMAL': 'N (Scr.)',
    'All Scratch HYPER': 'H (Scr.)',
    'All Scratch ANOTHER': 'A (Scr.)',
    'All Scratch LEGGENDARIA': 'L (Scr.)',
    'Kichiku NORMAL': 'N (Kc.)',
    'Kichiku HYPER': 'H (Kc.)',
    'Kichiku ANOTHER': 'A (Kc.)',
    'Kichiku LEGGENDARIA': 'L (Kc.)',
    'Kiraku NORMAL': 'N (Kr.)',
    'Kiraku HYPER': 'H (Kr.)',
    'Kiraku ANOTHER': 'A (Kr.)',
    'Kiraku LEGGENDARIA': 'L (Kr.)',
  },
  default: 'ANOTHER',
};

const VERSIONS = {
  '20': 'tricoro',
  '21': 'SPADA',
  '22': 'PENDUAL',
  '23': 'copula',
  '24': 'SINOBUZ',
  '25': 'CANNON BALLERS',
  '26': 'ROOTAGE',
  '27': 'HEROIC VERSE',
  '28': 'BISTROVER',
  '29': 'CastHour',
  '30': 'Resident',
  '31': 'Epolis',
  '32': 'Pinky Crush',
  '33': 'Sparkle Shower',
  '3-cs': '3rd Style CS',
  '4-cs': '4th Style CS',
  '5-cs': '5th Style CS',
  '6-cs': '6th Style CS',
  '7-cs': '7th Style CS',
  '8-cs': '8th Style CS',
  '9-cs': '9th Style CS',
  '10-cs': '10th Style CS',
  '11-cs': 'IIDX RED CS',
  '12-cs': 'HAPPY SKY CS',
  '13-cs': 'DISTORTED CS',
  '14-cs': 'GOLD CS',
  '15-cs': 'DJ TROOPERS CS',
  '16-cs': 'EMPRESS CS',
  '26-omni': 'ROOTAGE Omnimix',
  '27-omni': 'HEROIC VERSE Omnimix',
  '28-omni': 'BISTROVER Omnimix',
  '29-omni': 'CastHour Omnimix',
  '30-omni': 'Resident Omnimix',
  '31-omni': 'Epolis Omnimix',
  '32-omni': 'Pinky Crush Omnimix',
  '27-2dxtra': 'HEROIC VERSE 2dxtra',
  '28-2dxtra': 'BISTROVER 2dxtra',
  '30-2dxtra': 'RESIDENT 2dxtra',
  '31-2dxtra': 'Epolis 2dxtra',
  bmus: 'BEATMANIA US',
  inf: 'INFINITAS',
};

const OPTIONAL = z.strictObject({
  ...COMMON_OPTIONAL,
  bp: nonNegInt(),
  gauge: decimalIn(0, 100),
  comboBreak: nonNegInt(),
  gaugeHistory: graphOf(0, 100),
  scoreHistory: graphOf(0, 100),
  gsmEasy: graphOf(0, 100),
  gsmNormal: graphOf(0, 100),
  gsmHard: graphOf(0, 100),
  gsmEXHard: graphOf(0, 100),
});

const RANDOM = z.enum(['NONRAN', 'MIRROR', 'R-RANDOM', 'RANDOM', 'S-RANDOM']);
const OPTIONS = {
  assist: z.enum(['AUTO SCRATCH', 'LEGACY NOTE', 'NO ASSIST', 'FULL ASSIST']).optional(),
  range: z.enum(['NONE', 'HIDDEN+', 'SUDDEN+', 'LIFT', 'LIFT SUD+', 'SUD+ HID+']).optional(),
  gauge: z.enum(['ASSISTED EASY', 'EASY', 'NORMAL', 'HARD', 'EX-HARD']).optional(),
};

const CHART_DATA = {
  notecount: z.number().int().positive(),
  inGameID: inGameID(),
  hashSHA256: z.string().nullable(),
  '2dxtraSet': z.string().nullable(),
  kaidenAverage: z.number().int().positive().nullable(),
  worldRecord: z.number().int().positive().nullable(),
  bpiCoefficient: z.number().positive().nullable(),
};

/** Everything SP and DP share; they differ in random (one lane or a pair), tier data and ktLampRating. */
function iidxGpt(playtype: 'SP' | 'DP', own: Pick<GptSupport, 'scoreMeta' | 'chartData'> & { ktLampRating: ScoreRatingAlg }): GptSupport {
  const gpt: GptSupport = defineGpt({
    game: 'iidx',
    playtype,
    percentMax: 100,
    difficulties: DIFFICULTIES,
    lamps: EX_LAMPS,
    clearLamp: 'CLEAR',
    grades: EX_GRADES,
    gradeBoundaries: EX_GRADE_BOUNDARIES,
    gradeMetric: 'percent',
    clearGrade: 'A',
    judgements: ['pgreat', 'great', 'good', 'bad', 'poor'],
    versions: VERSIONS,
    scoreRatingAlgs: { ktLampRating: own.ktLampRating, BPI },
    defaultScoreRatingAlg: 'ktLampRating',
    sessionRatingAlgs: { ktLampRating: KT_LAMP_RATING_SESSION, BPI: BPI_SESSION },
    defaultSessionRatingAlg: 'ktLampRating',
    profileRatingAlgs: { ktLampRating: KT_LAMP_RATING_PROFILE, BPI: BPI_PROFILE },
    defaultProfileRatingAlg: 'ktLampRating',
    classes: { dan: { type: 'PROVIDED', downgradable: false, values: IIDX_DANS } },
    optionalMetrics: OPTIONAL,
    scoreMeta: own.scoreMeta,
    chartData: own.chartData,
    supportedMatchTypes: ['inGameID', 'serviceSongID', 'songTitle', 'iidxChartHash'],
    percentInput: 'forbidden',
    ...deriveWith(() => gpt, exScoreDerivation('pgreat')),
    pbMerge: [
      { kind: 'fromLampPB', optional: ['gauge', 'gaugeHistory', 'gsmEasy', 'gsmNormal', 'gsmHard', 'gsmEXHard', 'comboBreak'] },
      { kind: 'best', optional: 'bp', direction: 'min', name: 'Best BP' },
    ],
    identityMetrics: [],
    preferredDefaultEnum: 'lamp',
    targets: EX_SCORE_TARGETS,
    // Whether 2dxtra charts show in chart lists, and the BPI the player aims for (-15 to 100, as Tachi's).
    preferences: {
      schema: z.strictObject({ display2DXTra: z.boolean().optional(), bpiTarget: z.number().min(-15).max(100).optional() }),
      defaults: { display2DXTra: false, bpiTarget: 0 },
    },
  });
  return gpt;
}

const sp = iidxGpt('SP', {
  ktLampRating: KT_LAMP_RATING_SP,
  scoreMeta: z.strictObject({ random: RANDOM.optional(), ...OPTIONS }),
  chartData: z.looseObject({ ...CHART_DATA, ncTier: tierEntry(), hcTier: tierEntry(), exhcTier: tierEntry() }),
});

const dp = iidxGpt('DP', {
  ktLampRating: KT_LAMP_RATING_DP,
  scoreMeta: z.strictObject({ random: z.tuple([RANDOM, RANDOM]).optional(), ...OPTIONS }),
  chartData: z.looseObject({ ...CHART_DATA, dpTier: tierEntry() }),
});

export const IIDX: GameSupport = {
  game: 'iidx',
  name: 'beatmania IIDX',
  playtypes: ['SP', 'DP'],
  defaultPlaytype: 'SP',
  songData: z.looseObject({ genre: z.string().optional(), displayVersion: z.string().nullable().optional() }),
  // arcChartID is in 2022's seeds only; HEAD's have no such field.
  uniqueChartKeys: [{ field: 'arcChartID', perPlaytype: false }],
  gpts: { SP: sp, DP: dp },
};
