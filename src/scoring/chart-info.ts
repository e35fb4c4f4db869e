import type { ChartInfo, SongInfo } from '../game-support/types.js';
import type { ChartRow, SongRow } from '../database/schema.js';

/** The parts of a chart row that rating, PB and session rules read. */
export function toChartInfo(c: ChartRow): ChartInfo {
  return {
    chartID: c.chartID,
    songID: c.songID,
    playtype: c.playtype,
    difficulty: c.difficulty,
    level: c.level,
    levelNum: c.levelNum,
    isPrimary: c.isPrimary,
    versions: c.versions,
    data: c.data,
  };
}

/** The parts of a song row that rating, PB and session rules read. */
export function toSongInfo(s: SongRow): SongInfo {
  return { id: s.id, title: s.title, artist: s.artist, altTitles: s.altTitles, searchTerms: s.searchTerms, data: s.data };
}
