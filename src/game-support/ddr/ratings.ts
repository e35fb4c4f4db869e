import { DDRFlare } from 'rg-stats';
import { bestValues, meanOfBest } from '../common/aggregate.js';
import { safeScoreAlg } from '../common/ratings.js';
import type { AggregateRatingAlg, ScoreRatingAlg } from '../types.js';

/** The flare ranks a chart can be played at; rg-stats takes the index (0 = no flare, 10 = EX). */
export const FLARE_RANKS = ['0', 'I', 'II', 'III', 'IV', 'V', 'VI', 'VII', 'VIII', 'IX', 'EX'] as const;

/** The song flareCategory values that count towards profile flare skill (NONE does not). */
export const FLARE_CATEGORIES = ['CLASSIC', 'WHITE', 'GOLD'] as const;

/** Flare points: 0 for a fail, else the level's base points raised 6% per flare rank (no rank given = flare 0). */
export const FLARE_SKILL: ScoreRatingAlg = safeScoreAlg("Flare Skill as it's implemented in DDR World.", (scoreData, chart) => {
  if (scoreData.lamp === 'FAILED') return 0;
  const flare = scoreData.optional.flare;
  const rank = typeof flare === 'string' ? (FLARE_RANKS as readonly string[]).indexOf(flare) : 0;
  return DDRFlare.calculate(chart.levelNum, Math.max(rank, 0));
});

export const FLARE_SKILL_SESSION: AggregateRatingAlg = meanOfBest('flareSkill', 10, 'Average of your 10 best Flare Points this session');

/** The best 30 flare points in each of CLASSIC, WHITE and GOLD (by song flareCategory), summed; null with none. */
export const FLARE_SKILL_PROFILE: AggregateRatingAlg = {
  description:
    "Flare Skill as it's implemented in DDR World, taking 30 best flare points from 3 different categories: CLASSIC (DDR 1st～X3 vs 2ndMIX), WHITE (DDR(2013)～DDR A), GOLD (DDR A20～WORLD).",
  calculate(scores) {
    let total = 0;
    let counted = 0;
    for (const category of FLARE_CATEGORIES) {
      const best = bestValues(
        scores.filter((s) => s.song.data.flareCategory === category),
        'flareSkill',
      ).slice(0, 30);
      total += best.reduce((a, b) => a + b, 0);
      counted += best.length;
    }
    return counted === 0 ? null : total;
  },
};
