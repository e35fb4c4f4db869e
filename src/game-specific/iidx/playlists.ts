import type { ChartRow } from '../../database/schema.js';
import type { GptSupport, ScoreData } from '../../game-support/types.js';
import { toChartInfo, toSongInfo } from '../../scoring/chart-info.js';
import type { SongRow } from '../../database/schema.js';

/** One chart of an IIDX playlist, in the format IIDX playlist tools read. */
export interface PlaylistEntry {
  entry_id: number;
  difficulty: string;
  bar_style?: 'event';
}

/** An IIDX playlist: a named list of charts of one play style. */
export interface IidxPlaylist {
  name: string;
  play_style: string;
  charts: PlaylistEntry[];
}

/** A playlist set the server builds from chart data, the same for every user. */
export interface PlaylistSet {
  urlName: string;
  playlistName: string;
  description: string;
  /** The chart data fields it needs a number in; a chart without them is in none of its playlists. */
  needs: readonly string[];
  build(gpt: GptSupport, charts: readonly { chart: ChartRow; song: SongRow }[]): IidxPlaylist[];
}

/** The chart's in-game id (the latest of several), or undefined without one. */
function inGameID(chart: ChartRow): number | undefined {
  const id = chart.data.inGameID;
  if (typeof id === 'number') return id;
  if (Array.isArray(id) && typeof id.at(-1) === 'number') return id.at(-1) as number;
  return undefined;
}

/**
 * Charts as playlist entries: 2dxtra charts (All Scratch and the like) are left out, as are charts
 * without an in-game id; a chart whose tier says individual difference is marked with the event bar.
 */
export function toPlaylistEntries(charts: readonly ChartRow[]): PlaylistEntry[] {
  return charts.flatMap((chart) => {
    const id = inGameID(chart);
    if (id === undefined || (chart.data['2dxtraSet'] ?? null) !== null) return [];
    const tier = chart.data.hcTier ?? chart.data.dpTier;
    const individual = typeof tier === 'object' && tier !== null && (tier as { individualDifference?: unknown }).individualDifference === true;
    return [{ entry_id: id, difficulty: chart.difficulty.toLowerCase(), ...(individual ? { bar_style: 'event' as const } : {}) }];
  });
}

/** The BPI bands of the AAA BPI playlists: (-10, -5], (-5, 0], … (90, 100]. */
const AAA_BPI_CUTOFFS = [-10, -5, 0, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100];

/** The least EX score of an AAA on a chart of this many notes: 8/9 of the maximum, rounded up. */
export function aaaExScore(notecount: number): number {
  return Math.ceil((notecount * 2 * 8) / 9);
}

/**
 * Tachi's "AAA BPIs" set: one playlist per BPI band, holding the charts whose AAA (the least EX
 * score that is one) is worth a BPI in that band, by the GPT's BPI algorithm.
 */
export const AAA_BPI: PlaylistSet = {
  urlName: 'aaa-bpi',
  playlistName: 'AAA BPIs',
  description: 'Folders for how much an AAA is worth in BPI.',
  needs: ['kaidenAverage', 'worldRecord', 'notecount'],
  build(gpt, charts) {
    const bpi = gpt.scoreRatingAlgs.BPI;
    const rated = charts.map(({ chart, song }) => {
      const score = aaaExScore(chart.data.notecount as number);
      const scoreData: ScoreData = { score, percent: 0, lamp: '', lampIndex: 0, grade: '', gradeIndex: 0, judgements: {}, optional: {} };
      return { chart, value: bpi.calculate(scoreData, toChartInfo(chart), toSongInfo(song)) };
    });
    return AAA_BPI_CUTOFFS.slice(0, -1).map((lower, i) => {
      const upper = AAA_BPI_CUTOFFS[i + 1];
      const inBand = rated.filter((r) => r.value !== null && r.value > lower && r.value <= upper).map((r) => r.chart);
      return { name: `AAA BPI ${lower}~${upper}`, play_style: gpt.playtype, charts: toPlaylistEntries(inBand) };
    });
  },
};

/** The playlist sets this server offers for IIDX SP and DP. */
export const PLAYLIST_SETS: readonly PlaylistSet[] = [AAA_BPI];

/** A playlist set built for one player: from chart data and the player's PB scores (by chart ID). */
export interface UserPlaylistSet {
  urlName: string;
  playlistName: string;
  description: string;
  needs: readonly string[];
  build(gpt: GptSupport, charts: readonly { chart: ChartRow; song: SongRow }[], pbScores: ReadonlyMap<string, number>): IidxPlaylist[];
}

/** The AAA BPI playlists without the charts the player already has an AAA (or better) on: what is left to AAA, by what it is worth. */
export const AAA_BPI_TO_GO: UserPlaylistSet = {
  urlName: 'aaa-bpi-to-go',
  playlistName: 'AAA BPIs to go',
  description: 'The AAA BPI folders, without the charts you already have an AAA on.',
  needs: AAA_BPI.needs,
  build(gpt, charts, pbScores) {
    const left = charts.filter(({ chart }) => (pbScores.get(chart.chartID) ?? -1) < aaaExScore(chart.data.notecount as number));
    return AAA_BPI.build(gpt, left);
  },
};

/** The playlist sets built per player (served under /users/:userID). */
export const USER_PLAYLIST_SETS: readonly UserPlaylistSet[] = [AAA_BPI_TO_GO];
