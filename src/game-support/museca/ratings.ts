import { CuratorSkill } from 'rg-stats';
import { meanOfBest, sumOfBest } from '../common/aggregate.js';
import { safeScoreAlg } from '../common/ratings.js';
import type { AggregateRatingAlg, ScoreRatingAlg } from '../types.js';

/** Curator skill from rg-stats: floor(level × score / 10,000). */
export const CURATOR_SKILL: ScoreRatingAlg = safeScoreAlg("Curator Skill as it's implemented in-game.", (scoreData, chart) =>
  CuratorSkill.calculate(scoreData.score, chart.levelNum),
);

export const CURATOR_SKILL_SESSION: AggregateRatingAlg = meanOfBest('curatorSkill', 10, 'The average of your best 10 Curator skills this session.');

export const CURATOR_SKILL_PROFILE: AggregateRatingAlg = sumOfBest(
  'curatorSkill',
  20,
  "The sum of your best 20 Curator Skills. This is identical to how it's calculated in-game.",
);
