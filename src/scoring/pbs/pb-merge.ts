import type { ChartInfo, GptSupport, ScoreData, SongInfo } from '../../game-support/types.js';

export interface ScoreForPb {
  scoreID: string;
  scoreData: ScoreData;
  timeAchieved: number | null;
  highlighted: boolean;
}

export interface MergedPb {
  scoreData: ScoreData;
  calculatedData: Record<string, number | null>;
  composedFrom: { name: string; scoreID: string }[];
  timeAchieved: number | null;
  /** When the play that set the PB's score happened: ranks break ties on it, so a later lamp improvement costs no tie. */
  rankTime: number | null;
  highlighted: boolean;
}

/** Earlier achievement wins a tie; an unknown time counts as later than any known one; then scoreID, for determinism. */
function earlier(a: ScoreForPb, b: ScoreForPb): number {
  const ta = a.timeAchieved ?? Number.POSITIVE_INFINITY;
  const tb = b.timeAchieved ?? Number.POSITIVE_INFINITY;
  return ta !== tb ? ta - tb : a.scoreID < b.scoreID ? -1 : a.scoreID > b.scoreID ? 1 : 0;
}

function best(scores: readonly ScoreForPb[], better: (a: ScoreForPb, b: ScoreForPb) => number): ScoreForPb {
  return scores.reduce((acc, s) => {
    const c = better(s, acc);
    return c > 0 || (c === 0 && earlier(s, acc) < 0) ? s : acc;
  });
}

/** Score ratings of a scoreData, every algorithm of the GPT. */
export function rateScore(gpt: GptSupport, scoreData: ScoreData, chart: ChartInfo, song: SongInfo): Record<string, number | null> {
  return Object.fromEntries(Object.entries(gpt.scoreRatingAlgs).map(([name, alg]) => [name, alg.calculate(scoreData, chart, song)]));
}

/** The value a GPT orders plays and PBs by (its pbOrder, e.g. ITG's finalPercent; otherwise percent): higher is better. */
export function pbOrderValue(gpt: GptSupport, scoreData: ScoreData): number {
  return gpt.pbOrder ? gpt.pbOrder.value(scoreData) : scoreData.percent;
}

/** Positive when a is the better result: by pbOrderValue, then score. The PB merge and chart ranks both use it. */
export function compareResults(gpt: GptSupport, a: ScoreData, b: ScoreData): number {
  return pbOrderValue(gpt, a) - pbOrderValue(gpt, b) || a.score - b.score;
}

/**
 * A user's PB on one chart from all their scores on it: the best result (see compareResults) with
 * the best lamp, plus the game's extra merge rules. The grade is re-derived from the merged score
 * and lamp (a pop'n fail's cap must not outlive a later clear), and ratings are recomputed on the
 * merged result, so lamp-dependent ratings (VF6, lamp ratings) reflect the combination.
 */
function assignDerived(optional: Record<string, unknown>, derived: Readonly<Record<string, unknown>>) {
  for (const [key, value] of Object.entries(derived)) {
    if (value === undefined) delete optional[key];
    else optional[key] = value;
  }
}

export function mergePersonalBest(gpt: GptSupport, chart: ChartInfo, song: SongInfo, scores: readonly ScoreForPb[]): MergedPb {
  if (scores.length === 0) throw new Error('mergePersonalBest needs at least one score');
  const scorePB = best(scores, (a, b) => compareResults(gpt, a.scoreData, b.scoreData));
  // The best-score play is also the lamp PB when no play has a better lamp: one play, not two.
  const bestLamp = Math.max(...scores.map((s) => s.scoreData.lampIndex));
  const lampPB = scorePB.scoreData.lampIndex === bestLamp ? scorePB : best(scores, (a, b) => a.scoreData.lampIndex - b.scoreData.lampIndex);
  const optional: Record<string, unknown> = { ...scorePB.scoreData.optional };
  let score = scorePB.scoreData.score;
  const composedFrom = [{ name: gpt.pbOrder?.name ?? 'Best Score', scoreID: scorePB.scoreID }];
  if (lampPB.scoreID !== scorePB.scoreID) composedFrom.push({ name: 'Best Lamp', scoreID: lampPB.scoreID });
  const used = new Set([scorePB, lampPB]);
  const take = (winner: ScoreForPb, name: string) => {
    if (used.has(winner)) return;
    composedFrom.push({ name, scoreID: winner.scoreID });
    used.add(winner);
  };

  for (const rule of gpt.pbMerge) {
    if (rule.kind === 'fromLampPB') {
      for (const key of rule.optional) {
        if (lampPB.scoreData.optional[key] === undefined) delete optional[key];
        else optional[key] = lampPB.scoreData.optional[key];
      }
      continue;
    }
    if (rule.kind === 'bestScore') {
      const winner = best(scores, (a, b) => a.scoreData.score - b.scoreData.score);
      score = winner.scoreData.score;
      take(winner, rule.name);
      continue;
    }
    const rank = (v: unknown) => (rule.order ? rule.order.indexOf(v as string) : (v as number));
    const having = scores.filter((s) => {
      const v = s.scoreData.optional[rule.optional];
      return v !== undefined && v !== null && (!rule.order || rule.order.includes(v as string)) && (!rule.amongBestLamp || s.scoreData.lampIndex === bestLamp);
    });
    if (having.length === 0) {
      // A value that must agree with the lamp is not kept from a play with a worse lamp.
      if (rule.amongBestLamp) delete optional[rule.optional];
      continue;
    }
    const sign = rule.direction === 'max' ? 1 : -1;
    const winner = best(having, (a, b) => sign * (rank(a.scoreData.optional[rule.optional]) - rank(b.scoreData.optional[rule.optional])));
    optional[rule.optional] = winner.scoreData.optional[rule.optional];
    take(winner, rule.name);
  }

  // Derived optional metrics follow the PB's own optional ones (ONGEKI's platinumStars from its best platinumScore).
  if (gpt.derivedOptional) assignDerived(optional, gpt.derivedOptional(optional, chart));
  const merged = { ...scorePB.scoreData, score, lamp: lampPB.scoreData.lamp, lampIndex: lampPB.scoreData.lampIndex, optional };
  const grade = gpt.gradeOf(merged, chart);
  const scoreData: ScoreData = { ...merged, grade, gradeIndex: gpt.grades.indexOf(grade) };
  const times = [...used].map((s) => s.timeAchieved).filter((t): t is number => t !== null);
  return {
    scoreData,
    calculatedData: rateScore(gpt, scoreData, chart, song),
    composedFrom,
    timeAchieved: times.length ? Math.max(...times) : null,
    rankTime: scorePB.timeAchieved,
    highlighted: [...used].some((s) => s.highlighted),
  };
}
