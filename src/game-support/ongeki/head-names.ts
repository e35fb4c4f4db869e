import { enumMetric, gradeMetric, indexIn, integerMetric, intoOptional, namesAny, oneOfProblem, without } from '../common/head-names.js';
import type { GptSupport, HeadNames, ScoreData } from '../types.js';

const BELL_LAMPS = ['NONE', 'FULL BELL'] as const;

/**
 * HEAD's bellLamp of a scoreData: optional.bellLamp; else FULL BELL when the play caught every bell it counted
 * (bellCount = totalBellCount), or scored 1,010,000 (which needs every bell); else NONE (no full bell is known).
 */
export function bellLampOf(scoreData: Pick<ScoreData, 'score' | 'optional'>): 'NONE' | 'FULL BELL' {
  const { bellLamp, bellCount, totalBellCount } = scoreData.optional;
  if (bellLamp === 'NONE' || bellLamp === 'FULL BELL') return bellLamp;
  if (typeof bellCount === 'number' && typeof totalBellCount === 'number' && bellCount === totalBellCount) return 'FULL BELL';
  return scoreData.score === 1_010_000 ? 'FULL BELL' : 'NONE';
}

/**
 * HEAD names ONGEKI's lamp noteLamp and provides bellLamp and platinumScore beside it (optional metrics here), and
 * derives platinumStars (kept in the optional metrics by deriveScore, which has the chart).
 */
export function ongekiHead(gpt: Pick<GptSupport, 'lamps' | 'clearLamp' | 'grades' | 'clearGrade'>): HeadNames {
  return {
    providedMetrics: {
      score: integerMetric('The technical score, 0 to 1,010,000.'),
      noteLamp: enumMetric(gpt.lamps, 'The lamp of the notes.', gpt.clearLamp),
      bellLamp: enumMetric(BELL_LAMPS, 'Whether every bell was caught.', 'FULL BELL'),
      platinumScore: integerMetric("The platinum score, up to the chart's maxPlatScore."),
    },
    derivedMetrics: {
      grade: gradeMetric(gpt),
      platinumStars: integerMetric("The platinum stars, 0 to 6 (6 is rainbow): floor(100 × platinumScore / the chart's maxPlatScore), capped at 99, less 93."),
    },
    defaultMetric: 'score',
    preferredDefaultEnum: 'grade',
    fromHead(element) {
      if (!namesAny(element, ['noteLamp', 'bellLamp', 'platinumScore'])) return element;
      if (element.noteLamp !== undefined && element.lamp !== undefined) return 'Give lamp or its HEAD name noteLamp, not both.';
      const problem = oneOfProblem(element, 'noteLamp', gpt.lamps) ?? oneOfProblem(element, 'bellLamp', BELL_LAMPS);
      if (problem) return problem;
      const moved = intoOptional(without(element, ['noteLamp', 'bellLamp', 'platinumScore']), {
        bellLamp: element.bellLamp,
        platinumScore: element.platinumScore,
      });
      if (typeof moved === 'string' || element.noteLamp === undefined) return moved;
      return { ...moved, lamp: element.noteLamp };
    },
    toHead(scoreData) {
      const bellLamp = bellLampOf(scoreData);
      const platinumScore = typeof scoreData.optional.platinumScore === 'number' ? scoreData.optional.platinumScore : null;
      const platinumStars = typeof scoreData.optional.platinumStars === 'number' ? scoreData.optional.platinumStars : null;
      return {
        metrics: { noteLamp: scoreData.lamp, bellLamp, platinumScore, platinumStars },
        enumIndexes: { noteLamp: scoreData.lampIndex, bellLamp: indexIn(BELL_LAMPS, bellLamp) },
      };
    },
  };
}
