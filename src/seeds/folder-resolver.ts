import { and, eq, inArray } from 'drizzle-orm';
import type { Tx } from '../database/database.js';
import { charts, folderCharts, folders, songs, type ChartRow, type FolderRow, type SongRow } from '../database/schema.js';
import { decodeFilter, matchesFilter, type Filter } from './mongo-filter.js';
import { insertRows } from '../database/bulk-write.js';

/** A chart as a folder filter sees it: the Tachi document shape. */
function chartDocument(c: ChartRow): Record<string, unknown> {
  return {
    chartID: c.chartID,
    songID: c.songID,
    level: c.level,
    levelNum: c.levelNum,
    isPrimary: c.isPrimary,
    difficulty: c.difficulty,
    playtype: c.playtype,
    versions: c.versions,
    data: c.data,
  };
}

function songDocument(s: SongRow): Record<string, unknown> {
  return { id: s.id, title: s.title, artist: s.artist, searchTerms: s.searchTerms, altTitles: s.altTitles, data: s.data };
}

/** The charts a folder holds, among the charts (and songs) of its GPT. */
export function folderChartIDs(folder: Pick<FolderRow, 'type' | 'data' | 'playtype'>, gptCharts: readonly ChartRow[], gameSongs: readonly SongRow[]): string[] {
  if (folder.type === 'static') {
    const wanted = new Set(folder.data as string[]);
    return gptCharts.filter((c) => wanted.has(c.chartID)).map((c) => c.chartID);
  }
  const filter = decodeFilter(folder.data) as Filter;
  if (folder.type === 'songs') {
    const songIDs = new Set(gameSongs.filter((s) => matchesFilter(songDocument(s), filter)).map((s) => s.id));
    return gptCharts.filter((c) => songIDs.has(c.songID)).map((c) => c.chartID);
  }
  return gptCharts.filter((c) => matchesFilter(chartDocument(c), filter)).map((c) => c.chartID);
}

/**
 * Rebuilds folder_charts for every folder of these GPTs from the charts now in the database.
 * Runs inside the caller's transaction. Returns the number of folder→chart links written.
 */
export async function resolveFolders(tx: Tx, gpts: readonly { game: string; playtype: string }[], onFolder: () => void = () => undefined): Promise<number> {
  let links = 0;
  for (const { game, playtype } of gpts) {
    const gptFolders = await tx
      .select()
      .from(folders)
      .where(and(eq(folders.game, game), eq(folders.playtype, playtype)));
    if (gptFolders.length === 0) continue;
    const gptCharts = await tx
      .select()
      .from(charts)
      .where(and(eq(charts.game, game), eq(charts.playtype, playtype)));
    const gameSongs = gptFolders.some((f) => f.type === 'songs') ? await tx.select().from(songs).where(eq(songs.game, game)) : [];
    await tx.delete(folderCharts).where(
      inArray(
        folderCharts.folderID,
        gptFolders.map((f) => f.folderID),
      ),
    );
    const rows: { folderID: string; chartID: string }[] = [];
    for (const folder of gptFolders) {
      for (const chartID of folderChartIDs(folder, gptCharts, gameSongs)) rows.push({ folderID: folder.folderID, chartID });
      onFolder();
    }
    await insertRows(tx, folderCharts, rows);
    links += rows.length;
  }
  return links;
}
