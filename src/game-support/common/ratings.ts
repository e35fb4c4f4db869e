import type { ChartInfo, ScoreData, ScoreRatingAlg, SongInfo } from '../types.js';

/**
 * A score rating algorithm whose formula may throw (rg-stats checks its inputs) or yield NaN:
 * either becomes null, so one odd chart never fails an import.
 */
export function safeScoreAlg(description: string, calculate: (scoreData: ScoreData, chart: ChartInfo, song: SongInfo) => number | null): ScoreRatingAlg {
  return {
    description,
    calculate(scoreData, chart, song) {
      try {
        const value = calculate(scoreData, chart, song);
        return typeof value === 'number' && Number.isFinite(value) ? value : null;
      } catch {
        return null;
      }
    },
  };
}
