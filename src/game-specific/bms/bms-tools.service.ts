import { Injectable, NotFoundException } from '@nestjs/common';
import { AppConfig } from '../../config/app-config.js';
import type { GptSupport } from '../../game-support/types.js';
import { toChartDocument, toSongDocument } from '../../presenters/catalog.presenter.js';
import { CatalogRepository } from '../../repositories/catalog.repository.js';
import { GameSpecificRepository } from '../../repositories/game-specific.repository.js';
import type { CustomBmsTableDocument, SongsAndChartsResponse } from '../dto/game-specific.responses.js';
import { bmsTablePage, CUSTOM_BMS_TABLES, type BmsTableEntry, type BmsTableHeader, type CustomBmsTable } from './custom-tables.js';

/** The chart data fields holding Sieglinde's EASY CLEAR and HARD CLEAR estimates. */
const SIEGLINDE_FIELDS = ['sglEC', 'sglHC'];

/** BMS's own tools: the custom tables (from the seeds' tables) and the charts with Sieglinde values. */
@Injectable()
export class BmsToolsService {
  constructor(
    private readonly repository: GameSpecificRepository,
    private readonly catalog: CatalogRepository,
    private readonly config: AppConfig,
  ) {}

  /** The custom tables of the playtype whose seeds' table this deployment has loaded. */
  async customTables(gpt: GptSupport): Promise<CustomBmsTableDocument[]> {
    const offered: CustomBmsTableDocument[] = [];
    for (const t of CUSTOM_BMS_TABLES.filter((c) => c.playtype === gpt.playtype)) {
      if (await this.catalog.table(gpt.game, gpt.playtype, t.tableID))
        offered.push({ urlName: t.urlName, tableName: t.tableName, symbol: t.symbol, description: t.description, forSpecificUser: false });
    }
    return offered;
  }

  /** The table's page, naming its header.json. */
  async page(gpt: GptSupport, urlName: string, userID?: number): Promise<string> {
    const { table } = await this.find(gpt, urlName);
    return bmsTablePage(table, this.url(table, 'header.json', userID));
  }

  /** header.json: name, symbol, where body.json is, and the levels (the table's folder titles) in order. */
  async header(gpt: GptSupport, urlName: string, userID?: number): Promise<BmsTableHeader> {
    const { table, folders } = await this.find(gpt, urlName);
    return { name: table.tableName, symbol: table.symbol, data_url: this.url(table, 'body.json', userID), level_order: folders.map((f) => f.title) };
  }

  /**
   * body.json: every chart of each folder of the table, in the table's order, with its level (the folder's title), MD5, title and artist;
   * for a player's table (userID given), also their lamp on each chart they have played.
   */
  async body(gpt: GptSupport, urlName: string, userID?: number): Promise<BmsTableEntry[]> {
    const { folders } = await this.find(gpt, urlName);
    const entries: BmsTableEntry[] = [];
    for (const folder of folders) {
      const charts = await this.catalog.chartsInFolder(folder.folderID);
      const songs = new Map((await this.repository.songs(gpt.game, [...new Set(charts.map((c) => c.songID))])).map((s) => [s.id, s]));
      const lamps =
        userID === undefined
          ? new Map<string, string>()
          : await this.repository.lampsOn(
              userID,
              charts.map((c) => c.chartID),
            );
      for (const chart of charts) {
        const md5 = chart.data.hashMD5;
        if (typeof md5 !== 'string') continue;
        const song = songs.get(chart.songID);
        const lamp = lamps.get(chart.chartID);
        entries.push({ level: folder.title, md5, ...(song ? { title: song.title, artist: song.artist } : {}), ...(lamp === undefined ? {} : { lamp }) });
      }
    }
    return entries;
  }

  /** The playtype's charts with a Sieglinde estimate above 0 (EC or HC), with their songs. */
  async sieglindeCharts(gpt: GptSupport): Promise<SongsAndChartsResponse> {
    const rows = await this.repository.chartsWithPositiveData(gpt.game, gpt.playtype, SIEGLINDE_FIELDS);
    const songs = [...new Map(rows.map((r) => [r.song.id, r.song])).values()];
    return { songs: songs.map(toSongDocument), charts: rows.map((r) => toChartDocument(r.chart)) };
  }

  /** Where the table's file is: under the player's route for a player's table. */
  private url(table: CustomBmsTable, file: string, userID?: number): string {
    const owner = userID === undefined ? '' : `/users/${userID}`;
    return `${this.config.PUBLIC_URL.replace(/\/$/, '')}/api/v1${owner}/games/bms/${table.playtype}/custom-tables/${table.urlName}/${file}`;
  }

  /** The custom table and its seeds' table's folders in order; 404 for an unknown table or one whose seeds' table is not loaded. */
  private async find(gpt: GptSupport, urlName: string) {
    const table = CUSTOM_BMS_TABLES.find((t) => t.urlName === urlName);
    if (!table) throw new NotFoundException(`No such table with the ID '${urlName}' exists. Tables: ${CUSTOM_BMS_TABLES.map((t) => t.urlName).join(', ')}.`);
    if (table.playtype !== gpt.playtype) throw new NotFoundException(`The table '${urlName}' exists, but is for ${table.playtype}, not ${gpt.playtype}.`);
    const source = await this.catalog.table(gpt.game, gpt.playtype, table.tableID);
    if (!source) throw new NotFoundException(`The table '${urlName}' needs the seeds' table ${table.tableID}, which this server has not loaded.`);
    const folders = await this.catalog.foldersOfGpt(gpt.game, gpt.playtype, source.folders);
    const byID = new Map(folders.map((f) => [f.folderID, f]));
    return { table, folders: source.folders.flatMap((id) => (byID.has(id) ? [byID.get(id)!] : [])) };
  }
}
