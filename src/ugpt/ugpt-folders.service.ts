import { BadRequestException, Injectable, NotFoundException } from '@nestjs/common';
import type { FolderRow } from '../database/schema.js';
import { toChartDocument, toFolderDocument, toSongDocument, toTableDocument } from '../presenters/catalog.presenter.js';
import { toFolderStatsDocument, toRecentFolderViewDocument, type FolderStatsDocument } from '../presenters/folder-stats.presenter.js';
import { toPbDocument } from '../presenters/pb.presenter.js';
import { toScoreDocument } from '../presenters/score.presenter.js';
import { CatalogRepository } from '../repositories/catalog.repository.js';
import { RelatedDocuments } from '../repositories/related-documents.js';
import { UgptFoldersRepository } from '../repositories/ugpt-folders.repository.js';
import type { FolderSearchWithStatsResponse, FolderTimelineResponse, RecentFoldersResponse, UgptFolderResponse, UgptTableResponse } from './dto/folders.dto.js';
import { enumIndex, folderStats } from './folder-stats.js';
import type { UgptContext } from './ugpt.guard.js';

/** As Tachi: a player's folder search holds 20 folders. */
export const UGPT_FOLDER_SEARCH_LIMIT = 20;
/** As Tachi: the recently viewed folders are the latest 6 (and only those are kept). */
export const RECENT_FOLDER_VIEWS = 6;

/** A player's view of folders and tables: their lamp and grade distributions, PBs, timelines and recently viewed folders. */
@Injectable()
export class UgptFoldersService {
  constructor(
    private readonly catalog: CatalogRepository,
    private readonly folders: UgptFoldersRepository,
    private readonly related: RelatedDocuments,
  ) {}

  /** Folders of the GPT matching the search (active ones unless asked), with the player's stats on each; none for an empty search. */
  async search(ugpt: UgptContext, search: string, includeInactive: boolean): Promise<FolderSearchWithStatsResponse> {
    if (search === '') return { folders: [], stats: [] };
    const rows = await this.catalog.searchFolders(ugpt.gpt.game, ugpt.gpt.playtype, search, includeInactive, UGPT_FOLDER_SEARCH_LIMIT);
    return { folders: rows.map(toFolderDocument), stats: await this.stats(ugpt, rows) };
  }

  /** The player's latest folder views on the GPT, newest first, with the folders and the player's stats on them. */
  async recent(ugpt: UgptContext): Promise<RecentFoldersResponse> {
    const views = await this.folders.recentViews(ugpt.user.id, ugpt.gpt, RECENT_FOLDER_VIEWS);
    const byID = new Map((await this.folders.foldersByIds(views.map((v) => v.folderID))).map((f) => [f.folderID, f]));
    const rows = views.flatMap((v) => (byID.has(v.folderID) ? [byID.get(v.folderID)!] : []));
    return { views: views.map(toRecentFolderViewDocument), folders: rows.map(toFolderDocument), stats: await this.stats(ugpt, rows) };
  }

  /** Every chart of the folder with its song, the player's PBs on them, and the player's distributions. */
  async folder(ugpt: UgptContext, folderID: string): Promise<UgptFolderResponse> {
    const folder = await this.findFolder(ugpt, folderID);
    const [charts, pbs, [stats]] = await Promise.all([
      this.catalog.chartsInFolder(folderID),
      this.folders.pbsInFolder(ugpt.user.id, folderID),
      this.stats(ugpt, [folder]),
    ]);
    const songs = await this.catalog.songsByIds(
      ugpt.gpt.game,
      charts.map((c) => c.songID),
    );
    return {
      songs: songs.map(toSongDocument),
      charts: charts.map(toChartDocument),
      pbs: pbs.map(toPbDocument),
      folder: toFolderDocument(folder),
      stats,
    };
  }

  /** "When did I reach X": on each chart of the folder, the player's first score reaching the lamp or grade, earliest first. */
  async timeline(ugpt: UgptContext, folderID: string, criteriaType: 'lamp' | 'grade', criteriaValue: string): Promise<FolderTimelineResponse> {
    const values = criteriaType === 'lamp' ? ugpt.gpt.lamps : ugpt.gpt.grades;
    const index = enumIndex(values, criteriaValue);
    if (index === undefined) {
      throw new BadRequestException(
        `criteriaValue '${criteriaValue}' is not a ${criteriaType} of ${ugpt.gpt.game} ${ugpt.gpt.playtype}: expected one of ${values.join(', ')} (or its index, 0 to ${values.length - 1}).`,
      );
    }
    const folder = await this.findFolder(ugpt, folderID);
    const scores = await this.folders.firstReaching(ugpt.user.id, folderID, criteriaType, index);
    return { ...(await this.related.songsAndCharts(ugpt.gpt.game, scores)), scores: scores.map(toScoreDocument), folder: toFolderDocument(folder) };
  }

  /** Records that the player viewed the folder now (only their latest RECENT_FOLDER_VIEWS are kept). */
  async viewed(ugpt: UgptContext, folderID: string): Promise<void> {
    await this.findFolder(ugpt, folderID);
    await this.folders.recordView(ugpt.user.id, ugpt.gpt, folderID, Date.now(), RECENT_FOLDER_VIEWS);
  }

  /** The table's folders, in the table's order, with the player's distributions on each. */
  async table(ugpt: UgptContext, tableID: string): Promise<UgptTableResponse> {
    const table = await this.catalog.table(ugpt.gpt.game, ugpt.gpt.playtype, tableID);
    if (!table) throw new NotFoundException(`The table ${tableID} does not exist for ${ugpt.gpt.game} ${ugpt.gpt.playtype}.`);
    const byID = new Map((await this.catalog.foldersByIds(table.folders)).map((f) => [f.folderID, f]));
    const rows = table.folders.flatMap((id) => (byID.has(id) ? [byID.get(id)!] : []));
    return { folders: rows.map(toFolderDocument), stats: await this.stats(ugpt, rows), table: toTableDocument(table) };
  }

  /** The player's distributions on each folder, in the folders' order, from two grouped reads. */
  private async stats({ user, gpt }: UgptContext, rows: readonly FolderRow[]): Promise<FolderStatsDocument[]> {
    const ids = rows.map((f) => f.folderID);
    const [chartCounts, counts] = await Promise.all([this.folders.chartCounts(ids), this.folders.enumCounts(user.id, ids)]);
    return ids.map((id) => toFolderStatsDocument(folderStats(gpt, id, chartCounts.get(id) ?? 0, counts)));
  }

  private async findFolder({ gpt }: UgptContext, folderID: string): Promise<FolderRow> {
    const folder = await this.catalog.folder(gpt.game, gpt.playtype, folderID);
    if (!folder) throw new NotFoundException(`The folder ${folderID} does not exist for ${gpt.game} ${gpt.playtype}.`);
    return folder;
  }
}
