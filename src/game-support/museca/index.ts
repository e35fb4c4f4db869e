import { z } from 'zod';
import { defineGpt } from '../common/define-gpt.js';
import { deriveWith } from '../common/derive.js';
import { allChecks, failedIffBelow, forbiddenJudgements, lampIffScore } from '../common/lamp-rules.js';
import { COMMON_OPTIONAL, EMPTY_STRICT, inGameID } from '../common/metrics.js';
import type { GameSupport, GptSupport } from '../types.js';
import { CURATOR_SKILL, CURATOR_SKILL_PROFILE, CURATOR_SKILL_SESSION } from './ratings.js';

const gpt: GptSupport = defineGpt({
  game: 'museca',
  playtype: 'Single',
  percentMax: 100,
  difficulties: { type: 'FIXED', order: ['Green', 'Yellow', 'Red'], shorthand: { Green: 'G', Yellow: 'Y', Red: 'R' }, default: 'Red' },
  lamps: ['FAILED', 'CLEAR', 'CONNECT ALL', 'PERFECT CONNECT ALL'],
  clearLamp: 'CLEAR',
  grades: ['没', '拙', '凡', '佳', '良', '優', '秀', '傑', '傑G'],
  gradeBoundaries: [0, 600_000, 700_000, 800_000, 850_000, 900_000, 950_000, 975_000, 1_000_000],
  gradeMetric: 'score',
  clearGrade: '良',
  judgements: ['critical', 'near', 'miss'],
  versions: { '1.5': '1 + 1/2', '1.5-b': '1 + 1/2 Rev. B' },
  scoreRatingAlgs: { curatorSkill: CURATOR_SKILL },
  defaultScoreRatingAlg: 'curatorSkill',
  sessionRatingAlgs: { curatorSkill: CURATOR_SKILL_SESSION },
  defaultSessionRatingAlg: 'curatorSkill',
  profileRatingAlgs: { curatorSkill: CURATOR_SKILL_PROFILE },
  defaultProfileRatingAlg: 'curatorSkill',
  classes: {},
  optionalMetrics: z.strictObject({ ...COMMON_OPTIONAL }),
  scoreMeta: EMPTY_STRICT,
  chartData: z.looseObject({ inGameID: inGameID() }),
  supportedMatchTypes: ['songTitle', 'serviceSongID', 'inGameID'],
  percentInput: 'forbidden',
  ...deriveWith(() => gpt, {
    maxScore: 1_000_000,
    integerScore: true,
    percent: (score) => score / 10_000,
    validate: allChecks(
      lampIffScore('PERFECT CONNECT ALL', 1_000_000),
      forbiddenJudgements({ 'PERFECT CONNECT ALL': ['near', 'miss'], 'CONNECT ALL': ['miss'] }),
      // A clear is 800,000 or more (story mode's other clear rules are not modelled).
      failedIffBelow(800_000),
    ),
  }),
  pbMerge: [],
  identityMetrics: [],
});

export const MUSECA: GameSupport = {
  game: 'museca',
  name: 'MÚSECA',
  playtypes: ['Single'],
  defaultPlaytype: 'Single',
  songData: z.looseObject({ titleJP: z.string().optional(), artistJP: z.string().optional(), displayVersion: z.string().optional() }),
  gpts: { Single: gpt },
};
