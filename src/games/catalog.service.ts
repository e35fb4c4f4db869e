import { BadRequestException, Injectable, NotFoundException } from '@nestjs/common';
import { chartNameProblem } from '../game-support/chart-names.js';
import { canonicalMatchType, type MatchType } from '../game-support/match-types.js';
import type { GptSupport } from '../game-support/types.js';
import { toChartDocument, toFolderDocument, toSongDocument, toTableDocument, toTableList, type FolderDocument } from '../presenters/catalog.presenter.js';
import { CatalogRepository } from '../repositories/catalog.repository.js';
import { ChartMatchRepository } from '../repositories/chart-match.repository.js';
import type { ChartResolveQuery } from './dto/catalog.dto.js';
import type {
  ChartListResponse,
  FolderWithChartsResponse,
  PlaycountResponse,
  SongAndChartResponse,
  SongWithChartsResponse,
  TableListResponse,
  TableWithFoldersResponse,
} from './dto/catalog.responses.js';

export const CHART_LIST_LIMIT = 100;
export const FOLDER_SEARCH_LIMIT = 100;

@Injectable()
export class CatalogService {
  constructor(
    private readonly catalog: CatalogRepository,
    private readonly chartMatch: ChartMatchRepository,
  ) {}

  async song(gpt: GptSupport, songID: number): Promise<SongWithChartsResponse> {
    const song = await this.catalog.song(gpt.game, songID);
    if (!song) throw new NotFoundException(`The song ${songID} does not exist.`);
    const charts = await this.catalog.chartsOfSong(gpt.game, gpt.playtype, songID);
    // The spec gives no answer for a song without charts in this playtype: it is not part of this GPT.
    if (charts.length === 0) throw new NotFoundException(`The song ${songID} has no ${gpt.playtype} charts: it is not part of ${gpt.game} ${gpt.playtype}.`);
    return { song: toSongDocument(song), charts: charts.map(toChartDocument) };
  }

  /** The GPT's charts by popularity; with `playedBy`, only those of songs that user has a PB on. */
  async charts(gpt: GptSupport, search: string | undefined, playedBy?: number): Promise<ChartListResponse> {
    // an empty (or blank) search is no search: the most popular charts
    const rows = await this.catalog.popularCharts(gpt.game, gpt.playtype, search?.trim() || undefined, CHART_LIST_LIMIT, playedBy);
    const songs = await this.catalog.songsByIds(
      gpt.game,
      rows.map((c) => c.songID),
    );
    return { charts: rows.map((c) => ({ ...toChartDocument(c), __playcount: c.playcount })), songs: songs.map(toSongDocument) };
  }

  async chart(gpt: GptSupport, chartID: string): Promise<SongAndChartResponse> {
    const chart = await this.findChart(gpt, chartID);
    const song = await this.catalog.song(gpt.game, chart.songID);
    return { song: song ? toSongDocument(song) : null, chart: toChartDocument(chart) };
  }

  /**
   * {song, chart}: the chart a batch-manual score naming it this way would be imported on (the same checks, then the
   * same chart matching, without a version: primary charts only). 400 when the query could not name a chart of the
   * GPT; 404 when it names none.
   */
  async resolveChart(gpt: GptSupport, query: ChartResolveQuery): Promise<SongAndChartResponse> {
    const difficulty = query.difficulty ?? null;
    const matchType = canonicalMatchType(query.matchType) as string;
    const problem = chartNameProblem(gpt, matchType, query.identifier, difficulty);
    if (problem) throw new BadRequestException(problem);
    const candidate = { matchType: matchType as MatchType, identifier: query.identifier, difficulty, artist: query.artist ?? null };
    const [match] = await this.chartMatch.resolve(gpt, null, [candidate]);
    if (match.kind === 'invalid') throw new BadRequestException(match.message);
    if (match.kind === 'notFound') throw new NotFoundException(match.message);
    return { song: toSongDocument(match.song), chart: toChartDocument(match.chart) };
  }

  async playcount(gpt: GptSupport, chartID: string): Promise<PlaycountResponse> {
    await this.findChart(gpt, chartID);
    return { count: await this.catalog.playcount(chartID) };
  }

  /** Folders by title and search terms; an empty (or blank) search finds none, as Tachi's text search. */
  async searchFolders(gpt: GptSupport, search: string, includeInactive: boolean): Promise<FolderDocument[]> {
    if (!search.trim()) return [];
    return (await this.catalog.searchFolders(gpt.game, gpt.playtype, search, includeInactive, FOLDER_SEARCH_LIMIT)).map(toFolderDocument);
  }

  async folder(gpt: GptSupport, folderID: string): Promise<FolderWithChartsResponse> {
    const folder = await this.catalog.folder(gpt.game, gpt.playtype, folderID);
    if (!folder) throw new NotFoundException(`The folder ${folderID} does not exist for ${gpt.game} ${gpt.playtype}.`);
    const charts = await this.catalog.chartsInFolder(folderID);
    const songs = await this.catalog.songsByIds(
      gpt.game,
      charts.map((c) => c.songID),
    );
    return { songs: songs.map(toSongDocument), charts: charts.map(toChartDocument), folder: toFolderDocument(folder) };
  }

  /** The folders of the GPT containing the chart, by title; inactive ones only when asked. */
  async chartFolders(gpt: GptSupport, chartID: string, includeInactive: boolean): Promise<FolderDocument[]> {
    await this.findChart(gpt, chartID);
    return (await this.catalog.foldersWithChart(gpt.game, gpt.playtype, chartID, includeInactive)).map(toFolderDocument);
  }

  async tables(gpt: GptSupport, includeInactive: boolean): Promise<TableListResponse> {
    return toTableList(await this.catalog.tables(gpt.game, gpt.playtype, includeInactive));
  }

  /** The table's folders in the table's order. */
  async table(gpt: GptSupport, tableID: string): Promise<TableWithFoldersResponse> {
    const table = await this.catalog.table(gpt.game, gpt.playtype, tableID);
    if (!table) throw new NotFoundException(`The table ${tableID} does not exist for ${gpt.game} ${gpt.playtype}.`);
    const byID = new Map((await this.catalog.foldersByIds(table.folders)).map((f) => [f.folderID, f]));
    const folders = table.folders.flatMap((id) => (byID.has(id) ? [toFolderDocument(byID.get(id)!)] : []));
    return { folders, table: toTableDocument(table) };
  }

  private async findChart(gpt: GptSupport, chartID: string) {
    const chart = await this.catalog.chart(gpt.game, gpt.playtype, chartID);
    if (!chart) throw new NotFoundException(`The chart ${chartID} does not exist for ${gpt.game} ${gpt.playtype}.`);
    return chart;
  }
}
