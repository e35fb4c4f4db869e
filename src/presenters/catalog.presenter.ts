import type { charts, folders, gameTables, songs } from '../database/schema.js';

export type SongRow = typeof songs.$inferSelect;
export type ChartRow = typeof charts.$inferSelect;
export type FolderRow = typeof folders.$inferSelect;
export type TableRow = typeof gameTables.$inferSelect;

/** Spec SongDocument (plus the seed fields clients show). */
export function toSongDocument(s: Pick<SongRow, 'id' | 'title' | 'artist' | 'altTitles' | 'searchTerms' | 'data'>) {
  return { id: s.id, title: s.title, artist: s.artist, altTitles: s.altTitles, searchTerms: s.searchTerms, data: s.data };
}

/** Spec ChartDocument (plus the seed fields clients show). */
export function toChartDocument(c: Pick<ChartRow, 'chartID' | 'songID' | 'playtype' | 'difficulty' | 'level' | 'levelNum' | 'isPrimary' | 'versions' | 'data'>) {
  return { chartID: c.chartID, songID: c.songID, playtype: c.playtype, difficulty: c.difficulty, level: c.level, levelNum: c.levelNum, isPrimary: c.isPrimary, versions: c.versions, data: c.data };
}

export function toFolderDocument(f: FolderRow) {
  return { folderID: f.folderID, name: f.title, title: f.title, game: f.game, playtype: f.playtype, type: f.type, data: f.data, inactive: f.inactive, searchTerms: f.searchTerms };
}

export function toTableDocument(t: TableRow) {
  return { tableID: t.tableID, name: t.title, title: t.title, game: t.game, playtype: t.playtype, description: t.description, folders: t.folders, inactive: t.inactive, default: t.isDefault };
}
