import { z } from 'zod';
import { percentScoreHead } from '../common/head-names.js';
import { defineGpt } from '../common/define-gpt.js';
import { deriveWith } from '../common/derive.js';
import { COMMON_OPTIONAL, EMPTY_STRICT, inGameID } from '../common/metrics.js';
import type { Difficulties, GameSupport, GptSupport } from '../types.js';
import { GITADORA_COLOUR } from './classes.js';
import { HOT_OTHER_SKILL, NAIVE_SKILL, SKILL, SKILL_SESSION } from './ratings.js';

const LAMPS = ['FAILED', 'CLEAR', 'FULL COMBO', 'EXCELLENT'] as const;
const GRADES = ['C', 'B', 'A', 'S', 'SS', 'MAX'] as const;

const GUITAR: Difficulties = {
  type: 'FIXED',
  order: ['BASIC', 'ADVANCED', 'EXTREME', 'MASTER', 'BASS BASIC', 'BASS ADVANCED', 'BASS EXTREME', 'BASS MASTER'],
  shorthand: {
    BASIC: 'G-BSC',
    ADVANCED: 'G-ADV',
    EXTREME: 'G-EXT',
    MASTER: 'G-MAS',
    'BASS BASIC': 'B-BSC',
    'BASS ADVANCED': 'B-ADV',
    'BASS EXTREME': 'B-EXT',
    'BASS MASTER': 'B-MAS',
  },
  default: 'EXTREME',
};

const DRUMS: Difficulties = {
  type: 'FIXED',
  order: ['BASIC', 'ADVANCED', 'EXTREME', 'MASTER'],
  shorthand: { BASIC: 'D-BSC', ADVANCED: 'D-ADV', EXTREME: 'D-EXT', MASTER: 'D-MAS' },
  default: 'EXTREME',
};

/** Guitar and drums differ only in their difficulties. The score is the achievement percent itself. */
function gitadoraGpt(playtype: 'Gita' | 'Dora', difficulties: Difficulties): GptSupport {
  const gpt: GptSupport = defineGpt({
    game: 'gitadora',
    playtype,
    percentMax: 100,
    difficulties,
    lamps: LAMPS,
    clearLamp: 'CLEAR',
    grades: GRADES,
    gradeBoundaries: [0, 63, 73, 80, 95, 100],
    gradeMetric: 'percent',
    clearGrade: 'A',
    judgements: ['perfect', 'great', 'good', 'ok', 'miss'],
    versions: { konaste: 'Konaste', fuzzUp: 'FUZZ-UP', highVoltage: 'HIGH-VOLTAGE', nextage: 'NEX+AGE', exchain: 'EXCHAIN', matixx: 'Matixx' },
    scoreRatingAlgs: { skill: SKILL },
    defaultScoreRatingAlg: 'skill',
    sessionRatingAlgs: { skill: SKILL_SESSION },
    defaultSessionRatingAlg: 'skill',
    // HEAD's default (and the colour's input) is naiveSkill; 2.2.0's HOT/other skill is kept as a second profile.
    profileRatingAlgs: { naiveSkill: NAIVE_SKILL, skill: HOT_OTHER_SKILL },
    defaultProfileRatingAlg: 'naiveSkill',
    classes: { colour: GITADORA_COLOUR },
    optionalMetrics: z.strictObject({ ...COMMON_OPTIONAL }),
    scoreMeta: EMPTY_STRICT,
    chartData: z.looseObject({ inGameID: inGameID() }),
    supportedMatchTypes: ['inGameID', 'songTitle', 'serviceSongID'],
    percentInput: 'forbidden',
    ...deriveWith(() => gpt, { maxScore: 100, integerScore: false, percent: (score) => score }),
    pbMerge: [],
    identityMetrics: [],
    head: percentScoreHead({ lamps: LAMPS, clearLamp: 'CLEAR', grades: GRADES, clearGrade: 'A' }),
  });
  return gpt;
}

export const GITADORA: GameSupport = {
  game: 'gitadora',
  name: 'GITADORA',
  playtypes: ['Gita', 'Dora'],
  defaultPlaytype: 'Dora',
  // 2.2.0's HOT flag, read by the HOT/other skill profile; HEAD's seeds leave it out.
  songData: z.looseObject({ isHot: z.boolean().optional() }),
  gpts: { Gita: gitadoraGpt('Gita', GUITAR), Dora: gitadoraGpt('Dora', DRUMS) },
};
