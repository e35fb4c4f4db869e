import { enumMetric, gradeMetric, indexIn, integerMetric, intoOptional, lampMetric, namesAny, oneOfProblem, without } from '../common/head-names.js';
import type { GptSupport, HeadNames, ScoreData } from '../types.js';

/** HEAD's clearMedal, ascending: an optional metric here (HEAD provides it and derives the lamp from it). */
export const CLEAR_MEDALS = [
  'failedCircle',
  'failedDiamond',
  'failedStar',
  'easyClear',
  'clearCircle',
  'clearDiamond',
  'clearStar',
  'fullComboCircle',
  'fullComboDiamond',
  'fullComboStar',
  'perfect',
] as const;

/** The lamp each clear medal stands for. */
export function lampOfMedal(medal: string): string {
  if (medal === 'perfect') return 'PERFECT';
  if (medal.startsWith('fullCombo')) return 'FULL COMBO';
  if (medal.startsWith('clear')) return 'CLEAR';
  if (medal === 'easyClear') return 'EASY CLEAR';
  return 'FAILED';
}

/** The lowest medal of each lamp: what a score whose medal was not reported is known to have. */
const LOWEST_MEDAL: Readonly<Record<string, string>> = {
  FAILED: 'failedCircle',
  'EASY CLEAR': 'easyClear',
  CLEAR: 'clearCircle',
  'FULL COMBO': 'fullComboCircle',
  PERFECT: 'perfect',
};

/** HEAD's clearMedal of a scoreData: the reported one, else the lowest medal of its lamp (circle). */
export function clearMedalOf(scoreData: Pick<ScoreData, 'lamp' | 'optional'>): string {
  const medal = scoreData.optional.clearMedal;
  return typeof medal === 'string' ? medal : (LOWEST_MEDAL[scoreData.lamp] ?? 'failedCircle');
}

/** HEAD provides pop'n's clearMedal and derives the lamp from it; an element with clearMedal alone gets its lamp. */
export function popnHead(gpt: Pick<GptSupport, 'lamps' | 'clearLamp' | 'grades' | 'clearGrade'>): HeadNames {
  return {
    providedMetrics: {
      score: integerMetric('The score, 0 to 100,000.'),
      clearMedal: enumMetric(CLEAR_MEDALS, 'The clear medal.', 'clearCircle'),
    },
    derivedMetrics: { lamp: { ...lampMetric(gpt), description: 'The lamp, derived from the clear medal.' }, grade: gradeMetric(gpt) },
    defaultMetric: 'score',
    preferredDefaultEnum: 'lamp',
    fromHead(element) {
      if (!namesAny(element, ['clearMedal'])) return element;
      const problem = oneOfProblem(element, 'clearMedal', CLEAR_MEDALS);
      if (problem) return problem;
      const medal = element.clearMedal as string;
      const moved = intoOptional(without(element, ['clearMedal']), { clearMedal: medal });
      // A lamp sent beside the medal is kept, and must agree with it (the game's clear medal check says so).
      return typeof moved === 'string' || element.lamp !== undefined ? moved : { ...moved, lamp: lampOfMedal(medal) };
    },
    toHead(scoreData) {
      const clearMedal = clearMedalOf(scoreData);
      return { metrics: { clearMedal }, enumIndexes: { clearMedal: indexIn(CLEAR_MEDALS, clearMedal) } };
    },
  };
}
