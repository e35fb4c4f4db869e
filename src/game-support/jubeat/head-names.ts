import { decimalMetric, gradeMetric, integerMetric, lampMetric, renamed } from '../common/head-names.js';
import type { GptSupport, HeadNames } from '../types.js';

/** HEAD provides jubeat's music rate as `musicRate`, this service's `percent`. */
export function jubeatHead(gpt: Pick<GptSupport, 'lamps' | 'clearLamp' | 'grades' | 'clearGrade'>): HeadNames {
  return {
    providedMetrics: {
      score: integerMetric('The score, 0 to 1,000,000.'),
      musicRate: decimalMetric('The music rate, 0 to 100 (120 on HARD charts).'),
      lamp: lampMetric(gpt),
    },
    derivedMetrics: { grade: gradeMetric(gpt) },
    defaultMetric: 'musicRate',
    preferredDefaultEnum: 'grade',
    fromHead: (element) => renamed(element, 'musicRate', 'percent'),
    toHead: (scoreData) => ({ metrics: { musicRate: scoreData.percent }, enumIndexes: {} }),
  };
}
