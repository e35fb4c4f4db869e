import { enumMetric, gradeMetric, indexIn, integerMetric, intoOptional, namesAny, oneOfProblem, without } from '../common/head-names.js';
import type { GptSupport, HeadNames, ScoreData } from '../types.js';

/** This service's single lamp joins HEAD's noteLamp (combo) and clear: FAILED and CLEAR carry no combo. */
export const LAMPS = ['FAILED', 'CLEAR', 'FULL COMBO', 'ALL JUSTICE', 'ALL JUSTICE CRITICAL'] as const;
/** HEAD's clearLamp, an optional metric here. */
export const CLEAR_LAMPS = ['FAILED', 'CLEAR', 'HARD', 'BRAVE', 'ABSOLUTE', 'CATASTROPHY'] as const;
/** HEAD's noteLamp. An optional metric here only on a FAILED score (a combo the single lamp cannot hold). */
export const NOTE_LAMPS = ['NONE', 'FULL COMBO', 'ALL JUSTICE', 'ALL JUSTICE CRITICAL'] as const;

/** The single lamp of HEAD's pair: a failed clear is FAILED whatever its combo; a clear is its combo, or CLEAR. */
export function lampOf(noteLamp: string, clearLamp: string): string {
  if (clearLamp === 'FAILED') return 'FAILED';
  return noteLamp === 'NONE' ? 'CLEAR' : noteLamp;
}

/**
 * HEAD's pair of a scoreData. noteLamp: the lamp's combo (NONE for FAILED and CLEAR), or a FAILED score's
 * optional.noteLamp. clearLamp: FAILED for a FAILED lamp; otherwise optional.clearLamp, or CLEAR when the import did
 * not say which gauge (the least a cleared score is).
 */
export function headLampsOf(scoreData: Pick<ScoreData, 'lamp' | 'optional'>): { noteLamp: string; clearLamp: string } {
  const { lamp, optional } = scoreData;
  if (lamp === 'FAILED') return { noteLamp: typeof optional.noteLamp === 'string' ? optional.noteLamp : 'NONE', clearLamp: 'FAILED' };
  return { noteLamp: lamp === 'CLEAR' ? 'NONE' : lamp, clearLamp: typeof optional.clearLamp === 'string' ? optional.clearLamp : 'CLEAR' };
}

export function chunithmHead(gpt: Pick<GptSupport, 'grades' | 'clearGrade'>): HeadNames {
  return {
    providedMetrics: {
      score: integerMetric('The score, 0 to 1,010,000.'),
      noteLamp: enumMetric(NOTE_LAMPS, 'The combo the play reached.', 'FULL COMBO'),
      clearLamp: enumMetric(CLEAR_LAMPS, 'Whether the play cleared, and on which skill gauge.', 'CLEAR'),
    },
    derivedMetrics: { grade: gradeMetric(gpt) },
    defaultMetric: 'score',
    preferredDefaultEnum: 'grade',
    fromHead(element) {
      if (!namesAny(element, ['noteLamp', 'clearLamp'])) return element;
      if (element.lamp !== undefined) return 'Give lamp, or noteLamp and clearLamp, not both.';
      if (element.noteLamp === undefined || element.clearLamp === undefined) return 'noteLamp and clearLamp go together: give both (or lamp alone).';
      const problem = oneOfProblem(element, 'noteLamp', NOTE_LAMPS) ?? oneOfProblem(element, 'clearLamp', CLEAR_LAMPS);
      if (problem) return problem;
      const noteLamp = element.noteLamp as string;
      const clearLamp = element.clearLamp as string;
      const moved = intoOptional(without(element, ['noteLamp', 'clearLamp']), {
        clearLamp,
        // The single lamp of a failed play drops its combo; the optional metric keeps it.
        noteLamp: clearLamp === 'FAILED' && noteLamp !== 'NONE' ? noteLamp : undefined,
      });
      return typeof moved === 'string' ? moved : { ...moved, lamp: lampOf(noteLamp, clearLamp) };
    },
    toHead(scoreData) {
      const { noteLamp, clearLamp } = headLampsOf(scoreData);
      return { metrics: { noteLamp, clearLamp }, enumIndexes: { noteLamp: indexIn(NOTE_LAMPS, noteLamp), clearLamp: indexIn(CLEAR_LAMPS, clearLamp) } };
    },
  };
}
