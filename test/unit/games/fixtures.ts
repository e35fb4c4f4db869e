import type { ChartInfo, GptSupport, RatedScore, ScoreData, ScoreInput, SongInfo } from '../../../src/game-support/types.js';
import type { ScoreForPb } from '../../../src/scoring/pbs/pb-merge.js';

export function chart(overrides: Partial<ChartInfo> = {}): ChartInfo {
  return { chartID: 'c1', songID: 1, playtype: 'Single', difficulty: 'EXH', level: '18', levelNum: 18, isPrimary: true, versions: [], data: {}, ...overrides };
}

export function song(overrides: Partial<SongInfo> = {}): SongInfo {
  return { id: 1, title: 'Song', artist: 'Artist', altTitles: [], searchTerms: [], data: {}, ...overrides };
}

export function input(score: number, lamp: string, overrides: Partial<ScoreInput> = {}): ScoreInput {
  return { score, lamp, judgements: {}, optional: {}, ...overrides };
}

/** Derives a score and fails the test with the message when the derivation is refused. */
export function derive(gpt: GptSupport, i: ScoreInput, c: ChartInfo = chart()): ScoreData {
  const result = gpt.deriveScore(i, c);
  if (!result.ok) throw new Error(result.error);
  return result.scoreData;
}

export function deriveError(gpt: GptSupport, i: ScoreInput, c: ChartInfo = chart()): string {
  const result = gpt.deriveScore(i, c);
  if (result.ok) throw new Error(`expected ${JSON.stringify(i)} to be refused`);
  return result.error;
}

/** A rated score carrying only the given calculatedData (what aggregations read). */
export function rated(calculatedData: Record<string, number | null>, overrides: Partial<RatedScore> = {}): RatedScore {
  const scoreData: ScoreData = { score: 0, percent: 0, lamp: '', lampIndex: 0, grade: '', gradeIndex: 0, judgements: {}, optional: {} };
  return { scoreData, calculatedData, chart: chart(), song: song(), ...overrides };
}

/** A stored play as the PB merge reads it, derived by the game itself. */
export function stored(gpt: GptSupport, scoreID: string, i: ScoreInput, timeAchieved: number | null, c: ChartInfo = chart()): ScoreForPb {
  return { scoreID, scoreData: derive(gpt, i, c), timeAchieved, highlighted: false };
}
