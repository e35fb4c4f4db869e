import { decimalMetric, gradeMetric, intoOptional, lampMetric, renamed, without } from '../common/head-names.js';
import type { GptSupport, HeadNames, PbOrder, ScoreData } from '../types.js';

/** HEAD's survivedPercent of a scoreData: the reported one; a score that did not fail survived all of it; else unknown. */
export function survivedPercentOf(scoreData: Pick<ScoreData, 'lamp' | 'optional'>): number | null {
  const survived = scoreData.optional.survivedPercent;
  if (typeof survived === 'number') return survived;
  return scoreData.lamp === 'FAILED' ? null : 100;
}

/** HEAD provides ITG's score as scorePercent with survivedPercent (an optional metric here), and derives finalPercent. */
export function itgHead(gpt: Pick<GptSupport, 'lamps' | 'clearLamp' | 'grades' | 'clearGrade'>, finalPercent: PbOrder): HeadNames {
  return {
    providedMetrics: {
      scorePercent: decimalMetric('The score percent, 0 to 100.'),
      survivedPercent: decimalMetric('How much of the chart was survived, 0 to 100.'),
      lamp: lampMetric(gpt),
    },
    derivedMetrics: {
      grade: { ...gradeMetric(gpt), description: 'The grade, from the score percent; F for a fail.' },
      finalPercent: decimalMetric('A fail: its survivedPercent; a clear: 100 plus its scorePercent.'),
    },
    defaultMetric: 'finalPercent',
    preferredDefaultEnum: 'lamp',
    fromHead(element) {
      const scored = renamed(element, 'scorePercent', 'score');
      if (typeof scored === 'string' || element.survivedPercent === undefined) return scored;
      return intoOptional(without(scored, ['survivedPercent']), { survivedPercent: element.survivedPercent });
    },
    toHead: (scoreData) => ({
      metrics: { scorePercent: scoreData.score, survivedPercent: survivedPercentOf(scoreData), finalPercent: finalPercent.value(scoreData) },
      enumIndexes: {},
    }),
  };
}
