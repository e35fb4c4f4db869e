import { GITADORASkill } from 'rg-stats';
import { bestPerKey, fixedSum, meanOfBest, sumOfBestFixed, topN } from '../common/aggregate.js';
import { safeScoreAlg } from '../common/ratings.js';
import type { AggregateRatingAlg, ScoreRatingAlg } from '../types.js';

/** Skill has 0.01 steps: profile sums add hundredths, exactly (colour bounds are compared with >=). */
const HUNDREDTHS = 100;

/** Skill from rg-stats: level × 20 × percent / 100, floored to 0.01. */
export const SKILL: ScoreRatingAlg = safeScoreAlg("Skill Rating as it's implemented in game.", (scoreData, chart) =>
  GITADORASkill.calculate(scoreData.percent, chart.levelNum),
);

export const SKILL_SESSION: AggregateRatingAlg = meanOfBest('skill', 10, 'The average of your best 10 skill ratings this session.');

export const NAIVE_SKILL: AggregateRatingAlg = sumOfBestFixed(
  'skill',
  50,
  HUNDREDTHS,
  'Your best 50 skill levels added together, regardless of whether the chart is HOT or not.',
);

/**
 * The in-game skill (2.2.0's `skill`): the best skill per song, then the best 25 songs marked HOT (song
 * `data.isHot` true) plus the best 25 other songs, summed. Null with no skill at all. HEAD's seeds mark no song
 * HOT, so there it is the best 25 songs.
 */
export const HOT_OTHER_SKILL: AggregateRatingAlg = {
  description: 'Your profile skill as it is in game: your best 25 HOT songs plus your best 25 other songs, one chart per song.',
  calculate(scores) {
    const hot: number[] = [];
    const other: number[] = [];
    const perSong = bestPerKey(scores, 'skill', (s) => String(s.song.id));
    if (perSong.length === 0) return null;
    for (const { score, value } of perSong) (score.song.data.isHot === true ? hot : other).push(value);
    return fixedSum([...topN(hot, 25), ...topN(other, 25)], HUNDREDTHS);
  },
};
